//go:build linux

package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leakScript looks for the collector's inherited descriptor 7 and writes
// to it.
const leakScript = `if [ -e /proc/self/fd/7 ]; then echo leaked; fi; echo INJECTED >&7 2>/dev/null; echo end`

// TestRunInheritedFdsStayOut gives the collector a descriptor without
// close-on-exec, as a caller that left its terminal open at fd 7 would,
// and checks that the command, with and without isolation, cannot write
// to it.
func TestRunInheritedFdsStayOut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a collector process")
	}
	for _, isolate := range []bool{false, true} {
		name := map[bool]string{false: "direct", true: "isolate"}[isolate]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "envelope.json")
			leak, err := os.Create(filepath.Join(dir, "terminal"))
			if err != nil {
				t.Fatal(err)
			}
			defer leak.Close()
			c := collectorProcess(leakScript, "", out)
			if isolate {
				c.Env = append(c.Env, helperIsolate+"=1")
			}
			c.ExtraFiles = []*os.File{nil, nil, nil, nil, leak} // fd 7 in the collector
			if err := c.Run(); err != nil {
				t.Fatalf("collector: %v", err)
			}
			if b, _ := os.ReadFile(out); strings.Contains(string(b), "isolation unavailable") {
				t.Skip(string(b))
			}
			env := readEnvelope(t, out)
			got, _ := os.ReadFile(leak.Name())
			if len(got) != 0 || env.Stdout != "end\n" {
				t.Errorf("the command reached the collector's inherited fd 7: it wrote %q there, stdout %q", got, env.Stdout)
			}
		})
	}
}
