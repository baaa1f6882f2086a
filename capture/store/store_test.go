package store

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseRef(t *testing.T) {
	hex := strings.Repeat("0123456789abcdef", 4)
	good := RefPrefix + hex
	r, err := ParseRef(good)
	if err != nil {
		t.Fatalf("ParseRef(%q): %v", good, err)
	}
	if r.String() != good || r.Hex() != hex {
		t.Errorf("round trip: got %q, want %q", r.String(), good)
	}
	bad := map[string]string{
		"empty":       "",
		"no prefix":   hex,
		"other algo":  "restricted:sha512:" + hex,
		"uppercase":   RefPrefix + strings.ToUpper(hex),
		"one upper":   RefPrefix + "A" + hex[1:],
		"short":       RefPrefix + hex[:63],
		"long":        RefPrefix + hex + "0",
		"dotdot":      RefPrefix + "../" + hex[3:],
		"slash":       RefPrefix + hex[:32] + "/" + hex[33:],
		"trailing nl": good + "\n",
		"leading sp":  " " + good,
		"non-hex":     RefPrefix + "g" + hex[1:],
		"prefix case": "Restricted:sha256:" + hex,
	}
	for name, s := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := ParseRef(s)
			if !errors.Is(err, ErrBadRef) {
				t.Fatalf("ParseRef(%q) = %v, want ErrBadRef", s, err)
			}
			if s != "" && strings.Contains(err.Error(), s) {
				t.Errorf("error repeats the input: %v", err)
			}
		})
	}
}

func testStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// putArtifact writes an artifact with the given chunks ("1:text" is stdout,
// "2:text" stderr) into s and returns its reference and bytes.
func putArtifact(t *testing.T, s *Store, maxRaw int64, chunks ...string) (Ref, []byte) {
	t.Helper()
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m := Manifest{Argv: []string{"sh", "-c", "x"}, Cwd: "/", Started: time.Unix(1700000000, 0).UTC(),
		Streams: []StreamDesc{{StreamStdout, "stdout"}, {StreamStderr, "stderr"}}, MaxRaw: maxRaw}
	aw, err := NewArtifactWriter(&tee{w, &buf}, m)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range chunks {
		id := c[0] - '0'
		p := []byte(c[2:])
		keep := p
		if maxRaw >= 0 {
			room := maxRaw - aw.Stored(id)
			if room < int64(len(keep)) {
				keep = keep[:max(room, 0)]
			}
		}
		if err := aw.Chunk(id, uint32(i), time.Duration(i)*time.Millisecond, keep, len(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := aw.Finish(Trailer{ExitCode: 3, DurationNS: 5e6}); err != nil {
		t.Fatal(err)
	}
	r, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return r, buf.Bytes()
}

type tee struct {
	a, b interface{ Write([]byte) (int, error) }
}

func (t *tee) Write(p []byte) (int, error) {
	t.b.Write(p)
	return t.a.Write(p)
}

func TestArtifactRoundTrip(t *testing.T) {
	s := testStore(t)
	r, raw := putArtifact(t, s, -1, "1:out\x1b]52;c;AAAA\a", "2:err1\n", "1:more\n", "2:\x9b31m")
	if sha256.Sum256(raw) != r {
		t.Fatalf("ref %s is not the digest of the bytes written", r)
	}
	a, err := s.Load(r)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(a.Stream("stdout").Data), "out\x1b]52;c;AAAA\amore\n"; got != want {
		t.Errorf("stdout: got %q, want %q", got, want)
	}
	if got, want := string(a.Stream("stderr").Data), "err1\n\x9b31m"; got != want {
		t.Errorf("stderr: got %q, want %q", got, want)
	}
	want := []Chunk{
		{0, "stdout", 0, 15, 0},
		{1, "stderr", 0, 5, time.Millisecond},
		{2, "stdout", 15, 5, 2 * time.Millisecond},
		{3, "stderr", 5, 4, 3 * time.Millisecond},
	}
	if fmt.Sprint(a.Chunks) != fmt.Sprint(want) {
		t.Errorf("chunks:\ngot  %v\nwant %v", a.Chunks, want)
	}
	if a.Trailer.ExitCode != 3 || a.Trailer.Chunks != 4 || a.Manifest.Argv[2] != "x" || a.Manifest.Schema != ArtifactSchema {
		t.Errorf("trailer/manifest: %+v %+v", a.Trailer, a.Manifest)
	}
	if a.Stream("stdout").Truncated() {
		t.Error("stdout marked truncated")
	}
	if !Sniff(raw) || Sniff(raw[:len(Magic)-1]) || Sniff([]byte("BLRAW")) {
		t.Error("Sniff disagrees with the magic")
	}
}

func TestArtifactRawLimit(t *testing.T) {
	s := testStore(t)
	r, _ := putArtifact(t, s, 6, "1:abcd", "2:xy", "1:efgh", "1:ijkl", "2:z")
	a, err := s.Load(r)
	if err != nil {
		t.Fatal(err)
	}
	out := a.Stream("stdout")
	if string(out.Data) != "abcdef" || out.Seen != 12 || !out.Truncated() {
		t.Errorf("stdout: data %q seen %d", out.Data, out.Seen)
	}
	if e := a.Stream("stderr"); string(e.Data) != "xyz" || e.Truncated() {
		t.Errorf("stderr: data %q seen %d", e.Data, e.Seen)
	}
	// The read past the limit stores nothing and writes no record.
	var seqs []uint32
	for _, c := range a.Chunks {
		seqs = append(seqs, c.Seq)
	}
	if fmt.Sprint(seqs) != "[0 1 2 4]" || a.Trailer.Chunks != 5 {
		t.Errorf("stored seqs %v, trailer chunks %d", seqs, a.Trailer.Chunks)
	}
}

func TestDecodeRejects(t *testing.T) {
	s := testStore(t)
	_, raw := putArtifact(t, s, -1, "1:hello", "2:world")
	// Every cut of the file is refused, never accepted or panicking.
	for n := 0; n < len(raw); n++ {
		if _, err := DecodeArtifact(bytes.NewReader(raw[:n])); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at %d: err %v, want ErrFormat", n, err)
		}
	}
	if _, err := DecodeArtifact(bytes.NewReader(append(bytes.Clone(raw), 0))); !errors.Is(err, ErrFormat) {
		t.Errorf("trailing byte: %v", err)
	}
	// Flip a byte of stored data: records no longer match the trailer.
	bad := bytes.Clone(raw)
	i := bytes.Index(bad, []byte("hello"))
	bad[i] = 'j'
	if _, err := DecodeArtifact(bytes.NewReader(bad)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped data byte: %v, want ErrCorrupt", err)
	}
	bad = bytes.Clone(raw)
	bad[len(Magic)+1] = 2
	if _, err := DecodeArtifact(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
		t.Errorf("version 2: %v", err)
	}
}

func TestPermissions(t *testing.T) {
	s := testStore(t)
	r, _ := putArtifact(t, s, -1, "1:x")
	if err := s.PutEnvelope(r, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"", rawDir, envelopeDir, tmpDir} {
		fi, err := os.Stat(filepath.Join(s.Dir(), d))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("dir %q mode %04o, want 0700", d, fi.Mode().Perm())
		}
	}
	for _, p := range []string{s.rawPath(r), s.envelopePath(r)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %04o, want 0600", p, fi.Mode().Perm())
		}
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(open); !errors.Is(err, ErrPermissions) {
		t.Errorf("Open(0755 dir) = %v, want ErrPermissions", err)
	}
	if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o755 {
		t.Errorf("Open changed an existing directory's mode to %04o", fi.Mode().Perm())
	}
}

func TestCorruptBlob(t *testing.T) {
	s := testStore(t)
	r, raw := putArtifact(t, s, -1, "1:evidence")
	bad := bytes.Clone(raw)
	bad[len(bad)-2] ^= 1
	if err := os.WriteFile(s.rawPath(r), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadRaw(r); !errors.Is(err, ErrCorrupt) || b != nil {
		t.Errorf("ReadRaw: %d bytes, %v; want nil, ErrCorrupt", len(b), err)
	}
	if _, err := s.Load(r); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Load: %v, want ErrCorrupt", err)
	}
	if f, err := s.OpenRaw(r); !errors.Is(err, ErrCorrupt) || f != nil {
		t.Errorf("OpenRaw: %v, want ErrCorrupt", err)
	}
	var missing Ref
	missing[0] = 1
	if _, err := s.Load(missing); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load(missing): %v, want ErrNotFound", err)
	}
}

