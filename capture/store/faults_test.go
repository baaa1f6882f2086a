package store

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefuses checks that Open refuses a store whose directory or a
// subdirectory is a symbolic link or belongs to another user.
func TestOpenRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the dir to open
	}{
		{"store is a symlink", func(t *testing.T, dir string) string {
			real := filepath.Join(dir, "real")
			os.Mkdir(real, 0o700)
			link := filepath.Join(dir, "link")
			os.Symlink(real, link)
			return link
		}},
		{"raw is a symlink", func(t *testing.T, dir string) string {
			s := filepath.Join(dir, "store")
			Open(s)
			elsewhere := filepath.Join(dir, "elsewhere")
			os.Mkdir(elsewhere, 0o700)
			os.Remove(filepath.Join(s, rawDir))
			os.Symlink(elsewhere, filepath.Join(s, rawDir))
			return s
		}},
		{"tmp owned by another user", func(t *testing.T, dir string) string {
			s := filepath.Join(dir, "store")
			Open(s)
			if err := os.Chown(filepath.Join(s, tmpDir), 4242, 4242); err != nil {
				t.Skipf("cannot give a directory away: %v", err)
			}
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t, t.TempDir())
			if s, err := Open(dir); !errors.Is(err, ErrPermissions) {
				t.Errorf("Open = %v, %v; want ErrPermissions", s, err)
			}
		})
	}
}

// TestBlobNoFollow checks that a symbolic link or a FIFO planted under a
// blob's name is refused, without following it or blocking.
func TestBlobNoFollow(t *testing.T) {
	s := testStore(t)
	r, _ := putArtifact(t, s, -1, "1:evidence")
	elsewhere := filepath.Join(t.TempDir(), "copy")
	os.Rename(s.rawPath(r), elsewhere)
	os.Symlink(elsewhere, s.rawPath(r))
	if _, err := s.ReadRaw(r); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("ReadRaw through a symlink: %v, want a refusal", err)
	}
	if _, err := s.OpenRaw(r); err == nil {
		t.Error("OpenRaw followed a symlink")
	}
	os.Remove(s.rawPath(r))
	if err := syscall.Mkfifo(s.rawPath(r), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Load(r); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Load of a FIFO succeeded")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}

// TestWriterDiskFull writes a blob to a full disk (/dev/full): the error
// reaches the caller, Commit fails, and neither a blob nor a temp file is
// left.
func TestWriterDiskFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	s := testStore(t)
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	w.out = full
	if _, err := w.Write([]byte("evidence")); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write = %v, want ENOSPC", err)
	}
	if _, err := w.Commit(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Commit = %v, want ENOSPC", err)
	}
	if es, err := s.List(); err != nil || len(es) != 0 {
		t.Errorf("store holds %+v, %v", es, err)
	}
}

// TestCleanTempLocked: a sidecar's temporary directory is in progress
// while its process holds it, and pruned once it is let go (its process
// died).
func TestCleanTempLocked(t *testing.T) {
	s := testStore(t)
	d, err := s.NewCleanTemp()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d, "text"), []byte("cleaned"), 0o600)
	if rm, err := s.Prune(PruneOptions{TempBefore: time.Now().Add(time.Minute)}); err != nil || len(rm) != 0 {
		t.Fatalf("Prune of a directory in progress: %+v, %v", rm, err)
	}
	if es, _ := s.List(); len(es) != 1 || es[0].Kind != KindTemp || !es[0].InProgress {
		t.Fatalf("List: %+v", es)
	}
	s.releaseCleanTemp(d) // as when the process dies
	if rm, err := s.Prune(PruneOptions{TempBefore: time.Now().Add(time.Minute)}); err != nil || len(rm) != 1 {
		t.Fatalf("Prune of an abandoned directory: %+v, %v", rm, err)
	}
	if _, err := os.Stat(d); !os.IsNotExist(err) {
		t.Errorf("the directory is still there: %v", err)
	}
}
