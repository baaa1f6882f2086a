//go:build linux

package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// identity is a user the collector process of an isolation test runs as.
type identity struct {
	name string
	uid  int
}

// identities are the users to test: nobody and root when the test runs
// as root (root's command keeps every capability in its user namespace
// unless the reaper drops them) and can become nobody, else the test's
// own user.
func identities() []identity {
	if os.Geteuid() == 0 && uidMapped(nobody) {
		return []identity{{"nobody", nobody}, {"root", 0}}
	}
	return []identity{{"self", os.Geteuid()}}
}

// uidMapped reports whether uid has a mapping in the test's user
// namespace (/proc/self/uid_map, user_namespaces(7)): not so for nobody
// where the test runs as root of a user namespace that maps root alone,
// as unshare -r makes.
func uidMapped(uid int) bool {
	b, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		var inside, outside, count int
		if n, _ := fmt.Sscan(line, &inside, &outside, &count); n == 3 && inside <= uid && uid < inside+count {
			return true
		}
	}
	return false
}

// isolatedCollector returns the collector process for script, run as id
// in dir, with RunOptions.Isolate set if isolate and extra environment.
// With isolate it skips the test where the machine does not allow the
// namespaces (requireNamespaces).
func isolatedCollector(t *testing.T, id identity, isolate bool, dir, script string, env ...string) (c *exec.Cmd, out string) {
	t.Helper()
	out = filepath.Join(dir, "envelope.json")
	c = collectorProcess(script, "", out)
	c.Env = append(c.Env, env...)
	if id.uid != os.Geteuid() {
		asNobody(t, c, dir)
	}
	if isolate {
		requireNamespaces(t, id, c.Path)
		c.Env = append(c.Env, helperIsolate+"=1")
	}
	return c, out
}

// isolatedEnvelope reads the envelope the collector wrote to out. The
// test skipped already if the machine does not allow the namespaces
// (requireNamespaces): an ErrIsolation here is a failure of Isolate.
func isolatedEnvelope(t *testing.T, out string) Envelope {
	t.Helper()
	if b, err := os.ReadFile(out); err == nil && bytes.Contains(b, []byte(ErrIsolation.Error())) {
		t.Fatalf("Isolate failed where the machine allows the namespaces (the probe made them): %s", b)
	}
	return readEnvelope(t, out)
}

// The namespace probe: the test binary started again as nsProbeArg0,
// with nsProbeEnv saying what to do. "outer", run as the user to probe,
// clones the inner probe as that user; "inner" is the probe itself, in
// new user, PID and mount namespaces, mapped to root there. It checks
// that it is pid 1 and that its namespaces are not the test's ($TESTNS),
// and only then mounts a procfs on /proc in its own mount namespace (a
// mount namespace made in a new user namespace gets the parent's shared
// mounts as slaves, so nothing propagates out), which needs a capability
// in the namespace: this fails where Linux lets the namespaces be made
// but withholds the capabilities inside (AppArmor's
// kernel.apparmor_restrict_unprivileged_userns) or where a container has
// masked /proc.
const (
	nsProbeArg0 = "bytelens-nsprobe"
	nsProbeEnv  = "BYTELENS_TEST_NSPROBE"
	// nsProbeBroken is the inner probe's exit status when it is not in
	// namespaces of its own: the probe is wrong, not the machine.
	nsProbeBroken = 3
)

func init() {
	if len(os.Args) == 1 && filepath.Base(os.Args[0]) == nsProbeArg0 {
		os.Exit(nsProbeMain(os.Getenv(nsProbeEnv)))
	}
}

