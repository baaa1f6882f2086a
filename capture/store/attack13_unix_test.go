//go:build unix

package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAttack13OpenCleanPlanted checks that OpenClean refuses, at once, a
// derived file that a command run without --isolate replaced with a FIFO
// or a symbolic link: os.Open of the FIFO waited for a writer forever, so
// bytelens excerpt and the MCP server's excerpt and report calls hung, and
// a link to another file was read as the cleaned text (attack13).
func TestAttack13OpenCleanPlanted(t *testing.T) {
	st, r, tmp := cleanTemp(t)
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(tmp, "meta.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.txt")
	os.WriteFile(other, []byte("not the store's\n"), 0o600)
	os.Symlink(other, filepath.Join(tmp, "stdout.txt"))
	os.Symlink(filepath.Join(dir, "missing"), filepath.Join(tmp, "stdout.idx"))
	if err := st.CommitClean(tmp, r); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"meta.json", "stdout.txt", "stdout.idx"} {
		done := make(chan error, 1)
		go func() {
			f, err := st.OpenClean(r, name)
			if f != nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("OpenClean(%s) opened a planted file", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenClean(%s) still waits after 10 s", name)
		}
	}
}
