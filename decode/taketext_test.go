package decode

import (
	"bytes"
	"testing"
)

// TestTakeText checks TakeText against AppendText (which TestAppendText
// checks against Feed) on every lead byte followed by a spread of two
// bytes, then a 3-byte character, text, LF and a lead byte, after "a",
// cut at every offset and every length after it (up to maxTextStep, so
// that its table step reads them): it takes what AppendText takes, and
// then its text is AppendText's, from p without a copy when the decoder
// was in ground, its cut is AppendText's, and it leaves the decoder as
// AppendText does; when it takes nothing, it changes nothing.
func TestTakeText(t *testing.T) {
	spread := []byte{0x00, 0x0A, 0x1B, 0x41, 0x7F, 0x80, 0x9B, 0x9F, 0xA0, 0xBF, 0xC2, 0xE2, 0xED}
	if testing.Short() {
		spread = []byte{0x0A, 0x1B, 0x41, 0x80, 0xBF, 0xE2}
	}
	took := [2]int{} // in ground, in state utf8
	for b0 := 0; b0 < 256; b0++ {
		for _, b1 := range spread {
			for _, b2 := range spread {
				p := []byte{'a', byte(b0), b1, b2, 0xE4, 0xB8, 0xAD, 'b', '\n', 0xD0}
				for j := 1; j < len(p); j++ {
					var d Decoder
					d.Feed(p[:j], func(*Token) {})
					for e := j; e <= len(p); e++ {
						q := p[j:e]
						tk, ap := d, d
						text, cut, ok := tk.TakeText([]byte("x"), q)
						want, wcut, wok := ap.AppendText([]byte("x"), q)
						switch {
						case ok != wok:
							t.Fatalf("% x cut at %d, %d: TakeText took it %v, AppendText %v", p, j, e, ok, wok)
						case !ok && (tk != d || string(text) != "x"):
							t.Fatalf("% x cut at %d, %d: TakeText took nothing but gave % x or changed the decoder", p, j, e, text)
						case !ok:
						case d.InGround() && (!bytes.Equal(text, want[1:]) || len(text) > 0 && &text[0] != &q[0]):
							t.Fatalf("% x cut at %d, %d: TakeText gave % x, want % x from p", p, j, e, text, want[1:])
						case !d.InGround() && !bytes.Equal(text, want):
							t.Fatalf("% x cut at %d, %d: TakeText appended % x, want % x", p, j, e, text, want)
						case cut != wcut:
							t.Fatalf("% x cut at %d, %d: TakeText cut %d, AppendText %d", p, j, e, cut, wcut)
						case tk != ap:
							t.Fatalf("% x cut at %d, %d: TakeText left\n%+v\nAppendText\n%+v", p, j, e, tk, ap)
						default:
							if d.InGround() {
								took[0]++
							} else {
								took[1]++
							}
						}
					}
				}
			}
		}
	}
	if took[0] == 0 || took[1] == 0 {
		t.Fatalf("TakeText took %d pieces in ground and %d in state utf8", took[0], took[1])
	}
	// Past maxTextStep it is AppendText.
	var d Decoder
	long := []byte("a longer piece of text é 中 ok\n\xe4")
	text, cut, ok := d.TakeText(nil, long)
	if !ok || cut != 1 || !bytes.Equal(text, long[:len(long)-1]) || d.Offset() != int64(len(long)) {
		t.Fatalf("TakeText(%q) = %q, %d, %v at offset %d", long, text, cut, ok, d.Offset())
	}
}

// TestTakeWord: TakeWord takes 4 to 8 bytes of printable ASCII in ground
// and nothing else: every byte at every offset of ASCII of 1 to 10 bytes,
// in ground and after an ESC. When it takes p, it leaves the decoder as
// TakeText does but for TakeTextBlanks' count of the bytes it consumed,
// which it leaves alone.
func TestTakeWord(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for i := range n {
			for b := range 256 {
				p := bytes.Repeat([]byte{'x'}, n)
				p[i] = byte(b)
				for _, before := range []string{"a", "a\x1b"} {
					var d Decoder
					d.Feed([]byte(before), func(*Token) {})
					word, text := d, d
					ok := word.TakeWord(p)
					want := n >= 4 && n <= 8 && b >= 0x20 && b < 0x7F && before == "a"
					if ok != want {
						t.Fatalf("TakeWord(%q) after %q = %v, want %v", p, before, ok, want)
					}
					if !ok {
						if word != d {
							t.Fatalf("TakeWord(%q) after %q took nothing but changed the decoder", p, before)
						}
						continue
					}
					text.TakeText(nil, p)
					text.fed = d.fed
					if word != text {
						t.Fatalf("TakeWord(%q) left\n%+v\nTakeText\n%+v", p, word, text)
					}
				}
			}
		}
	}
}