// nsProbeMain runs the probe step named by mode and returns its exit
// status: 0 the namespaces work, nsProbeBroken, or 1 with why on stderr.
func nsProbeMain(mode string) int {
	if mode == "outer" {
		// The inner probe, as this process's user.
		c := &exec.Cmd{
			Path:   "/proc/self/exe",
			Args:   []string{nsProbeArg0},
			Env:    []string{nsProbeEnv + "=inner", "TESTNS=" + os.Getenv("TESTNS")},
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
	testns := os.Getenv("TESTNS")
	pid, err1 := os.Readlink("/proc/self/ns/pid")
	mnt, err2 := os.Readlink("/proc/self/ns/mnt")
	if err1 != nil || err2 != nil || os.Getpid() != 1 || testns == "" || strings.Contains(testns, pid) || strings.Contains(testns, mnt) {
		fmt.Fprintf(os.Stderr, "not in namespaces of its own: pid %d, %s %s (%v %v), the test's %q\n", os.Getpid(), pid, mnt, err1, err2, testns)
		return nsProbeBroken
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		fmt.Fprintf(os.Stderr, "mount proc in the namespaces: %v\n", err)
		return 1
	}
	return 0
}

// nsProbes holds the probe's result for each uid, run once.
var nsProbes sync.Map // int → func() error

// requireNamespaces skips the test unless the machine lets the user id
// make user, PID and mount namespaces and mount a procfs in them, as the
// probe above finds without the code under test; a test that goes on
// fails if Isolate does not work. exe is the test binary that user can
// run (asNobody's copy for another user). The probe runs once per user.
func requireNamespaces(t *testing.T, id identity, exe string) {
	t.Helper()
	testns := nsEnv(t)
	probe, _ := nsProbes.LoadOrStore(id.uid, sync.OnceValue(func() error {
		c := exec.Command(exe)
		c.Args = []string{nsProbeArg0}
		c.Env = []string{nsProbeEnv + "=outer", testns}
		if id.uid != os.Geteuid() {
			c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(id.uid), Gid: uint32(id.uid)}}
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
	case errors.As(err, &ee) && ee.ExitCode() != nsProbeBroken:
		t.Skipf("this machine does not let %s make user, PID and mount namespaces: %v", id.name, err)
	default:
		t.Fatalf("namespace probe: %v", err)
	}
}

// inOwnNamespace is true in a command whose PID and mount namespaces are
// not the test's ($TESTNS, from nsEnv): only there may a script try to
// unmount /proc or stop pid 1, which as root outside would unmount the
// machine's or stop its init.
const inOwnNamespace = `[ "$(readlink /proc/self/ns/pid) $(readlink /proc/self/ns/mnt)" != "$TESTNS" ]`

// nsEnv is the environment entry TESTNS for inOwnNamespace.
func nsEnv(t *testing.T) string {
	t.Helper()
	pid, err1 := os.Readlink("/proc/self/ns/pid")
	mnt, err2 := os.Readlink("/proc/self/ns/mnt")
	if err1 != nil || err2 != nil {
		t.Fatalf("namespaces: %v %v", err1, err2)
	}
	return "TESTNS=" + pid + " " + mnt
}

// ptsScript, in its own namespaces, tries to unmount the isolation's
// /dev/pts and /proc and opens every terminal in /dev/pts for writing
// (opening only: were the isolation broken, as root that would reach
// every terminal of the machine); outside them (the control) it opens
// $PTY only. It lists /dev/pts and writes a marker and a clipboard write
// (OSC 52) to $PTY, the test's own terminal, by name; in its own
// namespaces it lists the consoles that are not /dev/null (major 1,
// minor 3).
const ptsScript = `set -- "$PTY"
` + inOwnNamespace + ` && { umount /dev/pts /proc 2>/dev/null; set -- /dev/pts/[0-9]*; }
ls /dev/pts
for p; do
  [ -e "$p" ] && true 2>/dev/null >"$p" && echo "opened $p"
done
printf 'INJECTED\033]52;c;SU5KRUNURUQ=\007' 2>/dev/null >"$PTY" && echo "wrote $PTY"
` + inOwnNamespace + ` && stat -Lc 'console %n %t,%T' /dev/console /dev/tty[0-9]* 2>/dev/null | grep -v ' 1,3$'
echo end`

// TestIsolateTerminals opens a terminal (a pty, owned by the collector's
// user, as a person's terminal is) and runs a command that tries to open
// every terminal in /dev/pts and to write to that one by name. With
// RunOptions.Isolate it sees a devpts instance of its own, with no
// terminal in it, and cannot unmount it; without, it writes to the
// terminal (the control, which shows that the probe works).
func TestIsolateTerminals(t *testing.T) {
	for _, id := range identities() {
		for _, isolate := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/isolate=%v", id.name, isolate), func(t *testing.T) {
				t.Parallel()
				ptmx, tty, err := pty.Open()
				if err != nil {
					t.Fatal(err)
				}
				defer ptmx.Close()
				if err := tty.Chown(id.uid, -1); err != nil {
					t.Fatal(err)
				}
				var seen bytes.Buffer
				copied := make(chan struct{})
				go func() { io.Copy(&seen, ptmx); close(copied) }()
				c, out := isolatedCollector(t, id, isolate, t.TempDir(), ptsScript, "PTY="+tty.Name(), nsEnv(t))
				if err := c.Run(); err != nil {
					t.Fatalf("collector: %v", err)
				}
				tty.Close() // the master reads EIO once no one holds the terminal
				<-copied
				env := isolatedEnvelope(t, out)
				if env.Isolated != isolate {
					t.Errorf("envelope: isolated %v, want %v", env.Isolated, isolate)
				}
				reached := bytes.Contains(seen.Bytes(), []byte("INJECTED"))
				if isolate && (reached || env.Stdout != "ptmx\nend\n") {
					t.Errorf("the command reached a terminal: stdout %q, the test's terminal got %q", env.Stdout, seen.String())
				}
				if !isolate && (!reached || !strings.Contains(env.Stdout, "opened "+tty.Name()+"\n") || !strings.Contains(env.Stdout, "wrote "+tty.Name()+"\n")) {
					t.Errorf("control: the probe did not reach %s: stdout %q, the terminal got %q", tty.Name(), env.Stdout, seen.String())
				}
			})
		}
	}
}

