package sanitize

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestWriteCallgrind writes one benchmark input twice through one Writer,
// BYTELENS_CALLGRIND_SIZE bytes per Write, and logs the number of Writes:
// a harness for counting instructions per Write under valgrind (the
// command is in BENCHMARKS.md, "Issue 12: small writes 2"). Run with
// BYTELENS_CALLGRIND set to the input's name.
func TestWriteCallgrind(t *testing.T) {
	name := os.Getenv("BYTELENS_CALLGRIND")
	if name == "" {
		t.Skip("set BYTELENS_CALLGRIND to an input name (and BYTELENS_CALLGRIND_SIZE) to run")
	}
	// callgrind collects per thread: a Write that moved to another
	// thread would be counted in part.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	size, err := strconv.Atoi(os.Getenv("BYTELENS_CALLGRIND_SIZE"))
	if err != nil || size <= 0 {
		size = 7
	}
	for _, in := range benchInputs() {
		if in.name != name {
			continue
		}
		w := NewWriter(discard{}, Options{})
		writes := 0
		for range 2 {
			for p := in.data; len(p) > 0; writes++ {
				n := min(size, len(p))
				w.Write(p[:n])
				p = p[n:]
			}
		}
		t.Logf("writes %d bytes %d", writes, 2*len(in.data))
		return
	}
	t.Fatalf("no input %q (have %s)", name, inputNames())
}

func inputNames() string {
	var names []string
	for _, in := range benchInputs() {
		names = append(names, in.name)
	}
	return strings.Join(names, ", ")
}
