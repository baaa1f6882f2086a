package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Layout of a store directory:
//
//	raw/<hex>             raw artifacts, named by the SHA-256 of their bytes
//	envelopes/<hex>.json  cleaned envelopes, named by their raw artifact's digest
//	tmp/                  files being written; never read, removed by Prune
const (
	rawDir      = "raw"
	envelopeDir = "envelopes"
	tmpDir      = "tmp"
)

// EnvStore is the environment variable that names the store directory.
const EnvStore = "BYTELENS_STORE"

// DefaultDir returns the store directory: $BYTELENS_STORE if set, else
// $XDG_STATE_HOME/bytelens/store if XDG_STATE_HOME is an absolute path,
// else ~/.local/state/bytelens/store. It fails only when none applies (no
// home directory).
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvStore); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "bytelens", "store"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("store: no store directory: set %s: %w", EnvStore, err)
	}
	return filepath.Join(home, ".local", "state", "bytelens", "store"), nil
}

// Store is a restricted store rooted at a directory. Its methods are safe
// for concurrent use, by goroutines and by processes sharing the directory.
type Store struct {
	dir     string
	sidecar func(*Store) (Sidecar, error) // see SetSidecar
	sealer  Sealer                        // see SetSealer

	mu       sync.Mutex
	dirLocks map[string]*os.File // locks held on tmp/ directories being filled
}

// Open opens the store at dir, creating it and its subdirectories with mode
// 0700 if they do not exist. It refuses, with an error wrapping
// [ErrPermissions], a store directory or subdirectory that is a symbolic
// link, is owned by another user, or has any group or other permission
// bit, and never changes the mode of an existing directory. (The parents
// of dir are the caller's to choose.)
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("store: empty directory name")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	for _, d := range []string{abs, filepath.Join(abs, rawDir), filepath.Join(abs, envelopeDir), filepath.Join(abs, tmpDir), filepath.Join(abs, cleanDir)} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("store: %w", err)
		}
		fi, err := os.Lstat(d)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s is a symbolic link", ErrPermissions, d)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("store: %s is not a directory", d)
		}
		if uid, other := ownedByOther(fi); other {
			return nil, fmt.Errorf("%w: %s is owned by uid %d, not by the current user (uid %d)", ErrPermissions, d, uid, os.Geteuid())
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%w: %s has mode %04o, want 0700", ErrPermissions, d, fi.Mode().Perm())
		}
	}
	return &Store{dir: abs}, nil
}

// OpenDefault opens the store at [DefaultDir].
func OpenDefault() (*Store, error) {
	d, err := DefaultDir()
	if err != nil {
		return nil, err
	}
	return Open(d)
}

// DefaultRefs returns the references of the raw artifacts in the store at
// [DefaultDir], oldest first, for shell completion. It never creates the store: one
// that does not exist, or cannot be opened or listed, holds none.
func DefaultRefs() []Ref {
	d, err := DefaultDir()
	if err != nil {
		return nil
	}
	if _, err := os.Stat(d); err != nil {
		return nil
	}
	st, err := Open(d)
	if err != nil {
		return nil
	}
	es, err := st.List()
	if err != nil {
		return nil
	}
	var refs []Ref
	for _, e := range es {
		if e.Kind == KindRaw {
			refs = append(refs, e.Ref)
		}
	}
	return refs
}

// CompleteRefs returns, for shell completion, the references of
// DefaultRefs as strings when word (the word being completed) can only be
// the start of one: it begins with RefPrefix, or is at least "rest" of it.
// Otherwise it returns false, and the shell completes file names.
func CompleteRefs(word string) ([]string, bool) {
	if !strings.HasPrefix(word, RefPrefix) && (len(word) < 4 || !strings.HasPrefix(RefPrefix, word)) {
		return nil, false
	}
	var out []string
	for _, r := range DefaultRefs() {
		out = append(out, r.String())
	}
	return out, true
}

// Dir returns the store's absolute directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) rawPath(r Ref) string { return filepath.Join(s.dir, rawDir, r.Hex()) }

// Holds reports whether path names the store's directory or a file or
// directory inside it ([Within]), so that a caller can refuse to write
// there: its files are written only by the store.
func (s *Store) Holds(path string) bool { return Within(s.dir, path) }

