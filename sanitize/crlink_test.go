package sanitize

import (
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// TestLinkClasses: linked's classes of an OSC 8 (linkClasses, by whether
// it opens a link) are what Advisories gives each OSC 8 without flags:
// opens with and without parameters, URIs past the stored prefix, and
// closes.
func TestLinkClasses(t *testing.T) {
	for _, tc := range []struct {
		in   string
		open bool
	}{
		{"\x1b]8;;\x1b\\", false},
		{"\x1b]8;id=1;\x07", false},
		{"\x1b]8\x07", false},
		{"\x1b]8;\x07", false},
		{"\x1b]8;;x\x1b\\", true},
		{"\x1b]8;;https://e.example/a/very/long/path\x1b\\", true},
		{"\x1b]8;id=a-very-long-parameter-past-the-prefix;\x1b\\", true},
		{"\xc2\x9d8;;http://u.example/\xc2\x9c", true},
	} {
		n := 0
		for tok := range decode.Tokens([]byte(tc.in)) {
			n++
			if tok.Kind != decode.KindOSC || tok.Command != 8 || tok.Flags != 0 {
				t.Fatalf("%q: token %+v, want an OSC 8 without flags", tc.in, tok)
			}
			if got := LinkCloses(&tok); got == tc.open {
				t.Errorf("%q: LinkCloses %v, want %v", tc.in, got, !tc.open)
			}
			i := 0
			if tc.open {
				i = 1
			}
			if got, want := linkClasses[i], Advisories(&tok); got != want {
				t.Errorf("%q: linkClasses[%d] = %v, Advisories %v", tc.in, i, got, want)
			}
		}
		if n != 1 {
			t.Errorf("%q: %d tokens, want 1", tc.in, n)
		}
	}
}

// TestBuildLogAllocs: the build log (CR redraws, OSC 8 links) on the
// record path, in 64 KiB and 7-byte Writes under every record policy,
// allocates nothing per Write once findings are full.
func TestBuildLogAllocs(t *testing.T) {
	var p []byte
	for _, in := range benchInputs() {
		if in.name == "buildlog" {
			p = in.data[:256<<10]
		}
	}
	if p == nil {
		t.Fatal("no buildlog input")
	}
	for _, o := range recordPolicies {
		for _, size := range []int{64 << 10, 7} {
			w := NewWriter(discard{}, o)
			w.c.path = pathRecords
			write := func() {
				for q := p; len(q) > 0; q = q[min(size, len(q)):] {
					w.Write(q[:min(size, len(q))])
				}
			}
			write()
			if n := testing.AllocsPerRun(3, write); n != 0 {
				t.Errorf("%+v, %d-byte Writes: %.1f allocations per %d bytes", o, size, n, len(p))
			}
		}
	}
}
