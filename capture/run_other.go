//go:build !unix

package capture

import (
	"os"
	"os/exec"
	"time"
)

// newSession does nothing where sessions are not available.
func newSession(*exec.Cmd) {}

// killGroup kills the process itself where process groups are not
// available; its children may survive.
func killGroup(pid int, _ time.Duration, _ <-chan struct{}) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// statusOf returns how a process ended.
func statusOf(ps *os.ProcessState) procStatus {
	return procStatus{known: true, code: ps.ExitCode()}
}

// signalNumber returns 0: signals are a Unix notion.
func signalNumber(string) int { return 0 }