// Within reports whether path lies in the directory dir or is dir itself,
// once symbolic links are followed: those of path, or of its directory
// when path does not exist yet (a file about to be created). It is false
// when dir does not exist or a path cannot be resolved.
func Within(dir, path string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	} else if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(r, filepath.Base(p))
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// IsBlob reports whether fi is the store's file of the raw artifact r,
// whatever path reached it (os.SameFile: a symbolic or hard link too),
// so that a caller can refuse to write over the evidence it reads.
func (s *Store) IsBlob(r Ref, fi fs.FileInfo) bool {
	bi, err := os.Lstat(s.rawPath(r))
	return err == nil && os.SameFile(fi, bi)
}

func (s *Store) envelopePath(r Ref) string {
	return filepath.Join(s.dir, envelopeDir, r.Hex()+".json")
}

// Writer writes one raw artifact into the store, hashing while it streams.
// The bytes go to a temporary file (mode 0600) in the store's tmp
// directory, locked (flock) for as long as the Writer holds it so that
// [Store.Prune] leaves it alone; [Writer.Commit] syncs it and renames it
// to its digest, so the artifact appears whole or not at all. If the
// writing process dies, the lock goes with it and the file is listed as
// abandoned and pruned. A Writer is not safe for concurrent use.
type Writer struct {
	s    *Store
	f    *os.File
	out  io.Writer // f, or a fault injected by a test
	h    hash.Hash
	n    int64
	err  error
	done bool

	side    Sidecar // see Store.SetSidecar
	sideErr error
	sealed  io.WriteCloser // see Store.SetSealer
}

// NewWriter starts a new blob in the store.
func (s *Store) NewWriter() (*Writer, error) {
	f, err := s.createTemp("raw-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	w := &Writer{s: s, f: f, out: f, h: sha256.New()}
	if err := w.seal(); err != nil {
		w.Abort()
		return nil, fmt.Errorf("store: %w", err)
	}
	if s.sidecar != nil {
		if w.side, w.sideErr = s.sidecar(s); w.sideErr != nil {
			w.side = nil
		}
	}
	return w, nil
}

// createTemp creates a temporary file in tmp/ and locks it. A prune may
// remove the file between its creation and the lock; it then holds no
// name (its link count is 0) and a new one is made.
func (s *Store) createTemp(pattern string) (*os.File, error) {
	for range 3 {
		f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), pattern)
		if err != nil {
			return nil, err
		}
		if err := lock(f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		if fi, err := f.Stat(); err == nil && !unlinked(fi) {
			return f, nil
		}
		f.Close()
	}
	return nil, errors.New("temporary files keep disappearing (a prune running in a loop?)")
}

// Write appends p to the blob. After the first error every call returns it.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.done {
		return 0, errors.New("store: write after commit or abort")
	}
	n, err := w.out.Write(p)
	w.h.Write(p[:n])
	w.feedSidecar(p[:n])
	w.n += int64(n)
	if err != nil {
		w.err = fmt.Errorf("store: %w", err)
	}
	return n, w.err
}

// Size returns the number of bytes written so far.
func (w *Writer) Size() int64 { return w.n }

// Commit syncs the blob, renames it to raw/<hex> and syncs the directory.
// It returns the blob's reference. On error the temporary file is removed
// and nothing becomes visible. Committing the same bytes twice yields the
// same reference and one file.
func (w *Writer) Commit() (Ref, error) {
	if w.done {
		return Ref{}, errors.New("store: commit after commit or abort")
	}
	w.done = true
	var r Ref
	copy(r[:], w.h.Sum(nil))
	err := w.err
	if err == nil {
		err = w.closeSeal()
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.s.rawPath(r))
	}
	if err != nil {
		os.Remove(w.f.Name())
		if w.side != nil {
			w.dropSidecar(err)
		}
		return Ref{}, fmt.Errorf("store: %w", err)
	}
	syncDir(filepath.Join(w.s.dir, rawDir))
	w.commitSidecar(r)
	return r, nil
}

// Abort discards the blob. It is a no-op after Commit.
func (w *Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	if w.side != nil {
		w.side.Abort()
		w.side = nil
	}
	return os.Remove(w.f.Name())
}

