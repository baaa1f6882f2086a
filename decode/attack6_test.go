package decode

import "testing"

// FuzzExtendAny: from the state any input leaves, under each grammar,
// a piece that Extend takes is one that Feed decodes to no token and to
// the same decoder, and one it declines leaves the decoder unchanged.
func FuzzExtendAny(f *testing.F) {
	for _, s := range []string{"\x1b]0;ti", "\x1b[1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1", "\x1bPq#0", "\x9d8;;http", "\x1b_Gx\x07y"} {
		f.Add([]byte(s), []byte("abc;1\xc2\xa0"), uint8(0))
	}
	grammars := []Decoder{{}, {LoneC1: true}, {APCBEL: true, MaxPayload: 4}, {LoneC1: true, APCBEL: true, MaxPayload: 1}}
	f.Fuzz(func(t *testing.T, prefix, p []byte, g uint8) {
		d := grammars[int(g)%len(grammars)]
		d.Feed(prefix, func(*Token) {})
		ext, feed := d, d
		took := ext.Extend(p)
		emitted := 0
		feed.Feed(p, func(*Token) { emitted++ })
		switch {
		case took && (emitted > 0 || ext != feed):
			t.Fatalf("%q then % x: Extend took it, Feed emits %d tokens or leaves another decoder:\n%+v\n%+v", prefix, p, emitted, ext, feed)
		case !took && ext != d:
			t.Fatalf("%q then % x: Extend declined but changed the decoder", prefix, p)
		}
	})
}
