package decode

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/bytelens/bytelens/internal/benchinput"
)

// TestScanGrind scans the input BYTELENS_GRIND (a file name in
// sanitize/testdata/bench, or the name of a generated input of
// internal/benchinput such as dense) BYTELENS_GRIND_N times: a harness
// for counting instructions and branch mispredictions per byte under
// valgrind's cachegrind (BENCHMARKS.md, csiword and asmsteps).
func TestScanGrind(t *testing.T) {
	name := os.Getenv("BYTELENS_GRIND")
	if name == "" {
		t.Skip("set BYTELENS_GRIND to a file of sanitize/testdata/bench and BYTELENS_GRIND_N")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dir := filepath.Join("..", "sanitize", "testdata", "bench")
	p, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		for _, in := range benchinput.Inputs(dir) {
			if in.Name == name {
				p, err = in.Data, nil
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	times, _ := strconv.Atoi(os.Getenv("BYTELENS_GRIND_N"))
	t.Logf("%s: %d bytes, %d times", name, len(p), times)
	recs := make([]Record, 1024)
	var d Decoder
	for range times {
		for q := p; len(q) > 0; {
			m, _ := d.Scan(q, recs)
			q = q[m:]
		}
	}
}
