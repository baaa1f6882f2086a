//go:build linux

package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/creack/pty"
)

// Environment of the helper collector process.
const (
	helperScript = "BYTELENS_TEST_COLLECT"       // sh -c script to collect
	helperStore  = "BYTELENS_TEST_COLLECT_STORE" // store directory, if any
	helperOut    = "BYTELENS_TEST_COLLECT_OUT"   // file for the envelope
	// RunOptions.Isolate, if set; an ErrIsolation goes to the
	// envelope's file as text.
	helperIsolate = "BYTELENS_TEST_COLLECT_ISOLATE"
)

// TestHelperCollector is not a test: the tests below run the test binary
// as a collector process through it, as bytelens run does (a context
// cancelled by SIGINT, SIGTERM and SIGHUP).
func TestHelperCollector(t *testing.T) {
	script := os.Getenv(helperScript)
	if script == "" {
		t.Skip("helper process for the collector tests")
	}
	opts := RunOptions{Timeout: 20 * time.Second, WaitDelay: 200 * time.Millisecond, Isolate: os.Getenv(helperIsolate) != ""}
	if d := os.Getenv(helperStore); d != "" {
		s, err := store.Open(d)
		if err != nil {
			t.Fatal(err)
		}
		opts.Store = s
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// The command may name its collector by its real pid.
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "COLLECTOR="+strconv.Itoa(os.Getpid()))
	env, err := Run(ctx, cmd, opts)
	if errors.Is(err, ErrIsolation) {
		os.WriteFile(os.Getenv(helperOut), []byte(err.Error()), 0o600)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(env)
	if err := os.WriteFile(os.Getenv(helperOut), js, 0o600); err != nil {
		t.Fatal(err)
	}
}

// collectorProcess returns the command that runs the helper collector on
// script, writing its envelope to out.
func collectorProcess(script, storeDir, out string) *exec.Cmd {
	c := exec.Command(os.Args[0], "-test.run=^TestHelperCollector$")
	c.Env = append(os.Environ(), helperScript+"="+script, helperStore+"="+storeDir, helperOut+"="+out)
	return c
}

func readEnvelope(t *testing.T, path string) Envelope {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no envelope: %v", err)
	}
	var env Envelope
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	return env
}

