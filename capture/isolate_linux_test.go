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
	"syscall"
	"testing"
	"time"

	"github.com/bytelens/bytelens/internal/nsprobe"
	"github.com/creack/pty"
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
// namespaces (nsprobe.Require, as the user id, from the binary it runs).
func isolatedCollector(t *testing.T, id identity, isolate bool, dir, script string, env ...string) (c *exec.Cmd, out string) {
	t.Helper()
	out = filepath.Join(dir, "envelope.json")
	c = collectorProcess(script, "", out)
	c.Env = append(c.Env, env...)
	if id.uid != os.Geteuid() {
		asNobody(t, c, dir)
	}
	if isolate {
		nsprobe.Require(t, c.Path, id.uid)
		c.Env = append(c.Env, helperIsolate+"=1")
	}
	return c, out
}

// isolatedEnvelope reads the envelope the collector wrote to out. The
// test skipped already if the machine does not allow the namespaces
// (nsprobe.Require): an ErrIsolation here is a failure of Isolate.
func isolatedEnvelope(t *testing.T, out string) Envelope {
	t.Helper()
	if b, err := os.ReadFile(out); err == nil && bytes.Contains(b, []byte(ErrIsolation.Error())) {
		t.Fatalf("Isolate failed where the machine allows the namespaces (the probe made them): %s", b)
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
	ns, err := nsprobe.Namespaces()
	if err != nil {
		t.Fatalf("namespaces: %v", err)
	}
	return nsprobe.TestNS + "=" + ns
}

// ptsScript, in its own namespaces, tries to unmount the isolation's
// /dev/pts and /proc and opens every terminal in /dev/pts for writing
// (opening only: were the isolation broken, as root that would reach
// every terminal of the machine); outside them (the control) it opens
// $PTY only. It lists /dev/pts and writes a marker and a clipboard write
// (OSC 52) to $PTY, the test's own terminal, by name.
const ptsScript = `set -- "$PTY"
` + inOwnNamespace + ` && { umount /dev/pts /proc 2>/dev/null; set -- /dev/pts/[0-9]*; }
ls /dev/pts
for p; do
  [ -e "$p" ] && true 2>/dev/null >"$p" && echo "opened $p"
done
printf 'INJECTED\033]52;c;SU5KRUNURUQ=\007' 2>/dev/null >"$PTY" && echo "wrote $PTY"
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

// TestIsolateUnavailable runs the collector where a step of the
// isolation set-up fails: in a user namespace of its own (its user mapped
// to root) whose user.max_user_namespaces is 0, so that the clone fails,
// and in one whose /proc has a mount over /proc/sys, as a container masks
// it, so that a new procfs may not be mounted below it. Run fails with
// ErrIsolation, naming the step and a hint that fits it, and runs
// nothing; the namespace probe fails there too, so the tests above would
// skip.
func TestIsolateUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name, setup string
		flags       uintptr
		want, probe string // in the envelope's error and the probe's output
	}{
		{"max_user_namespaces", "echo 0 >/proc/sys/user/max_user_namespaces", syscall.CLONE_NEWUSER,
			": clone: no space left on device (sysctl user.max_user_namespaces is 0 or reached)", "clone: fork/exec /proc/self/exe: no space left on device"},
		{"masked-proc", "mount -t tmpfs tmpfs /proc/sys", syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
			": mount /proc: operation not permitted (a new procfs needs a fully visible /proc, and a container masks parts of it", "mount proc in the namespaces: operation not permitted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// It needs user namespaces as the tests above do: where the
			// probe made them, a failure to set up the wrapping
			// namespace is the test's.
			c, out := isolatedCollector(t, identity{"self", os.Geteuid()}, true, dir, "touch ran")
			inUserNamespace(t, c, tc.setup, tc.flags)
			c.Dir = dir
			if b, err := c.CombinedOutput(); err != nil {
				t.Fatalf("collector in a user namespace: %v %s", err, b)
			}
			b, err := os.ReadFile(out)
			if err != nil || !strings.HasPrefix(string(b), "capture: "+ErrIsolation.Error()+tc.want) {
				t.Errorf("error %q (%v), want ErrIsolation%s...", b, err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
				t.Error("the command ran")
			}

			// The probe, started by a name that is its argv[0].
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, nsprobe.Arg0)
			if err := os.Symlink(exe, link); err != nil {
				t.Fatal(err)
			}
			probe, err := nsprobe.Command(link)
			if err != nil {
				t.Fatal(err)
			}
			inUserNamespace(t, probe, tc.setup, tc.flags)
			b, err = probe.CombinedOutput()
			if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 1 || string(b) != tc.probe+"\n" {
				t.Errorf("probe: %v %q, want exit status 1 and %q", err, b, tc.probe)
			}
		})
	}
}

// TestIsolationError: the error names the step that failed and gives the
// hint that fits the step and the errno, or none.
func TestIsolationError(t *testing.T) {
	for _, tc := range []struct {
		step  string
		errno syscall.Errno
		hint  string // "" for none
	}{
		{"clone", syscall.ENOSPC, "sysctl user.max_user_namespaces"},
		{"clone", syscall.EUSERS, "nest at most 32 deep"},
		{"clone", syscall.EPERM, "kernel.unprivileged_userns_clone=0"},
		{"clone", syscall.EACCES, "kernel.unprivileged_userns_clone=0"},
		{"clone", syscall.EINVAL, ""},
		{"uid map", syscall.EPERM, "kernel.apparmor_restrict_unprivileged_userns=1"},
		{"deny setgroups", syscall.EACCES, "kernel.apparmor_restrict_unprivileged_userns=1"},
		{"mount /proc", syscall.EPERM, "a container masks parts of it"},
		{"mount /proc", syscall.EPERM, "kernel.apparmor_restrict_unprivileged_userns=1"},
		{"mount /dev/pts", syscall.EPERM, "kernel.apparmor_restrict_unprivileged_userns=1"},
		{"mount /dev", syscall.EPERM, "kernel.apparmor_restrict_unprivileged_userns=1"},
		{"bind /dev/full", syscall.ENOENT, ""},
		{"make mounts private", syscall.EINVAL, "not a mount point"},
		{"mount /proc", syscall.ENOSPC, ""},
		{"drop capabilities", syscall.EPERM, "kernel.apparmor_restrict_unprivileged_userns=1"},
	} {
		err := isolationError(tc.step, tc.errno)
		prefix := ErrIsolation.Error() + ": " + tc.step + ": " + tc.errno.Error()
		msg := err.Error()
		hint, found := strings.CutPrefix(msg, prefix)
		if !found || !errors.Is(err, ErrIsolation) || !errors.Is(err, tc.errno) {
			t.Errorf("%s %v: %q, want it to start with %q and wrap both", tc.step, tc.errno, msg, prefix)
			continue
		}
		if tc.hint == "" && hint != "" || tc.hint != "" && !strings.Contains(hint, tc.hint) {
			t.Errorf("%s %v: hint %q, want %q", tc.step, tc.errno, hint, tc.hint)
		}
		if tc.step != "mount /proc" && strings.Contains(hint, "/proc") {
			t.Errorf("%s %v: hint %q blames /proc", tc.step, tc.errno, hint)
		}
	}
}

// inUserNamespace makes c, an unstarted command, run in a user namespace
// of its own (its user mapped to root), and in the other namespaces of
// flags, after the shell command setup, which runs only once the shell
// has checked that its user namespace, and with CLONE_NEWNS its mount
// namespace, are not the test's.
func inUserNamespace(t *testing.T, c *exec.Cmd, setup string, flags uintptr) {
	t.Helper()
	guard := ""
	for _, ns := range []struct {
		name string
		flag uintptr
	}{{"user", syscall.CLONE_NEWUSER}, {"mnt", syscall.CLONE_NEWNS}} {
		if flags&ns.flag == 0 {
			continue
		}
		link, err := os.Readlink("/proc/self/ns/" + ns.name)
		if err != nil {
			t.Fatal(err)
		}
		guard += fmt.Sprintf(`[ "$(readlink /proc/self/ns/%s)" != '%s' ] && `, ns.name, link)
	}
	c.Args = append([]string{"sh", "-c", guard + setup + ` && exec "$0" "$@"`, c.Path}, c.Args[1:]...)
	c.Path = "/bin/sh"
	c.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}},
	}
}

// devScript lists /dev, says which of the nodes a command must not
// reach exist and whether it may add to /dev (access(2) only: it writes
// nothing); in its own namespaces only (outside, as root, it would
// unmount the machine's) it tries to unmount /dev.
const devScript = `ls -A /dev | tr '\n' ' '; echo
for f in /dev/kmsg /dev/ttyS0 /dev/console /dev/tty1 /dev/vcs /dev/mem /dev/vda; do
  [ -e "$f" ] && echo "exists $f"
done
[ -w /dev ] && echo "writable /dev"
` + inOwnNamespace + ` && umount /dev/pts /dev 2>/dev/null && echo "unmounted /dev"
echo end`

// devAllowlist is what ls -A lists in the command's /dev under Isolate.
const devAllowlist = "fd full null ptmx pts random shm stderr stdin stdout tty urandom zero \n"

// TestIsolateDev runs a command that lists /dev and looks for the
// kernel log, a serial line, the consoles, memory and the disk. With
// RunOptions.Isolate its /dev holds exactly the allowlist, which it can
// neither unmount nor add to; without, the kernel log is there (the
// control).
func TestIsolateDev(t *testing.T) {
	for _, id := range identities() {
		for _, isolate := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/isolate=%v", id.name, isolate), func(t *testing.T) {
				t.Parallel()
				c, out := isolatedCollector(t, id, isolate, t.TempDir(), devScript, nsEnv(t))
				if err := c.Run(); err != nil {
					t.Fatalf("collector: %v", err)
				}
				env := isolatedEnvelope(t, out)
				if isolate && env.Stdout != devAllowlist+"end\n" {
					t.Errorf("stdout %q, want %q", env.Stdout, devAllowlist+"end\n")
				}
				if !isolate && !strings.Contains(env.Stdout, "exists /dev/kmsg\n") {
					t.Errorf("control: no /dev/kmsg: %q", env.Stdout)
				}
			})
		}
	}
}

// isolatedCommands are commands that must work under RunOptions.Isolate,
// each run in an empty directory $WORK, with what it prints; need is the
// program it needs (the case is skipped where it is absent).
var isolatedCommands = []struct {
	name, need, script, want string
	rootOnly                 bool // nobody has no Go build cache to build with quickly
	// The commands run with $HOME in $WORK; $TESTHOME is the test's.
}{
	{"git", "git", `git init -q r && cd r && git status --short && echo clean`, "clean\n", false},
	{"make", "make", `printf 'all:\n\t@echo made\n' >Makefile && make`, "made\n", false},
	{"openpty", "/usr/bin/python3", `/usr/bin/python3 -c 'import os, pty; m, s = pty.openpty(); os.write(m, b"x\n"); print(os.ttyname(s)[:9], os.read(s, 2))'`, "/dev/pts/ b'x\\n'\n", false},
	{"go-test", "go", `printf 'module x\n\ngo 1.21\n' >go.mod && printf 'package x\nimport "testing"\nfunc TestX(t *testing.T) {}\n' >x_test.go && HOME=$TESTHOME go test -count=1 . | cut -f1-2`, "ok  \tx\n", true},
	{"npm", "npm", `npm --version >/dev/null && echo npm`, "npm\n", false},
	{"ssh", "ssh", `ssh -V 2>&1 | cut -c1-7`, "OpenSSH\n", false},
	{"script", "script", `script -qc 'tty | cut -c1-9' /dev/null | tr -d '\r'`, "/dev/pts/\n", false},
	{"urandom", "head", `cat /dev/urandom | head -c 16 | wc -c`, "16\n", false},
	{"mktemp", "mktemp", `f=$(mktemp) && g=$(mktemp -p /dev/shm) && echo x >"$g" && cat "$g" && rm "$f" "$g" && echo hi >/dev/stdout`, "x\nhi\n", false},
}

// TestIsolateCommands runs isolatedCommands under RunOptions.Isolate.
func TestIsolateCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a collector process per command")
	}
	for _, id := range identities() {
		for _, tc := range isolatedCommands {
			t.Run(id.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				if _, err := exec.LookPath(tc.need); err != nil {
					t.Skipf("no %s: %v", tc.need, err)
				}
				if tc.rootOnly && id.uid != os.Geteuid() {
					t.Skip("run as the test's own user only")
				}
				dir := t.TempDir()
				work := filepath.Join(dir, "work")
				if err := os.Mkdir(work, 0o700); err != nil || os.Chown(work, id.uid, id.uid) != nil {
					t.Fatalf("work directory for uid %d: %v", id.uid, err)
				}
				script := `cd "$WORK" && ` + tc.script
				c, out := isolatedCollector(t, id, true, dir, script, "WORK="+work, "HOME="+work, "TESTHOME="+os.Getenv("HOME"), "GOFLAGS=", "GOTOOLCHAIN=local")
				if err := c.Run(); err != nil {
					t.Fatalf("collector: %v", err)
				}
				if env := isolatedEnvelope(t, out); env.Stdout != tc.want || env.ExitCode != 0 {
					t.Errorf("exit %d stdout %q stderr %q, want 0 and %q", env.ExitCode, env.Stdout, env.Stderr, tc.want)
				}
			})
		}
	}
}

// hiddenScript lists the store directory $STORE and tmux's socket
// directory, and tries to forge a stored file (as a command could to
// change what excerpt and view show of another run) and to make a file
// beside the user's tmux sockets (where a command would reach the user's
// panes through the socket: tmux send-keys, run-shell).
const hiddenScript = `T="$TMUX_TMPDIR/tmux-$(id -u)"
echo "store: $(ls -A "$STORE" | tr '\n' ' ')"; echo "tmux: $(ls -A "$T" | tr '\n' ' ')"
echo forged 2>/dev/null >"$STORE/forged" && echo "wrote the store"
echo own >"$T/own" && echo "made $(ls "$T")"
echo end`

// TestIsolateHides runs a command that tries to write into the store of
// the run that collects it and into tmux's socket directory: under
// RunOptions.Isolate the store's directory is an empty read-only tmpfs
// for it (while the collector still stores the raw artifact) and tmux's
// an empty writable one; without, it sees and writes both (the control).
func TestIsolateHides(t *testing.T) {
	for _, tc := range []struct {
		isolate bool
		stdout  string
	}{
		{true, "store: \ntmux: \nmade own\nend\n"},
		{false, "store: clean envelopes raw tmp \ntmux: default \nwrote the store\nmade default\nown\nend\n"},
	} {
		t.Run(fmt.Sprintf("isolate=%v", tc.isolate), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			st, tmux := filepath.Join(dir, "store"), filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Geteuid()))
			if err := os.Mkdir(tmux, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(tmux, "default"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			c, out := isolatedCollector(t, identity{"self", os.Geteuid()}, tc.isolate, dir, hiddenScript, "STORE="+st, "TMUX_TMPDIR="+dir)
			c.Env = append(c.Env, helperStore+"="+st)
			if err := c.Run(); err != nil {
				t.Fatalf("collector: %v", err)
			}
			env := isolatedEnvelope(t, out)
			if env.Stdout != tc.stdout {
				t.Errorf("stdout %q, want %q", env.Stdout, tc.stdout)
			}
			_, forged := os.Stat(filepath.Join(st, "forged"))
			_, own := os.Stat(filepath.Join(tmux, "own"))
			if (forged == nil || own == nil) == tc.isolate {
				t.Errorf("files the command made, seen outside: store %v, tmux %v", forged, own)
			}
			if env.RawArtifact == "" {
				t.Errorf("no raw artifact: %+v", env.StoreError)
			}
		})
	}
}
