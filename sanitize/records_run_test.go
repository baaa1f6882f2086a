package sanitize

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRecordsRun runs Bytes over one benchmark input a number of times,
// for a profiler that counts instructions rather than time (BENCHMARKS.md:
// valgrind --tool=cachegrind --branch-sim=yes, whose counts do not depend
// on the load of a shared machine). BYTELENS_RUN is "name,times"; unset,
// the test is skipped. The inputs are generated first, the same work for
// every input: a run with a name that matches none counts only that.
func TestRecordsRun(t *testing.T) {
	name, times, ok := strings.Cut(os.Getenv("BYTELENS_RUN"), ",")
	if !ok {
		t.Skip("set BYTELENS_RUN=input,times to run")
	}
	n, err := strconv.Atoi(times)
	if err != nil {
		t.Fatalf("BYTELENS_RUN: %v", err)
	}
	for _, in := range benchInputs() {
		if in.name == name {
			for range n {
				Bytes(in.data, Options{})
			}
		}
	}
}
