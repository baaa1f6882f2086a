package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestProgressOnTerminalOnly cleans 8 MiB with stderr on a pseudo-terminal
// and on a pipe: the bar is drawn on the terminal only, as plain text.
func TestProgressOnTerminalOnly(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	in := filepath.Join(t.TempDir(), "big.log")
	os.WriteFile(in, bytes.Repeat([]byte("line \x1b[31mred\x1b[0m\n"), (2<<20)/19), 0o644)

	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptm); got <- b }()
	if code := run([]string{"clean", in}, strings.NewReader(""), io.Discard, pts); code != 0 {
		t.Fatalf("exit %d", code)
	}
	pts.Close()
	drawn := <-got
	if !bytes.Contains(drawn, []byte("cleaning output")) || !bytes.Contains(drawn, []byte("%")) {
		t.Errorf("no progress bar on the terminal: %q", drawn)
	}
	if bytes.IndexByte(drawn, 0x1b) >= 0 {
		t.Errorf("progress bar drew an escape sequence: %q", drawn)
	}

	r, w, _ := os.Pipe()
	if code := run([]string{"clean", in}, strings.NewReader(""), io.Discard, w); code != 0 {
		t.Fatalf("exit %d", code)
	}
	w.Close()
	if b, _ := io.ReadAll(r); len(b) != 0 {
		t.Errorf("stderr on a pipe got %q", b)
	}
}
