//go:build linux

package capture

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// identity is a user the collector process of an isolation test runs as.
type identity struct {
	name string
	uid  int
}

// identities are the users to test: nobody and root when the test runs
// as root (root's command keeps every capability in its user namespace
// unless the reaper drops them), else the test's own user.
func identities() []identity {
	if os.Geteuid() == 0 {
		return []identity{{"nobody", nobody}, {"root", 0}}
	}
	return []identity{{"self", os.Geteuid()}}
}

// isolatedCollector returns the collector process for script, run as id
// in dir, with RunOptions.Isolate set if isolate, the given timeout
// (zero: the helper's) and extra environment.
func isolatedCollector(t *testing.T, id identity, isolate bool, dir, script string, timeout time.Duration, env ...string) (c *exec.Cmd, out string) {
	t.Helper()
	out = filepath.Join(dir, "envelope.json")
	c = collectorProcess(script, "", out)
	if isolate {
		c.Env = append(c.Env, helperIsolate+"=1")
	}
	if timeout > 0 {
		c.Env = append(c.Env, helperTimeout+"="+timeout.String())
	}
	c.Env = append(c.Env, env...)
	if id.uid != os.Geteuid() {
		asNobody(t, c, dir)
	}
	return c, out
}

// isolatedEnvelope reads the envelope the collector wrote to out, and
// skips the test if the collector could not make the namespaces.
func isolatedEnvelope(t *testing.T, out string) Envelope {
	t.Helper()
	if b, err := os.ReadFile(out); err == nil && bytes.Contains(b, []byte(ErrIsolation.Error())) {
		t.Skipf("user namespaces are unavailable on this machine: %s", b)
	}
	return readEnvelope(t, out)
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
` + inOwnNamespace + ` && for c in /dev/console /dev/tty[0-9]*; do
  [ -e "$c" ] && stat -Lc "console $c %t,%T" "$c" | grep -v ' 1,3$'
done
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
				c, out := isolatedCollector(t, id, isolate, t.TempDir(), ptsScript, 0, "PTY="+tty.Name(), nsEnv(t))
				if err := c.Run(); err != nil {
					t.Fatalf("collector: %v", err)
				}
				tty.Close() // the master reads EIO once no one holds the terminal
				<-copied
				env := isolatedEnvelope(t, out)
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
// reaper, its parent (pid 1 only in its own namespaces), then sleeps past
// the collector's timeout.
const stopScript = `c=$(awk '/^PPid/{print $2}' /proc/$PPID/status)
for p in $c $COLLECTOR $PPID; do
  { [ "$p" -gt 1 ] || { [ "$p" = 1 ] && ` + inOwnNamespace + `; }; } && kill -STOP "$p" 2>/dev/null && echo "stopped $p"
done
exec sleep 30`

// TestIsolateStopCollector runs a command that sends SIGSTOP to its
// collector and to the reaper, and a 1 s timeout. With
// RunOptions.Isolate neither has a pid it can name (the reaper is init
// of its PID namespace, which ignores SIGSTOP from inside) and the
// timeout ends the command; without, the collector is stopped (the
// control) and would hang its caller.
func TestIsolateStopCollector(t *testing.T) {
	for _, id := range identities() {
		for _, isolate := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/isolate=%v", id.name, isolate), func(t *testing.T) {
				t.Parallel()
				c, out := isolatedCollector(t, id, isolate, t.TempDir(), stopScript, time.Second, nsEnv(t))
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- c.Wait() }()
				collector := c.Process.Pid
				var stopped []int
				var werr error
				exited := false
				for deadline := time.Now().Add(5 * time.Second); !exited && stopped == nil && time.Now().Before(deadline); {
					select {
					case werr = <-done:
						exited = true
					case <-time.After(10 * time.Millisecond):
						for _, pid := range append([]int{collector}, descendants(collector)...) {
							if procState(pid) == "T" {
								stopped = append(stopped, pid)
							}
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
					t.Fatalf("stopped %v, collector exited %v: the command defeated the timeout", stopped, exited)
				}
				if werr != nil {
					t.Fatalf("collector: %v", werr)
				}
				if env := isolatedEnvelope(t, out); !env.TimedOut || env.Stdout != "stopped 1\n" {
					t.Errorf("timed_out %v stdout %q, want true and only pid 1, the reaper, sent SIGSTOP (which init of a PID namespace ignores)", env.TimedOut, env.Stdout)
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
// is 0. Run fails with ErrIsolation, naming the limit, and runs nothing.
func TestIsolateUnavailable(t *testing.T) {
	dir := t.TempDir()
	c, out := isolatedCollector(t, identity{"self", os.Geteuid()}, true, dir, "touch ran", 0)
	c.Args = append([]string{"sh", "-c", `echo 0 >/proc/sys/user/max_user_namespaces && exec "$0" "$@"`, c.Path}, c.Args[1:]...)
	c.Path = "/bin/sh"
	c.Dir = dir
	c.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
	}
	if b, err := c.CombinedOutput(); err != nil {
		t.Skipf("user namespaces are unavailable on this machine: %v %s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(b), "capture: "+ErrIsolation.Error()+": clone: no space left on device (sysctl user.max_user_namespaces") {
		t.Errorf("error %q (%v), want ErrIsolation from the clone, naming the limit", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the command ran")
	}
}
