package decode

import (
	"bytes"
	"testing"
)

// TestAppendText checks AppendText (and so TextPrefix) against Feed on
// every lead byte followed by a spread of two bytes, after "a" and before
// "b\t\n", cut at every offset and every length after it: what it takes
// after the first Feed, Feed would emit as text tokens and nothing else,
// the text it appends is those input bytes, it leaves the decoder as Feed
// does, and it takes what Feed emits as text tokens and nothing else.
func TestAppendText(t *testing.T) {
	spread := []byte{0x00, 0x09, 0x0A, 0x1B, 0x41, 0x7F, 0x80, 0x8B, 0x9B, 0x9C, 0x9F, 0xA0, 0xAD, 0xBF, 0xC0, 0xC2, 0xE2, 0xED, 0xF0}
	if testing.Short() {
		spread = []byte{0x0A, 0x1B, 0x41, 0x80, 0x9B, 0xBF, 0xC2, 0xE2}
	}
	took := 0
	for b0 := 0; b0 < 256; b0++ {
		for _, b1 := range spread {
			for _, b2 := range spread {
				p := []byte{'a', byte(b0), b1, b2, 'b', '\t', '\n'}
				for j := 1; j < len(p); j++ {
					for e := j + 1; e <= len(p); e++ {
						var d Decoder
						d.Feed(p[:j], func(*Token) {})
						before, feed := d, d
						text, cut, ok := d.AppendText([]byte("x"), p[j:e])
						textOnly := true
						feed.Feed(p[j:e], func(tok *Token) { textOnly = textOnly && tok.Kind == KindText && tok.Flags == 0 })
						feed.one, d.one, before.one = Token{}, Token{}, Token{}
						switch {
						case !ok && (d != before || string(text) != "x"):
							t.Fatalf("% x cut at %d, %d: AppendText took nothing but wrote % x or changed the decoder", p, j, e, text[1:])
						case !ok && isASCIIText(p[j:e]) && before.InGround():
							t.Fatalf("% x cut at %d, %d: AppendText left ASCII text", p, j, e)
						case !ok:
						case !textOnly:
							t.Fatalf("% x cut at %d, %d: AppendText took bytes that Feed does not emit as text", p, j, e)
						case !bytes.Equal(text[1:], p[e-cut-len(text)+1:e-cut]):
							t.Fatalf("% x cut at %d, %d: AppendText wrote % x", p, j, e, text[1:])
						case d != feed:
							t.Fatalf("% x cut at %d, %d: after AppendText the decoder differs from Feed's", p, j, e)
						default:
							took++
						}
					}
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

// isASCIIText reports whether p is printable ASCII, TAB and LF only.
func isASCIIText(p []byte) bool {
	for _, b := range p {
		if b != '\t' && b != '\n' && (b < 0x20 || b >= 0x7F) {
			return false
		}
	}
	return true
}
