package decode

import (
	"slices"
	"testing"
)

// FuzzDecode checks, for any input and any split point, that tokens tile
// the input and that splitting changes nothing, at that point and at every
// byte (one byte per Feed never takes a fast path).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"plain text\n", "\x1b[1;31mred\x1b[0m", "\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\",
		"\x1b]52;c;QUFB\x07", "\x9b31m\xc2\x9b0m", "\x1b]0;a\x9cb\x07", "\xe6\x9bh\xc0\x9b",
		"\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\", "\x1b[3\n1m\x1b[3\x18", "a\u202eb\U000E0041",
	} {
		f.Add([]byte(s), uint16(3), false)
	}
	f.Fuzz(func(t *testing.T, p []byte, cut uint16, lone bool) {
		d := Decoder{LoneC1: lone, APCBEL: lone}
		whole := collect(d, p)
		checkTiling(t, p, whole)
		c := int(cut) % (len(p) + 1)
		split := feedSplit(d, p, []int{c})
		if a, b := coalesce(whole), coalesce(split); !slices.Equal(a, b) {
			t.Fatalf("%q split at %d:\n got %q\nwant %q", p, c, sigs(b), sigs(a))
		}
		every := make([]int, 0, len(p))
		for i := 1; i < len(p); i++ {
			every = append(every, i)
		}
		if a, b := coalesce(whole), coalesce(feedSplit(d, p, every)); !slices.Equal(a, b) {
			t.Fatalf("%q byte by byte:\n got %q\nwant %q", p, sigs(b), sigs(a))
		}
	})
}
