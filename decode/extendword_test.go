package decode

import (
	"bytes"
	"testing"
)

// TestExtendWord puts every byte at every offset of pieces of 1 to 10
// bytes of printable ASCII and feeds each to Extend and to Feed after the
// opening of every control string, with a payload past the prefix (where
// Extend tests 4 to 8 bytes as one word) and within it, and after
// openings Extend must not extend. When Extend takes a piece, Feed emits
// nothing for it and leaves the decoder as Extend does; when it does not,
// the decoder is unchanged. It must take every piece of ASCII payload
// but the four bytes that end or abort a string, and nothing after the
// openings of other tokens.
func TestExtendWord(t *testing.T) {
	past := string(bytes.Repeat([]byte{'p'}, PrefixLen))
	opens := []struct {
		p    string
		long bool // Extend must take plain payload
	}{
		{"\x1b]0;" + past, true},
		{"\x1b]0;t", true},
		{"\x1bP$q" + past, true},
		{"\x1b_G" + past, true},
		{"\x1bX" + past, true},
		{"\x1b^" + past, true},
		{"\x1bk" + past, true},
		{"\x9d0;" + past, true},
		{"\x1b]52", false},
		{"\x1b[1;2", false},
		{"text", false},
	}
	grammars := []Decoder{{}, {APCBEL: true, MaxPayload: 4}}
	for gi, g := range grammars {
		for _, o := range opens {
			d := g
			d.Feed([]byte(o.p), func(*Token) {})
			for n := 1; n <= 10; n++ {
				for i := range n {
					for b := range 256 {
						p := bytes.Repeat([]byte{'x'}, n)
						p[i] = byte(b)
						ext, feed := d, d
						took := ext.Extend(p)
						emitted := 0
						feed.Feed(p, func(*Token) { emitted++ })
						// Payload that needs no decision: ASCII but
						// the four bytes that end or abort a string.
						plain := b < 0x80 && b != 0x07 && b != 0x18 && b != 0x1A && b != 0x1B
						switch {
						case took && (emitted > 0 || ext != feed):
							t.Fatalf("grammar %d after %q: Extend took % x, but Feed emits %d tokens or leaves another decoder", gi, o.p, p, emitted)
						case !took && ext != d:
							t.Fatalf("grammar %d after %q: Extend did not take % x but changed the decoder", gi, o.p, p)
						case took && !o.long, !took && o.long && plain:
							t.Fatalf("grammar %d after %q: Extend(% x) = %v, want %v", gi, o.p, p, took, o.long && plain)
						}
					}
				}
			}
		}
	}
}
