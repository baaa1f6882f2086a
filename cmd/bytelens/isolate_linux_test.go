//go:build linux

package main

import (
	"os"
	"testing"

	"github.com/bytelens/bytelens/internal/nsprobe"
)

// bytelens run --isolate: the command sees its own devpts instance and
// its parent is the reaper, pid 1 of its PID namespace. It skips only
// where the namespace probe, independent of bytelens, cannot make the
// namespaces: an isolation error of bytelens fails it.
func TestRunIsolate(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	nsprobe.Require(t, exe, os.Geteuid())
	code, out, errs := cli(t, "", "run", "--isolate", "--no-store", "--agent", "--", "sh", "-c", "ls /dev/pts; echo $PPID")
	if code != 0 || errs != "" || out != "ptmx\n1\n[bytelens: exit 0; isolated]\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
