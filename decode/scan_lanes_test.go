package decode

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/internal/benchinput"
)

// oneLaneRecords returns the records Scan writes for p cut at cuts with
// room for size records per call, the lanes off.
func oneLaneRecords(d Decoder, p []byte, cuts []int, size int) []Record {
	scanOneLane = true
	defer func() { scanOneLane = false }()
	return scanRecords(d, p, cuts, size)
}

// checkLanes holds Scan with lanes to Scan without them and to Feed on p,
// with room for 1024 records (the lanes need laneRoom) and cut at cut.
func checkLanes(t *testing.T, p []byte, d Decoder, cut int) {
	t.Helper()
	want := feedRecords(d, p)
	if one := oneLaneRecords(d, p, nil, 1024); !slices.Equal(one, want) {
		t.Fatalf("%q (%d bytes): one lane differs from Feed", p[:min(len(p), 200)], len(p))
	}
	cut = min(cut, len(p))
	for _, cuts := range [][]int{nil, {cut}} {
		if got := scanRecords(d, p, cuts, 1024); !slices.Equal(got, want) {
			k := 0
			for k < min(len(got), len(want)) && got[k] == want[k] {
				k++
			}
			t.Fatalf("%q (%d bytes; lone %v, apc-bel %v), cut at %v: record %d:\n got %q\nwant %q", p[:min(len(p), 200)], len(p), d.LoneC1, d.APCBEL, cuts, k,
				recordSigs(got[k:min(len(got), k+3)]), recordSigs(want[k:min(len(want), k+3)]))
		}
	}
}

// TestScanLanesSplit puts a token across lane B's warm-up and the split
// point of a block (laneSteps bytes in), at every offset around it: a
// string payload longer than the warm-up (lane B, in ground, reads it as
// text and misspeculates), a CSI, a UTF-8 character, a text run, and
// controls that end two records (which stop the lanes).
func TestScanLanesSplit(t *testing.T) {
	tokens := []string{
		// Payloads that lane A steps on the table (a stay run of fewer
		// than scanStay bytes) and lane B, from ground, reads as text.
		"\x1b]0;" + strings.Repeat("abcé", laneWarm) + "\x07",
		"\x1bPq" + strings.Repeat("#0é", laneWarm) + "\x1b\\",
		"\x1b_" + strings.Repeat("Ga=é", laneWarm) + "\x9c",
		"\x1b]0;" + strings.Repeat("t", 2*laneWarm) + "\x07",
		"\x1b]0;" + strings.Repeat("t", laneWarm-3) + "\x1b\\",
		"\x1bP1$" + strings.Repeat("q", laneWarm+5) + "\x9c",
		"\x1b[38;5;208m", "\x9b1;2;3m", "\x1b[?25l",
		"\u202e", "é", "\xc2\x9b0m", "\xe2\x80", "\xed\x9f\xbf", "\U0001F600",
		"abcdefgh", "x\x07", "\r\n", "\x1b\x1b[",
	}
	// Dense escapes around the token, so that the lanes run before it.
	fill := "\x1b[1mx\x1b(B\r\b\x00\x1b7"
	for _, tok := range tokens {
		for at := laneSteps - laneWarm - len(tok); at <= laneSteps+2; at++ {
			for _, lead := range []int{0, laneSpan} {
				pre := strings.Repeat(fill, (lead+max(at, 0))/len(fill)+1)[:lead+max(at, 0)]
				p := []byte(pre + tok + strings.Repeat(fill, 40))
				checkLanes(t, p, Decoder{LoneC1: at%2 == 0}, lead+laneSteps)
			}
		}
	}
}

// TestScanLanesBench holds the lanes to Feed on 64 KiB of each benchmark
// input.
func TestScanLanesBench(t *testing.T) {
	for _, in := range benchinput.Inputs(filepath.Join("..", "sanitize", "testdata", "bench")) {
		checkLanes(t, in.Data[:min(len(in.Data), 1<<16)], Decoder{}, 1<<15+17)
	}
}

// FuzzScanLanes holds Scan with lanes to Scan without them and to Feed on
// any input, repeated to reach the lanes' blocks, cut anywhere.
func FuzzScanLanes(f *testing.F) {
	for _, s := range []string{
		"\x1b[38;5;208mx\x1b]0;t\x07\x1b(B\x1b[?25l\x9b1m\xc2\x9b0m\x1bP$qm\x1b\\\x1b_Ga=T\x1b\\\x1b^pm\x1b\\\x1b7\r\b\x00\u202eé",
		"\x1b]0;" + strings.Repeat("payload ", 8) + "\x07",
		"\x1b[1;31mred\x1b[0m \x1b[32mgreen\x1b[0m\n",
	} {
		f.Add([]byte(s), uint16(100), false, false)
	}
	f.Fuzz(func(t *testing.T, p []byte, cut uint16, lone, apcBEL bool) {
		if len(p) == 0 {
			return
		}
		p = []byte(strings.Repeat(string(p), 3*laneSpan/len(p)+1))
		checkLanes(t, p, Decoder{LoneC1: lone, APCBEL: apcBEL}, int(cut))
	})
}
