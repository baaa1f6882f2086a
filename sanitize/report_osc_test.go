package sanitize

import (
	"maps"
	"testing"
)

// TestOSCCommandsCounted: OSC numbers count by number at each edge of the
// array that holds the small ones (report.osc) and past it, and an OSC
// without a number as -1, on both paths.
func TestOSCCommandsCounted(t *testing.T) {
	in := []byte("\x1b]0;a\a\x1b]127;a\a\x1b]128;a\a\x1b];a\a\x1b]x\a\x1b]\a\x1b]99999;a\a\x1b]128\a")
	want := map[int32]int64{0: 1, 127: 1, 128: 2, -1: 3, 99999: 1}
	for _, path := range []pathChoice{pathTokens, pathRecords} {
		got := writeCut(in, Options{}, nil, false, path).rep.OSCCommands
		if !maps.Equal(got, want) {
			t.Errorf("path %d: OSCCommands %v, want %v", path, got, want)
		}
	}
}
