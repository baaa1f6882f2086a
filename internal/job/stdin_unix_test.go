//go:build unix

package job

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
