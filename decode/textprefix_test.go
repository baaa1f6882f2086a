package decode

import (
	"slices"
	"testing"
)

// TestTextPrefix checks TextPrefix and SkipText against Feed on every
// lead byte followed by a spread of two bytes, after "a" and before
// "b\t\n":
// the prefix decodes as one text token with the decoder left in ground,
// and skipping it, then feeding the rest, gives the tokens Feed gives
// for the rest of the whole input.
func TestTextPrefix(t *testing.T) {
	spread := []byte{0x00, 0x09, 0x0A, 0x1B, 0x41, 0x7F, 0x80, 0x8B, 0x9B, 0x9C, 0x9F, 0xA0, 0xAD, 0xBF, 0xC0, 0xC2, 0xE2, 0xED, 0xF0}
	for b0 := 0; b0 < 256; b0++ {
		for _, b1 := range spread {
			for _, b2 := range spread {
				p := []byte{'a', byte(b0), b1, b2, 'b', '\t', '\n'}
				k := TextPrefix(p)
				if k < 1 || k > len(p) {
					t.Fatalf("% x: TextPrefix %d", p, k)
				}
				var d Decoder
				pre := coalesce(feedSplit(d, p[:k], nil))
				if len(pre) != 1 || pre[0].Kind != KindText || pre[0].Len != int64(k) {
					t.Fatalf("% x: prefix of %d bytes decodes as %q", p, k, sigs(pre))
				}
				d.Feed(p[:k], func(*Token) {})
				if !d.InGround() {
					t.Fatalf("% x: prefix of %d bytes leaves state %d", p, k, d.state)
				}
				var skip Decoder
				skip.SkipText(k)
				var whole []Token
				for _, tok := range coalesce(collect(Decoder{}, p)) {
					if tok.End() > int64(k) {
						if tok.Off < int64(k) {
							tok.Len, tok.Off = tok.End()-int64(k), int64(k)
						}
						whole = append(whole, tok)
					}
				}
				if rest := coalesce(feedSplit(skip, p[k:], nil)); !slices.Equal(rest, whole) {
					t.Fatalf("% x: after skipping %d bytes %q, fed whole %q", p, k, sigs(rest), sigs(whole))
				}
			}
		}
	}
}
