package decode

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestIsBlank checks isBlank against unicode.Zs for every character, and
// that no lead byte of a blank is one skipText takes without decoding
// (textLen), so that Feed meets every blank where it counts them.
func TestIsBlank(t *testing.T) {
	for r := rune(0); r <= utf8.MaxRune; r++ {
		want := int64(0)
		if r >= utf8.RuneSelf && unicode.Is(unicode.Zs, r) {
			want = 1
			if lead := string(r)[0]; textLen[lead] != 0 {
				t.Fatalf("%U is a blank, but skipText skips its lead byte %02X", r, lead)
			}
		}
		if got := isBlank(r); got != want {
			t.Fatalf("isBlank(%U) = %d, want %d", r, got, want)
		}
	}
}

// TestTakeTextBlanks: Feed counts the blanks of the text it emits, whole
// or cut across Feeds, and not those in a control string; AppendText
// and Feed count the bytes they consume; each call starts the counts
// afresh.
func TestTakeTextBlanks(t *testing.T) {
	p := []byte("a\u00a0b\u3000c\x1b]0;\u2000\x07\u202f終\u205f")
	for _, cuts := range [][]int{nil, {2}, {3}, {5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}} {
		var d Decoder
		prev := 0
		var blanks, fed int64
		for _, c := range append(cuts, len(p)) {
			d.Feed(p[prev:c], func(*Token) {})
			b, f := d.TakeTextBlanks()
			blanks, fed, prev = blanks+b, fed+f, c
		}
		if blanks != 4 || fed != int64(len(p)) {
			t.Errorf("cuts %v: %d blanks in %d bytes, want 4 in %d", cuts, blanks, fed, len(p))
		}
	}
	var d Decoder
	if _, _, ok := d.AppendText(nil, []byte("text \xe7\xb5")); !ok {
		t.Fatal("AppendText refused text")
	}
	if b, f := d.TakeTextBlanks(); b != 0 || f != 7 {
		t.Errorf("after AppendText: %d blanks in %d bytes, want 0 in 7", b, f)
	}
	d.Feed([]byte("\x82\u00a0"), func(*Token) {})
	if b, f := d.TakeTextBlanks(); b != 1 || f != 3 {
		t.Errorf("after Feed: %d blanks in %d bytes, want 1 in 3", b, f)
	}
}
