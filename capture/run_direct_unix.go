//go:build unix && !linux

package capture

import (
	"os/exec"
	"syscall"
	"time"
)

// newSession makes the command the leader of a new session (setsid), so
// that it has no controlling terminal and a kill of its process group
// reaches the children that stay in it. Without a child subreaper,
// descendants that start their own session can outlive the collector.
func newSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// killGroup kills the process group led by pid: SIGTERM first and SIGKILL
// after grace if grace is positive, else SIGKILL at once. A closed stop
// ends the wait for grace.
func killGroup(pid int, grace time.Duration, stop <-chan struct{}) {
	if grace > 0 {
		syscall.Kill(-pid, syscall.SIGTERM)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
		case <-stop:
			return
		}
	}
	syscall.Kill(-pid, syscall.SIGKILL)
}
