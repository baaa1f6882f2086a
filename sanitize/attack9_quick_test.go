package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestAttack9QuickSlotsFill: streams of short memo-able tokens, loud (a
// finding each: DSR, OSC 52, C1, title reports, bidi controls) and quiet
// (SGR, OSC 0 titles, charset escapes), with text between, long enough
// that findings fill (MaxFindings) inside one Write of the record path,
// or in a Write of a few bytes: the record path and the choice by piece
// give the token path's text and report, findings included.
func TestAttack9QuickSlotsFill(t *testing.T) {
	loud := []string{"\x1b[6n", "\x1b]52;c;?\x07", "\x9b6n", "\xc2\x85", "\x1b[21t", "\u202e", "\x1bP$qm\x1b\\", "\x1b]52;c;aGk=\x07", "\x1b[5n", "\x1b[?1049h"}
	quiet := []string{"\x1b[1m", "\x1b[0m", "\x1b[38;5;208m", "\x1b]0;t\x07", "\x1b(B", "\x1b[m", "ab", "\r\n", "\x1b[K", "\x1b[31m"}
	r := rand.New(rand.NewPCG(7, 77))
	n := 24
	if testing.Short() {
		n = 8
	}
	for i := range n {
		var p []byte
		fill := MaxFindings - 40 + r.IntN(80)
		for k := 0; k < fill+200; k++ {
			if r.IntN(3) == 0 || k < fill {
				p = append(p, loud[r.IntN(len(loud))]...)
			}
			p = append(p, quiet[r.IntN(len(quiet))]...)
		}
		o := attackOptions(r)
		var cuts []int
		switch i % 3 {
		case 0: // one Write, or pieces of the record path
			cuts = cutsEvery(512+r.IntN(4000), len(p))
		case 1:
			cuts = attack8Cuts(r, len(p), 2)
		default:
			cuts = cutsEvery(1+r.IntN(9), len(p))
		}
		want := writeCut(p, o, cuts, false, pathTokens)
		if len(want.rep.Findings) != MaxFindings {
			t.Fatalf("%d findings, want them full (%d)", len(want.rep.Findings), MaxFindings)
		}
		for _, path := range []pathChoice{pathRecords, pathAuto} {
			got := writeCut(p, o, cuts, false, path)
			if !bytes.Equal(got.out, want.out) || !reflect.DeepEqual(got.rep, want.rep) {
				t.Fatalf("%d bytes %v, %d cuts, path %v: reports differ\n got %+v\nwant %+v", len(p), o, len(cuts), path, got.rep.Kept, want.rep.Kept)
			}
		}
	}
}
