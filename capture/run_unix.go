//go:build unix

package capture

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// setProcessGroup makes the command the leader of a new process group, so
// that a kill reaches its children and grandchildren too.
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
}

// killGroup kills the process group led by p: SIGTERM first and SIGKILL
// after grace if grace is positive, else SIGKILL at once. A closed stop
// ends the wait for grace. The group outlives its leader while members
// remain, so its id is not reused while the kill can still reach anyone.
func killGroup(p *os.Process, grace time.Duration, stop <-chan struct{}) {
	pgid := -p.Pid
	if grace > 0 {
		syscall.Kill(pgid, syscall.SIGTERM)
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
		case <-stop:
			return
		}
	}
	syscall.Kill(pgid, syscall.SIGKILL)
}

// signalName names the signal that ended the process, or returns "".
func signalName(ps *os.ProcessState) string {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return ""
	}
	if n, ok := signalNames[ws.Signal()]; ok {
		return n
	}
	return "signal " + strconv.Itoa(int(ws.Signal()))
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL:  "SIGILL",
	syscall.SIGTRAP: "SIGTRAP",
	syscall.SIGABRT: "SIGABRT",
	syscall.SIGBUS:  "SIGBUS",
	syscall.SIGFPE:  "SIGFPE",
	syscall.SIGKILL: "SIGKILL",
	syscall.SIGUSR1: "SIGUSR1",
	syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGPIPE: "SIGPIPE",
	syscall.SIGALRM: "SIGALRM",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGXCPU: "SIGXCPU",
	syscall.SIGXFSZ: "SIGXFSZ",
}