// stopScript tries to stop the collector, found through /proc as the
// reaper's parent and named by its real pid in $COLLECTOR, and the
// reaper, its parent (pid 1 only in its own namespaces), then creates
// the file $TRIED and sleeps.
const stopScript = `c=$(awk '/^PPid/{print $2}' /proc/$PPID/status)
for p in $c $COLLECTOR $PPID; do
  { [ "$p" -gt 1 ] || { [ "$p" = 1 ] && ` + inOwnNamespace + `; }; } && kill -STOP "$p" 2>/dev/null && echo "stopped $p"
done
: >"$TRIED"
exec sleep 30`

// TestIsolateStopCollector runs a command that sends SIGSTOP to its
// collector and to the reaper; once it has tried, the test sends the
// collector SIGTERM, as an agent's harness does at its own time limit
// (and as the collector's timer would: a stopped collector heeds
// neither). With RunOptions.Isolate neither has a pid the command can
// name (the reaper is init of its PID namespace, which ignores SIGSTOP
// from inside) and the collector cancels the command; without, the
// collector or the reaper is stopped (the control) and would hang its
// caller. Nothing waits on a fixed delay.
func TestIsolateStopCollector(t *testing.T) {
	for _, id := range identities() {
		for _, isolate := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/isolate=%v", id.name, isolate), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				tried := filepath.Join(dir, "tried")
				c, out := isolatedCollector(t, id, isolate, dir, stopScript, nsEnv(t), "TRIED="+tried)
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- c.Wait() }()
				collector := c.Process.Pid
				var stopped []int
				var werr error
				exited, terminated := false, false
				for deadline := time.Now().Add(10 * time.Second); !exited && stopped == nil && time.Now().Before(deadline); {
					select {
					case werr = <-done:
						exited = true
					case <-time.After(10 * time.Millisecond):
						// The file comes after the signals: look
						// for it before the stopped processes.
						_, err := os.Stat(tried)
						for _, pid := range append([]int{collector}, descendants(collector)...) {
							if procState(pid) == "T" {
								stopped = append(stopped, pid)
							}
						}
						if err == nil && stopped == nil && !terminated {
							c.Process.Signal(syscall.SIGTERM)
							terminated = true
						}
					}
				}
				if !exited {
					// Stopped or hung: end it all, the stopped reaper
					// included (SIGKILL reaches stopped processes).
					for _, pid := range append(descendants(collector), collector) {
						syscall.Kill(pid, syscall.SIGKILL)
					}
					werr = <-done
				}
				if !isolate {
					if stopped == nil {
						t.Errorf("control: the command did not stop the collector or the reaper (exited %v)", exited)
					}
					return
				}
				if stopped != nil || !exited {
					t.Fatalf("stopped %v, collector exited %v: the command defeated the collector", stopped, exited)
				}
				if werr != nil {
					t.Fatalf("collector: %v", werr)
				}
				if env := isolatedEnvelope(t, out); !env.Canceled || !env.Isolated || env.Stdout != "stopped 1\n" {
					t.Errorf("canceled %v isolated %v stdout %q, want both true and only pid 1, the reaper, sent SIGSTOP (which init of a PID namespace ignores)", env.Canceled, env.Isolated, env.Stdout)
				}
			})
		}
	}
}

// procState returns the state letter of pid from /proc/PID/stat ("R",
// "S", "T" for stopped...), or "" if it cannot be read.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 {
		return f[0]
	}
	return ""
}

// TestIsolateUnavailable runs the collector where user namespaces are
// used up: in a user namespace of its own whose user.max_user_namespaces
// is 0. Run fails with ErrIsolation, naming the limit, and runs nothing;
// the namespace probe fails there too, so the tests above would skip.
func TestIsolateUnavailable(t *testing.T) {
	dir := t.TempDir()
	// It needs user namespaces as the tests above do: where the probe
	// made them, a failure to set up the wrapping namespace is the test's.
	c, out := isolatedCollector(t, identity{"self", os.Geteuid()}, true, dir, "touch ran")
	withoutUserNamespaces(c)
	c.Dir = dir
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("collector in a user namespace: %v %s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "capture: "+ErrIsolation.Error()+": clone: no space left on device (sysctl user.max_user_namespaces") {
		t.Errorf("error %q (%v), want ErrIsolation from the clone, naming the limit", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the command ran")
	}

	// The probe, started by a name that is its argv[0].
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	probe := exec.Command(filepath.Join(dir, nsProbeArg0))
	if err := os.Symlink(exe, probe.Path); err != nil {
		t.Fatal(err)
	}
	probe.Env = []string{nsProbeEnv + "=outer", nsEnv(t)}
	withoutUserNamespaces(probe)
	b, err = probe.CombinedOutput()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(b), "no space left on device") {
		t.Errorf("probe: %v %s, want exit status 1 from the clone", err, b)
	}
}

// withoutUserNamespaces makes c, an unstarted command, run in a user
// namespace of its own (its user mapped to root) where
// user.max_user_namespaces is 0, so that it can create none.
func withoutUserNamespaces(c *exec.Cmd) {
	c.Args = append([]string{"sh", "-c", `echo 0 >/proc/sys/user/max_user_namespaces && exec "$0" "$@"`, c.Path}, c.Args[1:]...)
	c.Path = "/bin/sh"
	c.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
	}
}
