//go:build unix

package capture

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// statusOf returns how a process ended.
func statusOf(ps *os.ProcessState) procStatus {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return procStatus{known: true, code: -1, signal: sigName(ws.Signal())}
	}
	return procStatus{known: true, code: ps.ExitCode()}
}

// sigName names a signal as in signal.h ("SIGKILL"), or "signal N".
func sigName(s syscall.Signal) string {
	if n, ok := signalNames[s]; ok {
		return n
	}
	return "signal " + strconv.Itoa(int(s))
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

// signalNumber returns the number of the signal sigName names, or 0.
func signalNumber(name string) int {
	for s, n := range signalNames {
		if n == name {
			return int(s)
		}
	}
	if n, ok := strings.CutPrefix(name, "signal "); ok {
		v, _ := strconv.Atoi(n)
		return v
	}
	return 0
}