// syncDir makes a rename durable. Errors are ignored: some file systems do
// not support syncing a directory, and the rename itself already happened.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// writeAtomic writes data to path through a synced temporary file and a
// rename.
func (s *Store) writeAtomic(path string, data []byte) error {
	f, err := s.createTemp("env-*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// ReadRaw returns the bytes of the raw artifact r after checking that they
// hash to r. It fails with [ErrNotFound] if the store does not hold r and
// with [ErrCorrupt] if the bytes do not match; corrupt bytes are never
// returned.
func (s *Store) ReadRaw(r Ref) ([]byte, error) {
	f, err := s.openRawFile(r)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if sha256.Sum256(b) != r {
		return nil, fmt.Errorf("%w: %s does not match its digest", ErrCorrupt, r)
	}
	return b, nil
}

// OpenRaw opens the raw artifact r for reading after hashing the whole file
// and checking it against r; the returned file is positioned at offset 0.
// Use it for artifacts too large to read at once. Errors are those of
// [Store.ReadRaw]. The caller closes the file.
func (s *Store) OpenRaw(r Ref) (*os.File, error) {
	f, err := s.openRawFile(r)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	if !bytes.Equal(h.Sum(nil), r[:]) {
		f.Close()
		return nil, fmt.Errorf("%w: %s does not match its digest", ErrCorrupt, r)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	return f, nil
}

// openBlob opens a file of the store for reading as openRegular does. A
// missing file is [ErrNotFound] for r.
func (s *Store) openBlob(path string, r Ref) (*os.File, error) {
	f, err := openRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, r)
	}
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return f, nil
}

// openRegular opens a file of the store for reading: never through a
// symbolic link (O_NOFOLLOW), without waiting for a writer (O_NONBLOCK:
// a FIFO planted under the name does not block the open), and only a
// regular file. A missing file gives an error wrapping fs.ErrNotExist.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Load reads, verifies and decodes the raw artifact r. Errors are those of
// [Store.ReadRaw] and [DecodeArtifact].
func (s *Store) Load(r Ref) (*Artifact, error) {
	b, err := s.ReadRaw(r)
	if err != nil {
		return nil, err
	}
	a, err := DecodeArtifact(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	return a, nil
}

// Has reports whether the store holds a raw artifact named r, without
// verifying it.
func (s *Store) Has(r Ref) bool {
	_, err := os.Stat(s.rawPath(r))
	return err == nil
}

// PutEnvelope stores data, a cleaned envelope in JSON, linked to the raw
// artifact r, replacing any envelope already linked to r. The raw artifact
// need not be present: envelopes and raw artifacts have separate retention.
func (s *Store) PutEnvelope(r Ref, data []byte) error {
	if r.IsZero() {
		return fmt.Errorf("%w: zero reference", ErrBadRef)
	}
	if err := s.writeAtomic(s.envelopePath(r), data); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// ReadEnvelope returns the envelope linked to the raw artifact r, or an
// error wrapping [ErrNotFound].
func (s *Store) ReadEnvelope(r Ref) ([]byte, error) {
	f, err := s.openBlob(s.envelopePath(r), r)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: no envelope for %s", ErrNotFound, r)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return b, nil
}

// Kind says what a store entry holds.
type Kind string

// Kinds of store entries.
const (
	KindRaw      Kind = "raw"
	KindEnvelope Kind = "envelope"
	// KindTemp is a file in tmp/: being written (InProgress) or left by
	// a writer that died.
	KindTemp Kind = "temp"
)

// Entry describes one file in the store.
type Entry struct {
	// Ref names the raw artifact the entry is or is linked to; zero for
	// KindTemp.
	Ref Ref
	// Kind is KindRaw, KindEnvelope or KindTemp.
	Kind Kind
	// Name is the file's name in the store, such as "tmp/raw-123.tmp"
	// for KindTemp and "raw/<hex>" for KindRaw. Display it escaped.
	Name string
	// InProgress reports, for KindTemp, that a writer holds the file's
	// lock: a run is writing it. An abandoned file is not in progress.
	InProgress bool
	// Size is the file's size in bytes.
	Size int64
	// ModTime is when the file was written.
	ModTime time.Time
	// Argv is the command line from a raw artifact's manifest, unverified
	// (List reads only the header); nil for envelopes and for artifacts
	// whose header cannot be read. Display it escaped.
	Argv []string
}

// List returns the raw artifacts, envelopes and temporary files in the
// store, oldest first. Files whose names are not store names are not
// listed.
func (s *Store) List() ([]Entry, error) {
	var out []Entry
	for _, k := range []Kind{KindRaw, KindEnvelope, KindTemp} {
		es, err := s.entries(k)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ModTime.Before(out[j].ModTime) })
	return out, nil
}

func (s *Store) entries(k Kind) ([]Entry, error) {
	if k == KindTemp {
		return s.temps(time.Time{}, false)
	}
	dir, suffix := filepath.Join(s.dir, rawDir), ""
	if k == KindEnvelope {
		dir, suffix = filepath.Join(s.dir, envelopeDir), ".json"
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var out []Entry
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), suffix)
		if !ok || !de.Type().IsRegular() {
			continue
		}
		r, ok := parseHexName(name)
		if !ok {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		e := Entry{Ref: r, Kind: k, Name: filepath.Base(dir) + "/" + de.Name(), Size: fi.Size(), ModTime: fi.ModTime()}
		if k == KindRaw {
			e.Argv = s.headerArgv(r)
		}
		out = append(out, e)
	}
	return out, nil
}

// headerArgv reads the argv of an artifact's manifest, or nil.
func (s *Store) headerArgv(r Ref) []string {
	if s.IsSealed(r) {
		return nil // the manifest is encrypted too
	}
	f, err := s.openBlob(s.rawPath(r), r)
	if err != nil {
		return nil
	}
	defer f.Close()
	m, err := ReadManifest(f)
	if err != nil {
		return nil
	}
	return m.Argv
}

// ReadManifest reads only the header of a raw artifact from r and returns
// its manifest. It does not verify the artifact; errors wrap [ErrFormat].
func ReadManifest(r io.Reader) (*Manifest, error) {
	return decodeHeader(bufio.NewReader(io.LimitReader(r, int64(len(Magic)+6+MaxManifest))))
}

// PruneOptions says what [Store.Prune] removes. A zero time removes nothing
// of that kind.
type PruneOptions struct {
	// RawBefore removes raw artifacts written before it.
	RawBefore time.Time
	// EnvelopesBefore removes envelopes written before it.
	EnvelopesBefore time.Time
	// CleanBefore removes the derived files (the cleaned text kept for
	// excerpt) written before it, as [Store.PruneClean] does.
	CleanBefore time.Time
	// TempBefore removes temporary files last written before it that no
	// writer holds (left by a process that died); a file being written
	// is locked and never removed, whatever its age.
	TempBefore time.Time
	// DryRun reports what would be removed and removes nothing.
	DryRun bool
}

// Prune removes raw artifacts, envelopes and derived files older than
// their own limits, each kind on its own schedule, and leftover temporary
// files. It returns
// the entries removed (or that would be, with DryRun). Removing an entry
// that another process removed meanwhile is not an error.
func (s *Store) Prune(o PruneOptions) ([]Entry, error) {
	var removed []Entry
	for _, k := range []Kind{KindRaw, KindEnvelope} {
		before := o.RawBefore
		if k == KindEnvelope {
			before = o.EnvelopesBefore
		}
		if before.IsZero() {
			continue
		}
		es, err := s.entries(k)
		if err != nil {
			return removed, err
		}
		for _, e := range es {
			if !e.ModTime.Before(before) {
				continue
			}
			if !o.DryRun {
				p := s.rawPath(e.Ref)
				if k == KindEnvelope {
					p = s.envelopePath(e.Ref)
				}
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return removed, fmt.Errorf("store: %w", err)
				}
			}
			removed = append(removed, e)
		}
	}
	if !o.TempBefore.IsZero() {
		es, err := s.temps(o.TempBefore, !o.DryRun)
		if err != nil {
			return removed, err
		}
		removed = append(removed, es...)
	}
	if !o.CleanBefore.IsZero() {
		es, err := s.PruneClean(o.CleanBefore, o.DryRun)
		removed = append(removed, es...)
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// temps lists the regular files and directories in tmp/. With a non-zero
// before it lists only those not in progress and last written before it,
// and with remove set it removes them, each while holding its lock so that
// no writer can take it meanwhile.
func (s *Store) temps(before time.Time, remove bool) ([]Entry, error) {
	dir := filepath.Join(s.dir, tmpDir)
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	var out []Entry
	for _, de := range des {
		if !de.Type().IsRegular() && !de.IsDir() {
			continue
		}
		path := filepath.Join(dir, de.Name())
		f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow, 0)
		if err != nil {
			continue // removed meanwhile
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
			f.Close()
			continue
		}
		e := Entry{Kind: KindTemp, Name: tmpDir + "/" + de.Name(), Size: fi.Size(), ModTime: fi.ModTime(), InProgress: !tryLock(f)}
		if !before.IsZero() {
			if e.InProgress || !fi.ModTime().Before(before) {
				f.Close()
				continue
			}
			if remove {
				// Remove the file only if the name still is the file
				// locked.
				if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, fi) {
					os.RemoveAll(path)
				}
			}
		}
		f.Close()
		out = append(out, e)
	}
	return out, nil
}
