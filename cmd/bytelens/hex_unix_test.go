//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
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
