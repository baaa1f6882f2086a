//go:build !unix

package capture

import (
	"os"
	"os/exec"
	"time"
)

// setProcessGroup does nothing where process groups are not available.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills the process itself where process groups are not
// available; its children may survive.
func killGroup(p *os.Process, _ time.Duration, _ <-chan struct{}) { p.Kill() }

// signalName returns "": signals are a Unix notion.
func signalName(*os.ProcessState) string { return "" }
