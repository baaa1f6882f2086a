package sanitize

import (
	"os"
	"runtime"
	"testing"
)

// BenchmarkCleanScreen measures Bytes under CRScreen on the inputs of
// BenchmarkClean: the screen model's share of a --cr screen run.
func BenchmarkCleanScreen(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				Bytes(in.data, Options{CR: CRScreen})
			}
		})
	}
}

// TestScreenCallgrind cleans one benchmark input under CRScreen once: a
// harness for counting instructions under valgrind (BENCHMARKS.md,
// "screen8 (session 8)"). Run with BYTELENS_CALLGRIND_SCREEN set to the
// input's name.
func TestScreenCallgrind(t *testing.T) {
	name := os.Getenv("BYTELENS_CALLGRIND_SCREEN")
	if name == "" {
		t.Skip("set BYTELENS_CALLGRIND_SCREEN to an input name to run")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, in := range benchInputs() {
		if in.name == name {
			out, _ := Bytes(in.data, Options{CR: CRScreen})
			t.Logf("bytes %d, output %d", len(in.data), len(out))
			return
		}
	}
	t.Fatalf("no input %q (have %s)", name, inputNames())
}
