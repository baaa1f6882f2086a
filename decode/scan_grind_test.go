package decode

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// TestScanGrind scans the recorded input BYTELENS_GRIND (a file name in
// sanitize/testdata/bench) BYTELENS_GRIND_N times: a harness for counting
// instructions and branch mispredictions per byte under valgrind's
// cachegrind (BENCHMARKS.md, csiword).
func TestScanGrind(t *testing.T) {
	name := os.Getenv("BYTELENS_GRIND")
	if name == "" {
		t.Skip("set BYTELENS_GRIND to a file of sanitize/testdata/bench and BYTELENS_GRIND_N")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, err := os.ReadFile(filepath.Join("..", "sanitize", "testdata", "bench", name))
	if err != nil {
		t.Fatal(err)
	}
	times, _ := strconv.Atoi(os.Getenv("BYTELENS_GRIND_N"))
	recs := make([]Record, 1024)
	var d Decoder
	for range times {
		for q := p; len(q) > 0; {
			m, _ := d.Scan(q, recs)
			q = q[m:]
		}
	}
}
