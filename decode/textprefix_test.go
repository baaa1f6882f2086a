package decode

import (
	"bytes"
	"testing"
)

// TestAppendText checks AppendText (and so TextPrefix) against Feed on
// every lead byte followed by a spread of two bytes, after "a" and before
// "b\t\n", cut at every offset: what it takes after the first Feed, Feed
// would emit as text tokens and nothing else, the text it appends is
// those input bytes, and it leaves the decoder as Feed does.
func TestAppendText(t *testing.T) {
	spread := []byte{0x00, 0x09, 0x0A, 0x1B, 0x41, 0x7F, 0x80, 0x8B, 0x9B, 0x9C, 0x9F, 0xA0, 0xAD, 0xBF, 0xC0, 0xC2, 0xE2, 0xED, 0xF0}
	took := 0
	for b0 := 0; b0 < 256; b0++ {
		for _, b1 := range spread {
			for _, b2 := range spread {
				p := []byte{'a', byte(b0), b1, b2, 'b', '\t', '\n'}
				for j := 1; j < len(p); j++ {
					var d Decoder
					d.Feed(p[:j], func(*Token) {})
					feed := d
					text, n, cut := d.AppendText([]byte("x"), p[j:])
					ok := true
					feed.Feed(p[j:j+n], func(tok *Token) { ok = ok && tok.Kind == KindText && tok.Flags == 0 })
					feed.one, d.one = Token{}, Token{}
					switch {
					case !ok:
						t.Fatalf("% x cut at %d: AppendText took %d bytes that Feed does not emit as text", p, j, n)
					case !bytes.Equal(text[1:], p[j+n-cut-len(text)+1:j+n-cut]):
						t.Fatalf("% x cut at %d: AppendText took %d bytes and wrote % x", p, j, n, text[1:])
					case d != feed:
						t.Fatalf("% x cut at %d: after AppendText took %d bytes the decoder differs from Feed's", p, j, n)
					}
					took += n
				}
			}
		}
	}
	if took == 0 {
		t.Fatal("AppendText took nothing")
	}
}

// TestTextPrefixASCII checks that TextPrefix takes all of printable
// ASCII, TAB and LF, and no other ASCII byte.
func TestTextPrefixASCII(t *testing.T) {
	for b := range 0x80 {
		want := 0
		if b == '\t' || b == '\n' || b >= 0x20 && b < 0x7F {
			want = 1
		}
		if got := TextPrefix([]byte{byte(b)}); got != want {
			t.Errorf("TextPrefix(%#02x) = %d, want %d", b, got, want)
		}
	}
}