func TestCrashMidWrite(t *testing.T) {
	s := testStore(t)
	w, err := s.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("partial artifact")
	w.Write(payload)
	// The process dies here: no Commit, no Abort.
	es, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Kind != KindTemp || !es[0].InProgress || es[0].Size != int64(len(payload)) || !es[0].Ref.IsZero() {
		t.Fatalf("List shows %+v for an uncommitted write, want one temp entry in progress", es)
	}
	if des, _ := os.ReadDir(filepath.Join(s.Dir(), rawDir)); len(des) != 0 {
		t.Fatalf("raw/ holds %d files", len(des))
	}
	if _, err := s.ReadRaw(sha256.Sum256(payload)); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadRaw of partial bytes: %v, want ErrNotFound", err)
	}
	tmps, _ := os.ReadDir(filepath.Join(s.Dir(), tmpDir))
	if len(tmps) != 1 {
		t.Fatalf("tmp/ holds %d files, want the 1 leftover", len(tmps))
	}
	// A file being written is never pruned, however old.
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(w.f.Name(), old, old)
	if rm, err := s.Prune(PruneOptions{TempBefore: time.Now()}); err != nil || len(rm) != 0 {
		t.Fatalf("Prune of a temp file in progress: removed %+v, %v", rm, err)
	}
	// The writer dies: its lock goes with its file descriptor.
	w.f.Close()
	if es, _ := s.List(); len(es) != 1 || es[0].InProgress {
		t.Fatalf("List after the writer died: %+v, want one abandoned temp entry", es)
	}
	os.Chtimes(w.f.Name(), time.Now(), time.Now())
	// Prune clears leftovers older than its limit, and only those.
	if _, err := s.Prune(PruneOptions{TempBefore: time.Now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if tmps, _ := os.ReadDir(filepath.Join(s.Dir(), tmpDir)); len(tmps) != 1 {
		t.Errorf("Prune removed a fresh temp file")
	}
	if _, err := s.Prune(PruneOptions{TempBefore: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if tmps, _ := os.ReadDir(filepath.Join(s.Dir(), tmpDir)); len(tmps) != 0 {
		t.Errorf("Prune left %d temp files", len(tmps))
	}
	// Abort removes its temp file at once.
	w2, _ := s.NewWriter()
	w2.Write(payload)
	w2.Abort()
	if tmps, _ := os.ReadDir(filepath.Join(s.Dir(), tmpDir)); len(tmps) != 0 {
		t.Errorf("Abort left %d temp files", len(tmps))
	}
}

func TestConcurrentWriters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	const n = 16
	refs := make([]Ref, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			s, err := Open(dir) // each as its own process would
			if err != nil {
				t.Error(err)
				return
			}
			w, err := s.NewWriter()
			if err != nil {
				t.Error(err)
				return
			}
			// Pairs of writers store the same bytes.
			p := bytes.Repeat([]byte{byte(i / 2)}, 1<<16)
			for off := 0; off < len(p); off += 1000 {
				w.Write(p[off:min(off+1000, len(p))])
			}
			r, err := w.Commit()
			if err != nil {
				t.Error(err)
				return
			}
			if r != sha256.Sum256(p) {
				t.Errorf("writer %d: wrong digest", i)
			}
			refs[i] = r
		})
	}
	wg.Wait()
	s, _ := Open(dir)
	es, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != n/2 {
		t.Errorf("List: %d entries, want %d", len(es), n/2)
	}
	for i, r := range refs {
		if _, err := s.ReadRaw(r); err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	if tmps, _ := os.ReadDir(filepath.Join(dir, tmpDir)); len(tmps) != 0 {
		t.Errorf("%d temp files left", len(tmps))
	}
}

func TestPruneSeparateSchedules(t *testing.T) {
	s := testStore(t)
	old, _ := putArtifact(t, s, -1, "1:old")
	young, _ := putArtifact(t, s, -1, "1:young")
	for _, r := range []Ref{old, young} {
		if err := s.PutEnvelope(r, []byte(`{"schema":"x"}`)); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	ago := now.Add(-48 * time.Hour)
	os.Chtimes(s.rawPath(old), ago, ago)
	os.Chtimes(s.envelopePath(old), ago, ago)

	es, _ := s.List()
	if len(es) != 4 || es[0].Ref != old || es[0].Kind != KindRaw && es[0].Kind != KindEnvelope {
		t.Fatalf("List: %+v", es)
	}
	if es[0].Kind == KindRaw && fmt.Sprint(es[0].Argv) != "[sh -c x]" {
		t.Errorf("List argv: %q", es[0].Argv)
	}
	// Raw artifacts older than a day go; envelopes are kept.
	rm, err := s.Prune(PruneOptions{RawBefore: now.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rm) != 1 || rm[0].Ref != old || rm[0].Kind != KindRaw {
		t.Errorf("pruned %+v, want old raw only", rm)
	}
	if s.Has(old) || !s.Has(young) {
		t.Error("wrong raw artifact removed")
	}
	if _, err := s.ReadEnvelope(old); err != nil {
		t.Errorf("old envelope gone with its raw artifact: %v", err)
	}
	// Dry run reports and keeps.
	rm, _ = s.Prune(PruneOptions{EnvelopesBefore: now.Add(-time.Hour), DryRun: true})
	if len(rm) != 1 {
		t.Errorf("dry run: %d entries", len(rm))
	}
	if _, err := s.ReadEnvelope(old); err != nil {
		t.Error("dry run removed an envelope")
	}
	rm, _ = s.Prune(PruneOptions{EnvelopesBefore: now.Add(-time.Hour)})
	if _, err := s.ReadEnvelope(old); !errors.Is(err, ErrNotFound) || len(rm) != 1 {
		t.Errorf("old envelope still there: %v", err)
	}
	if _, err := s.ReadEnvelope(young); err != nil {
		t.Errorf("young envelope removed: %v", err)
	}
}

func TestIgnoresForeignNames(t *testing.T) {
	s := testStore(t)
	for _, n := range []string{"README", strings.Repeat("A", 64), "x.json"} {
		os.WriteFile(filepath.Join(s.Dir(), rawDir, n), nil, 0o600)
		os.WriteFile(filepath.Join(s.Dir(), envelopeDir, n), nil, 0o600)
	}
	if es, _ := s.List(); len(es) != 0 {
		t.Errorf("List shows foreign files: %+v", es)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvStore, "/x/store")
	t.Setenv("XDG_STATE_HOME", "/state")
	if d, _ := DefaultDir(); d != "/x/store" {
		t.Errorf("with %s: %q", EnvStore, d)
	}
	t.Setenv(EnvStore, "")
	if d, _ := DefaultDir(); d != "/state/bytelens/store" {
		t.Errorf("with XDG_STATE_HOME: %q", d)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if d, _ := DefaultDir(); d != "/home/u/.local/state/bytelens/store" {
		t.Errorf("relative XDG_STATE_HOME: %q", d)
	}
}

// TestDefaultRefs checks that completion's listing finds the raw
// artifacts of the default store and never creates one.
func TestDefaultRefs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	t.Setenv(EnvStore, dir)
	if refs := DefaultRefs(); refs != nil {
		t.Errorf("no store: %v", refs)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("DefaultRefs created the store")
	}
	s, err := OpenDefault()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := putArtifact(t, s, -1, "1:evidence")
	if err := s.PutEnvelope(r, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if refs := DefaultRefs(); len(refs) != 1 || refs[0] != r {
		t.Errorf("DefaultRefs = %v, want [%v] (raw artifacts only)", refs, r)
	}
}

// TestCompleteRefs checks which words complete to references: those
// that can only begin one.
func TestCompleteRefs(t *testing.T) {
	t.Setenv(EnvStore, filepath.Join(t.TempDir(), "store"))
	s, err := OpenDefault()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := putArtifact(t, s, -1, "1:evidence")
	for _, tc := range []struct {
		word string
		refs bool
	}{
		{"", false}, {"r", false}, {"res", false}, {"rest", true}, {"restricted:", true},
		{"restricted:sha256:" + r.Hex()[:3], true}, {"rests", false}, {"build.log", false},
	} {
		got, ok := CompleteRefs(tc.word)
		if ok != tc.refs || ok && (len(got) != 1 || got[0] != r.String()) || !ok && got != nil {
			t.Errorf("CompleteRefs(%q) = %q, %v; want references: %v", tc.word, got, ok, tc.refs)
		}
	}
}

func TestWithin(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "store")
	os.MkdirAll(filepath.Join(dir, "raw"), 0o700)
	os.Mkdir(filepath.Join(root, "store-other"), 0o700)
	os.Symlink(dir, filepath.Join(root, "link"))
	for _, tc := range []struct {
		path string
		want bool
	}{
		{dir, true},
		{filepath.Join(dir, "raw", "x"), true},     // a new file
		{filepath.Join(root, "link", "raw"), true}, // through a link
		{filepath.Join(dir, "raw", "..", "..", "elsewhere"), false},
		{filepath.Join(root, "store-other", "x"), false}, // a name that begins like it
		{root, false},
		{filepath.Join(root, "missing", "x"), false},
	} {
		if got := Within(dir, tc.path); got != tc.want {
			t.Errorf("Within(%s, %s) = %v, want %v", dir, tc.path, got, tc.want)
		}
	}
	if Within(filepath.Join(root, "none"), root) {
		t.Error("a store that does not exist holds a path")
	}
}
