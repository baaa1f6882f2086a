//go:build unix

package diff

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture"
)

// TestLoadFIFO: a FIFO (or a device) named as an input is refused as not
// a regular file without being read, as clean and report refuse it.
// Load read a FIFO's first bytes to see whether it held report JSON and
// then opened it again as a capture, which waited for ever for a second
// writer: bytelens diff <(printf x) b.bin never ended.
func TestLoadFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	go func() {
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.WriteString("a\x1b[1mb")
			f.Close()
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := Load(p, capture.ArgOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, capture.ErrNotRegular) || err.Error() != p+" is not a regular file" {
			t.Errorf("Load(FIFO): %v, want %q", err, p+" is not a regular file")
		}
	case <-time.After(10 * time.Second):
		// Let the waiting open go on, so that the test binary can end.
		if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("Load(FIFO) still waits after 10 s")
	}
	if _, err := Load(os.DevNull, capture.ArgOptions{}); !errors.Is(err, capture.ErrNotRegular) {
		t.Errorf("Load(%s): %v, want not a regular file", os.DevNull, err)
	}
}
