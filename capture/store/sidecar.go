package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// cleanDir holds the files derived from raw artifacts' plaintext, one
// directory per artifact:
//
//	clean/<hex>/   written by a Sidecar, kept under its own retention
const cleanDir = "clean"

// KindClean is the kind of the derived-file directories a [Sidecar] keeps
// (the cleaned text and line index of package excerpt).
const KindClean Kind = "clean"

// Sidecar derives files from the plaintext of an artifact while a
// [Writer] stores it, so that they exist even when the stored artifact is
// encrypted and the writer could not read it back. It receives every byte
// Writer.Write is given, in order (the framed artifact; [Demux] parses
// it), then Commit with the artifact's reference, or Abort.
type Sidecar interface {
	io.Writer
	// Commit is called after the artifact was committed as r.
	Commit(r Ref) error
	// Abort discards what the sidecar wrote.
	Abort()
}

// SetSidecar makes every later [Store.NewWriter] attach the sidecar that
// newSidecar returns (nil: none). A sidecar's failure never fails the
// artifact: the Writer stops feeding it, aborts it, and reports the error
// from [Writer.SidecarErr].
func (s *Store) SetSidecar(newSidecar func(*Store) (Sidecar, error)) { s.sidecar = newSidecar }

// SidecarErr returns the error that made the Writer drop its sidecar, or
// nil.
func (w *Writer) SidecarErr() error { return w.sideErr }

// feedSidecar passes p to the sidecar, dropping it on error.
func (w *Writer) feedSidecar(p []byte) {
	if w.side == nil {
		return
	}
	if _, err := w.side.Write(p); err != nil {
		w.dropSidecar(err)
	}
}

func (w *Writer) dropSidecar(err error) {
	w.side.Abort()
	w.side, w.sideErr = nil, err
}

// commitSidecar tells the sidecar that the artifact is r.
func (w *Writer) commitSidecar(r Ref) {
	if w.side == nil {
		return
	}
	if err := w.side.Commit(r); err != nil {
		w.dropSidecar(err)
	}
	w.side = nil
}

// NewCleanTemp creates an empty private directory (mode 0700) in the
// store's tmp directory for a sidecar to fill and pass to
// [Store.CommitClean]. The directory is locked (flock) until CommitClean
// or until it is removed, so that [Store.Prune] leaves it alone while the
// process lives.
func (s *Store) NewCleanTemp() (string, error) {
	d, err := os.MkdirTemp(filepath.Join(s.dir, tmpDir), "clean-*.tmp")
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	if f, err := os.Open(d); err == nil && lock(f) == nil {
		s.mu.Lock()
		if s.dirLocks == nil {
			s.dirLocks = map[string]*os.File{}
		}
		// Let go of the locks of directories removed meanwhile (an
		// aborted sidecar removes its own).
		for p, l := range s.dirLocks {
			if _, err := os.Lstat(p); err != nil {
				l.Close()
				delete(s.dirLocks, p)
			}
		}
		s.dirLocks[d] = f
		s.mu.Unlock()
	} else if f != nil {
		f.Close()
	}
	return d, nil
}

// releaseCleanTemp lets go of the lock NewCleanTemp took on dir.
func (s *Store) releaseCleanTemp(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.dirLocks[dir]; l != nil {
		l.Close()
		delete(s.dirLocks, dir)
	}
}

func (s *Store) cleanPath(r Ref) string { return filepath.Join(s.dir, cleanDir, r.Hex()) }

// CommitClean renames tmp, a directory from [Store.NewCleanTemp], to the
// derived-file directory of r, replacing one that is there.
func (s *Store) CommitClean(tmp string, r Ref) error {
	defer s.releaseCleanTemp(tmp)
	if err := os.Mkdir(filepath.Join(s.dir, cleanDir), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("store: %w", err)
	}
	dst := s.cleanPath(r)
	if err := os.RemoveAll(dst); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	syncDir(filepath.Join(s.dir, cleanDir))
	return nil
}

// OpenClean opens the file name of r's derived-file directory, never
// through a symbolic link and only a regular file, as the store's blobs
// are opened: a command that rewrote the store cannot make a reader hang
// on a FIFO or read another file through a link. It fails with an error
// wrapping [ErrNotFound] when the store keeps no such file (never
// written, or pruned).
func (s *Store) OpenClean(r Ref, name string) (*os.File, error) {
	if name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("store: bad derived file name")
	}
	f, err := openRegular(filepath.Join(s.cleanPath(r), name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: no cleaned text for %s", ErrNotFound, r)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return f, nil
}

// PruneClean removes the derived-file directories written before before,
// on their own schedule (raw artifacts and envelopes have theirs, see
// [Store.Prune]), and returns them, or with dryRun only lists them.
func (s *Store) PruneClean(before time.Time, dryRun bool) ([]Entry, error) {
	des, err := os.ReadDir(filepath.Join(s.dir, cleanDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var removed []Entry
	for _, de := range des {
		r, ok := parseHexName(de.Name())
		if !ok || !de.IsDir() {
			continue
		}
		fi, err := de.Info()
		if err != nil || !fi.ModTime().Before(before) {
			continue
		}
		if !dryRun {
			if err := os.RemoveAll(s.cleanPath(r)); err != nil {
				return removed, fmt.Errorf("store: %w", err)
			}
		}
		removed = append(removed, Entry{Ref: r, Kind: KindClean, ModTime: fi.ModTime()})
	}
	return removed, nil
}
