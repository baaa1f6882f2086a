//go:build unix

package job

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestOpenStdinFIFOStops: a --stdin FIFO that no writer opens holds the
// open until the signal context ends, and then fails at once (it used to
// wait for ever, deaf to SIGTERM).
func TestOpenStdinFIFOStops(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "in\x1b[31m.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		f, err := openStdin(ctx, fifo)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("openStdin: %v, want an error wrapping context.Canceled", err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "--stdin: ") || strings.IndexByte(msg, 0x1b) >= 0 {
			t.Errorf("error %q: want it to begin with --stdin: and hold no ESC", msg)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("openStdin still waits 10 s after its context ended")
	}
}

// TestAttack13StdinTerminal: a terminal given as --stdin is refused. The
// command could reopen its stdin for writing (/proc/self/fd/0, which
// needs no name in the command's /dev) and write to the screen: run
// --isolate --stdin $(tty) set the terminal's title (attack13). The
// devices --isolate binds are still accepted.
func TestAttack13StdinTerminal(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skip(err)
	}
	defer ptm.Close()
	defer tty.Close()
	if f, err := openStdin(context.Background(), tty.Name()); err == nil {
		f.Close()
		t.Errorf("openStdin(%s) accepted a terminal", tty.Name())
	}
	for _, dev := range []string{os.DevNull, "/dev/zero", "/dev/urandom"} {
		f, err := openStdin(context.Background(), dev)
		if err != nil {
			t.Errorf("openStdin(%s): %v", dev, err)
			continue
		}
		f.Close()
	}
}
