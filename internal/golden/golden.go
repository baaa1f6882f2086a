// Package golden is the one golden-file helper of the module's tests:
// Check compares what a test produced with a file under testdata, and the
// -update flag it registers rewrites the file instead. Test files import
// it; nothing else does.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata with what the tests produce")

// Updating reports whether -update was given.
func Updating() bool { return *update }

// Check compares got with the golden file at path. With -update it
// writes got to path (creating its directory) instead. A difference
// fails t with the first differing lines, escaped, and how to rewrite
// the file.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	shown := 0
	for i := range max(len(gl), len(wl)) {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			if shown++; shown > 10 {
				t.Errorf("%s: more lines differ", path)
				break
			}
			t.Errorf("%s line %d:\n got %q\nwant %q", path, i+1, g, w)
		}
	}
	if shown == 0 { // only a trailing line break differs
		t.Errorf("%s differs at its end: got %d bytes, want %d", path, len(got), len(want))
	}
	t.Logf("go test -update rewrites %s; review the diff", path)
}
