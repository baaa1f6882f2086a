//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
)

// bytelens run --isolate: the command sees its own devpts instance and
// its parent is the reaper, pid 1 of its PID namespace.
func TestRunIsolate(t *testing.T) {
	code, out, errs := cli(t, "", "run", "--isolate", "--no-store", "--agent", "--", "sh", "-c", "ls /dev/pts; echo $PPID")
	if code == 1 && strings.Contains(errs, capture.ErrIsolation.Error()) {
		t.Skipf("user namespaces are unavailable on this machine: %s", errs)
	}
	if code != 0 || errs != "" || out != "ptmx\n1\n[bytelens: exit 0; isolated]\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
