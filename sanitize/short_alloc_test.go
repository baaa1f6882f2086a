package sanitize

import (
	"runtime"
	"testing"
)

// TestShortStringMemory: cleaning a short string (a file name, a manifest
// field: capture.CleanField) allocates no record batch, which only a
// piece of minScanPiece bytes or more can use, so that a cleaner stays
// under 24 KiB; session 8's batch of 1024 records inside every cleaner
// had doubled the cost of String on "main.go" (26-38 µs to 57-68 µs).
func TestShortStringMemory(t *testing.T) {
	const n = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		String("main.go", Options{})
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 24<<10 {
		t.Errorf("String(%q) allocates %d bytes a call, want at most %d", "main.go", per, 24<<10)
	}
}
