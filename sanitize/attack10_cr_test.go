package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestAttack10QuickCR: runs of CRs before every record quickRecords now
// settles itself (text, an LF or TAB embedded in a sequence, invalid
// UTF-8), before and after findings fill, under each CR policy, written
// whole and cut: the record path and the choice by piece give the token
// path's text and report.
func TestAttack10QuickCR(t *testing.T) {
	loud := []string{"\x1b[6n", "\x9b6n", "\x1b]52;c;?\x07", "\x1b[5n"}
	parts := []string{
		"\r", "\r\r", "\r\n", "\r\r\n", "ab", "x", "\n", "\t", "\x1b[1\nm", "\x1b[\t31m", "\x1b[3\n1m",
		"\xff", "\xe6\x9b", "\x1b[31m", "\x1b[0m", "\x07", "\b", "\x0b", "\x0c", "中文", "\x1b]0;t\x07",
		"\x1b[1;\r2m", "\x1b[\r\nm", "\x1b]0;\r\n\x07", "\u00a0", "\x1b(B",
	}
	r := rand.New(rand.NewPCG(10, 10))
	n := 40
	if testing.Short() {
		n = 12
	}
	for i := range n {
		var p []byte
		fill := 0
		if i%2 == 0 {
			fill = MaxFindings - 20 + r.IntN(40)
		}
		for k := 0; k < fill; k++ {
			p = append(p, loud[r.IntN(len(loud))]...)
			p = append(p, parts[r.IntN(len(parts))]...)
		}
		for k := 0; k < 2000; k++ {
			p = append(p, parts[r.IntN(len(parts))]...)
		}
		for _, cr := range []CRPolicy{CRLines, CRDrop} {
			o := attackOptions(r)
			o.CR = cr
			var cuts []int
			switch i % 3 {
			case 0:
				cuts = cutsEvery(512+r.IntN(4000), len(p))
			case 1:
				cuts = attack8Cuts(r, len(p), 2)
			}
			want := writeCut(p, o, cuts, false, pathTokens)
			for _, path := range []pathChoice{pathRecords, pathAuto} {
				got := writeCut(p, o, cuts, false, path)
				if !bytes.Equal(got.out, want.out) {
					t.Fatalf("%d: %v path %v: text differs at %d", i, o, path, diffAt(got.out, want.out))
				}
				if !reflect.DeepEqual(got.rep, want.rep) {
					t.Fatalf("%d: %v path %v: report\n got %+v\nwant %+v", i, o, path, got.rep, want.rep)
				}
			}
			b, rep := Bytes(p, o)
			fb, frep := freshBytes(p, o)
			if !bytes.Equal(b, fb) || !reflect.DeepEqual(rep, frep) {
				t.Fatalf("%d: Bytes differs from a fresh cleaner", i)
			}
		}
	}
}

func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
