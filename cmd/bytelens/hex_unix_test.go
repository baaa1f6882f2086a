//go:build unix

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGlyphsFIFO checks that a FIFO named as FILE (bytelens glyphs
// <(cmd)) is read as stdin is: raw unless --format says otherwise.
func TestGlyphsFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString("a\x1b[1mb")
		f.Close()
	}()
	code, out, errs := runCLI(t, "", "glyphs", p)
	if code != 0 || out != "a␛[1mb\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestHexStopsWhenOutputIsGone feeds hex - without end, squeezing every
// row after the first, into a pipe whose reader goes away after one line:
// hex must stop (exit 1, quietly), not read for ever.
func TestHexStopsWhenOutputIsGone(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	done := make(chan int, 1)
	go func() {
		var errb strings.Builder
		done <- run([]string{"hex", "-"}, neverEnding{}, pw, &errb)
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "0x00000000  79 0a") {
		t.Fatalf("first line %q, %v", line, err)
	}
	pr.Close()
	select {
	case code := <-done:
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hex still reading 10 s after its output was closed")
	}
}

// neverEnding reads as "y\n" without end, like yes(1).
type neverEnding struct{}

func (neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "y\n"[i%2]
	}
	return len(p) &^ 1, nil
}
