package decode

import (
	"bytes"
	"testing"
)

// TestExtendWord puts every byte at every offset of pieces of 1 to 10
// bytes of printable ASCII and feeds each to Extend, ExtendWord and Feed
// after the
// opening of every control string, with a payload past the prefix (where
// Extend tests 4 to 8 bytes as one word) and within it, and after
// openings Extend must not extend. When Extend takes a piece, Feed emits
// nothing for it and leaves the decoder as Extend does; when it does not,
// the decoder is unchanged. It must take every piece of ASCII payload
// but the four bytes that end or abort a string, and nothing after the
// openings of other tokens. ExtendWord must take the pieces of 4 to 8
// bytes of ASCII 0x20–0x7F past the prefix, leaving the decoder as Extend
// does, and nothing else.
func TestExtendWord(t *testing.T) {
	past := string(bytes.Repeat([]byte{'p'}, PrefixLen))
	opens := []struct {
		p    string
		long bool // Extend must take plain payload
		past bool // past the prefix: ExtendWord must take words
	}{
		{"\x1b]0;" + past, true, true},
		{"\x1b]0;t", true, false},
		{"\x1bP$q" + past, true, true},
		{"\x1b_G" + past, true, true},
		{"\x1bX" + past, true, true},
		{"\x1b^" + past, true, true},
		{"\x1bk" + past, true, true},
		{"\x9d0;" + past, true, true},
		{"\x1b]52", false, false},
		{"\x1b[1;2", false, false},
		{"text", false, false},
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
						ext, feed, word := d, d, d
						took := ext.Extend(p)
						tookWord := word.ExtendWord(p)
						emitted := 0
						feed.Feed(p, func(*Token) { emitted++ })
						// Payload that needs no decision: ASCII but
						// the four bytes that end or abort a string.
						plain := b < 0x80 && b != 0x07 && b != 0x18 && b != 0x1A && b != 0x1B
						isWord := o.past && n >= 4 && n <= 8 && b >= 0x20 && b < 0x80
						switch {
						case tookWord != isWord:
							t.Fatalf("grammar %d after %q: ExtendWord(% x) = %v, want %v", gi, o.p, p, tookWord, isWord)
						case tookWord && word != ext, !tookWord && word != d:
							t.Fatalf("grammar %d after %q: ExtendWord(% x) left\n%+v\nExtend\n%+v", gi, o.p, p, word, ext)
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
