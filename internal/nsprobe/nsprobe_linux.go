//go:build linux

package nsprobe

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func init() {
	if len(os.Args) == 1 && filepath.Base(os.Args[0]) == Arg0 {
		os.Exit(probeMain(os.Getenv(Env)))
	}
}

// Namespaces returns the calling process's PID and mount namespaces as
// "PID MNT", each as its /proc/self/ns link reads ("pid:[4026531836]").
func Namespaces() (string, error) {
	pid, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return "", err
	}
	mnt, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return "", err
	}
	return pid + " " + mnt, nil
}

// Command returns the probe, unstarted: exe (a binary that imports the
// package) started as Arg0 in the outer step, with TestNS set to the
// caller's namespaces. It exits 0 where the namespaces work, [Broken], or
// 1 with why on stderr.
func Command(exe string) (*exec.Cmd, error) {
	ns, err := Namespaces()
	if err != nil {
		return nil, err
	}
	return &exec.Cmd{Path: exe, Args: []string{Arg0}, Env: []string{Env + "=outer", TestNS + "=" + ns}}, nil
}

// probeMain runs the probe step named by mode and returns its exit
// status. "outer", run as the user to probe, clones the inner probe as
// that user; "inner" is the probe itself, in new user, PID and mount
// namespaces, mapped to root there. It checks that it is pid 1 and that
// its namespaces are not the test's ($TESTNS), and only then mounts a
// procfs on /proc in its own mount namespace (a mount namespace made in a
// new user namespace gets the parent's shared mounts as slaves, so
// nothing propagates out), which needs a capability in the namespace:
// this fails where Linux lets the namespaces be made but withholds the
// capabilities inside (AppArmor's kernel.apparmor_restrict_unprivileged_userns)
// or where a container has masked parts of /proc.
func probeMain(mode string) int {
	testns := os.Getenv(TestNS)
	if mode == "outer" {
		c := &exec.Cmd{
			Path:   "/proc/self/exe",
			Args:   []string{Arg0},
			Env:    []string{Env + "=inner", TestNS + "=" + testns},
			Stderr: os.Stderr,
			SysProcAttr: &syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
			},
		}
		var ee *exec.ExitError
		switch err := c.Run(); {
		case errors.As(err, &ee):
			return ee.ExitCode()
		case err != nil:
			fmt.Fprintf(os.Stderr, "clone: %v\n", err)
			return 1
		}
		return 0
	}
	own, err := Namespaces()
	pid, mnt, _ := strings.Cut(own, " ")
	if err != nil || os.Getpid() != 1 || testns == "" || strings.Contains(testns, pid) || strings.Contains(testns, mnt) {
		fmt.Fprintf(os.Stderr, "not in namespaces of its own: pid %d, %q (%v), the test's %q\n", os.Getpid(), own, err, testns)
		return Broken
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		fmt.Fprintf(os.Stderr, "mount proc in the namespaces: %v\n", err)
		return 1
	}
	return 0
}

// probes holds the probe's result for each uid, run once.
var probes sync.Map // int → func() error

func require(t testing.TB, exe string, uid int) {
	probe, _ := probes.LoadOrStore(uid, sync.OnceValue(func() error {
		c, err := Command(exe)
		if err != nil {
			return err
		}
		if uid != os.Geteuid() {
			c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		}
		out, err := c.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, bytes.TrimSpace(out))
		}
		return nil
	}))
	err := probe.(func() error)()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() != Broken:
		t.Skipf("this machine does not let uid %d make user, PID and mount namespaces: %v", uid, err)
	default:
		t.Fatalf("namespace probe: %v", err)
	}
}