// TestRunNoTerminal runs the collector with a terminal of its own (a
// pty) and checks that the command cannot reach it: /dev/tty fails, so a
// clipboard write never gets to the terminal and a read from it cannot
// stop the command.
func TestRunNoTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a collector process on a pty")
	}
	for _, tc := range []struct{ name, script string }{
		{"write", `printf '\033]52;c;Y2xpcGJvYXJk\007' >/dev/tty; echo "write $?"`},
		{"read", `read x </dev/tty; echo "read $?"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "envelope.json")
			c := collectorProcess(tc.script, "", out)
			tty, err := pty.Start(c)
			if err != nil {
				t.Fatal(err)
			}
			defer tty.Close()
			var seen bytes.Buffer
			copied := make(chan struct{})
			go func() { io.Copy(&seen, tty); close(copied) }()
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("collector: %v; terminal got %q", err, seen.String())
				}
			case <-time.After(10 * time.Second):
				c.Process.Kill()
				t.Fatal("the command hung on the terminal")
			}
			tty.Close()
			<-copied
			if bytes.Contains(seen.Bytes(), []byte("\x1b]52")) || bytes.Contains(seen.Bytes(), []byte("Y2xpcGJvYXJk")) {
				t.Errorf("the clipboard write reached the terminal: %q", seen.String())
			}
			env := readEnvelope(t, out)
			if !strings.HasPrefix(env.Stdout, tc.name+" ") || strings.HasSuffix(env.Stdout, " 0\n") || !strings.Contains(env.Stderr, "/dev/tty") {
				t.Errorf("stdout %q stderr %q: /dev/tty opened", env.Stdout, env.Stderr)
			}
		})
	}
}

// descendantsScript starts, besides the command itself, a background
// child in the command's group, a setsid grandchild and a setsid
// great-grandchild whose parent exits at once (double fork), each writing
// its pid to dir/pids, and none holding the output pipes.
const descendantsScript = `exec >/dev/null 2>&1
echo $$ >>"$D/pids"
sleep 30 & echo $! >>"$D/pids"
setsid sleep 30 & echo $! >>"$D/pids"
sh -c 'setsid sleep 30 & echo $! >>"$D/pids"' &
wait_for=4; while [ "$(wc -l <"$D/pids")" -lt $wait_for ]; do sleep 0.01; done
`

// readPids waits until path lists n pids and returns them.
func readPids(t *testing.T, path string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s lists %d pids, want %d", path, len(pids), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkGone asserts that none of pids is still running.
func checkGone(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if !pidStopped(pid) {
			t.Errorf("process %d outlived the collector", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestRunKillsDescendants checks the process table after Run: whether the
// command exits, times out or is cancelled, nothing it started is left,
// setsid and double-forked descendants included.
func TestRunKillsDescendants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tail  string // end of the script
		opts  RunOptions
		after time.Duration // cancel after
	}{
		{"exit", "exit 0", RunOptions{}, 0},
		{"timeout", "sleep 30", RunOptions{Timeout: 300 * time.Millisecond}, 0},
		{"cancel", "sleep 30", RunOptions{}, 300 * time.Millisecond},
		{"grace", "trap '' TERM; sleep 30", RunOptions{Timeout: 300 * time.Millisecond, KillGrace: 200 * time.Millisecond}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			ctx := context.Background()
			if tc.after > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.after)
				defer cancel()
			}
			c := exec.Command("sh", "-c", descendantsScript+tc.tail)
			c.Env = append(os.Environ(), "D="+dir)
			start := time.Now()
			tc.opts.WaitDelay = 200 * time.Millisecond
			env, err := Run(ctx, c, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("Run took %v", d)
			}
			if env.TimedOut != (tc.opts.Timeout > 0) || env.Canceled != (tc.after > 0) || env.WaitDelayExpired {
				t.Errorf("timed_out %v canceled %v wait_delay_expired %v", env.TimedOut, env.Canceled, env.WaitDelayExpired)
			}
			checkGone(t, readPids(t, filepath.Join(dir, "pids"), 4))
		})
	}
}

// TestCollectorSignals sends SIGINT, SIGTERM and SIGHUP to a collector
// process, and SIGKILL: every process the command started goes with it,
// and a SIGKILLed collector's half-written artifact is listed as
// abandoned and pruned.
func TestCollectorSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts collector processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(sigName(sig), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			storeDir := filepath.Join(dir, "store")
			s, err := store.Open(storeDir)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "envelope.json")
			c := collectorProcess(descendantsScript+"echo output; sleep 30", storeDir, out)
			c.Env = append(c.Env, "D="+dir)
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			pids := readPids(t, filepath.Join(dir, "pids"), 4)
			c.Process.Signal(sig)
			werr := c.Wait()
			checkGone(t, pids)
			if sig != syscall.SIGKILL {
				if werr != nil {
					t.Fatalf("collector: %v", werr)
				}
				if env := readEnvelope(t, out); !env.Canceled || env.RawArtifact == "" {
					t.Errorf("canceled %v raw_artifact %q", env.Canceled, env.RawArtifact)
				}
				return
			}
			es, err := s.List()
			if err != nil || len(es) != 1 || es[0].Kind != store.KindTemp || es[0].InProgress {
				t.Fatalf("List after SIGKILL: %+v, %v; want one abandoned temp file", es, err)
			}
			rm, err := s.Prune(store.PruneOptions{TempBefore: time.Now().Add(time.Second)})
			if err != nil || len(rm) != 1 {
				t.Fatalf("Prune removed %+v, %v", rm, err)
			}
			if es, _ := s.List(); len(es) != 0 {
				t.Errorf("after prune: %+v", es)
			}
		})
	}
}

// reopenScript tries, as the command, to reopen the collector's stdout
// and the reaper's status pipe through /proc/PID/fd and to write there.
const reopenScript = `r=$PPID; c=$(awk '/^PPid/{print $2}' /proc/$r/status)
printf 'INJECTED\n' 2>/dev/null >/proc/$c/fd/1 && echo "collector stdout reopened"
printf 'exit 7\n' 2>/dev/null >/proc/$r/fd/4 && echo "status pipe reopened"
echo end`

// asNobody makes the collector process c run as nobody, from a copy of the
// test binary in dir, which it makes reachable for nobody with the
// directories above it up to the temporary directory.
func asNobody(t *testing.T, c *exec.Cmd, dir string) {
	t.Helper()
	exe := filepath.Join(dir, "capture.test")
	if _, err := os.Stat(exe); err != nil {
		b, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		// No fork while the copy is open for writing: a child forked
		// then holds it open until its own exec, and an exec of the
		// copy meanwhile fails with ETXTBSY (golang.org/issue/22315).
		syscall.ForkLock.RLock()
		err = os.WriteFile(exe, b, 0o755)
		syscall.ForkLock.RUnlock()
		if err != nil {
			t.Fatal(err)
		}
	}
	for d := dir; d != filepath.Dir(d) && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	c.Path, c.Args[0] = exe, exe
	c.Dir = dir
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
}

// nobody is the uid and gid of the user nobody.
const nobody = 65534

// TestRunCannotReopenCollectorFds runs the collector and its command as
// one user without CAP_SYS_PTRACE (nobody, when the test runs as root)
// and checks that the command cannot write into the collector's stdout,
// where the envelope or an agent's text goes, nor forge its own status.
func TestRunCannotReopenCollectorFds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a collector process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "envelope.json")
	c := collectorProcess(reopenScript, "", out)
	if os.Geteuid() == 0 {
		asNobody(t, c, dir)
	}
	// The collector's stdout is a file that its user may open, as the
	// pipe from an agent would be.
	f, err := os.OpenFile(filepath.Join(dir, "stdout"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Chmod(0o666)
	c.Stdout = f
	if err := c.Run(); err != nil {
		t.Fatalf("collector: %v", err)
	}
	stdout, _ := os.ReadFile(f.Name())
	env := readEnvelope(t, out)
	if bytes.Contains(stdout, []byte("INJECTED")) || strings.Contains(env.Stdout, "reopened") {
		t.Errorf("the command reached the collector's descriptors: collector stdout %q, command stdout %q", stdout, env.Stdout)
	}
	if env.Stdout != "end\n" || env.ExitCode != 0 {
		t.Errorf("command stdout %q exit %d, want \"end\\n\" 0", env.Stdout, env.ExitCode)
	}
}
