package extract

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/seal"
	"github.com/creack/pty"
)

const stdout = "ok \x1b]52;c;SECRETSECRETSECRET\x07after\n" // 35 bytes

// newStore returns a store in a temporary directory holding one artifact
// (stdout, and "e\n" on stderr), with its cleaned-text record, and its
// reference; sl, when not nil, encrypts it at rest.
func newStore(t *testing.T, sl store.Sealer) (*store.Store, store.Ref) {
	t.Helper()
	return newStoreNamed(t, sl, "stdout")
}

// newStoreNamed is newStore with the first stream named name, as a
// crafted manifest may name it.
func newStoreNamed(t *testing.T, sl store.Sealer, name string) (*store.Store, store.Ref) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	if sl != nil {
		st.SetSealer(sl)
	}
	st.SetSidecar(excerpt.Sidecar(sanitize.Options{}))
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	aw, err := store.NewArtifactWriter(w, store.Manifest{Argv: []string{"x"}, Started: time.Unix(0, 0),
		Streams: []store.StreamDesc{{ID: 1, Name: name}, {ID: 2, Name: "stderr"}}})
	if err != nil {
		t.Fatal(err)
	}
	aw.Chunk(1, 0, 0, []byte(stdout), len(stdout))
	aw.Chunk(2, 1, 0, []byte("e\n"), 2)
	if err := aw.Finish(store.Trailer{}); err != nil {
		t.Fatal(err)
	}
	ref, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return st, ref
}

func TestRange(t *testing.T) {
	st, ref := newStore(t, nil)
	tests := []struct {
		name, stream, rng, as string
		hex, text, written    string
		err                   error
	}{
		{name: "hex", stream: "stdout", rng: "0:4", as: "hex", hex: "6f6b201b", written: "0x00000000  6f 6b 20 1b                                       |ok ␛|\n0x00000004\n"},
		{name: "hex offset", stream: "stderr", rng: "1:", as: "hex", hex: "0a", written: "0x00000001  0a                                                |␊|\n0x00000002\n"},
		{name: "text across payload end", stream: "stdout", rng: "20:31", as: "text", text: "af", written: "af"},
		{name: "text inside payload", stream: "stdout", rng: "10:25", as: "text"},
		{name: "too long", stream: "stdout", rng: "0:4097", as: "hex", err: &RangeError{}},
		{name: "past end", stream: "stdout", rng: "36:", as: "text", err: &RangeError{}},
		{name: "no stream", stream: "stdin", as: "hex", err: ErrNoStream},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := Range(st, ref, tc.stream, tc.rng, tc.as, sanitize.Options{})
			var re *RangeError
			switch {
			case tc.err == ErrNoStream && !errors.Is(err, ErrNoStream), tc.err != nil && tc.err != ErrNoStream && !errors.As(err, &re):
				t.Fatalf("err %v, want %T %v", err, tc.err, tc.err)
			case tc.err != nil:
				return
			case err != nil:
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := x.WriteText(&b); err != nil || x.Hex != tc.hex || x.Text != tc.text || b.String() != tc.written ||
				x.Schema != Schema || x.StreamBytes == 0 || x.Ref != ref.String() {
				t.Errorf("got %+v, written %q (%v)", x, b.String(), err)
			}
		})
	}
}

func TestExport(t *testing.T) {
	st, ref := newStore(t, nil)
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	os.WriteFile(p, bytes.Repeat([]byte("x"), 100), 0o644)
	if err := Export(st, ref, "stdout", "3:", p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != stdout[3:] {
		t.Errorf("exported %q, want the range only, the old file truncated", b)
	}
	whole := filepath.Join(dir, "whole")
	if err := Export(st, ref, StreamArtifact, "", whole); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(whole); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("whole artifact: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(whole); !store.Sniff(b) {
		t.Errorf("whole artifact is not one: %q", b[:min(len(b), 16)])
	}
	// Devices are refused before they are opened, but the sinks. (Only
	// devices that a failing test may write harmlessly: as root, the
	// kernel log or a disk would take the bytes.)
	for _, dev := range []string{"/dev/random", "/dev/urandom"} {
		if _, err := os.Stat(dev); err == nil {
			if err := Export(st, ref, "stdout", "", dev); !errors.Is(err, ErrTerminal) {
				t.Errorf("to %s: %v, want ErrTerminal", dev, err)
			}
		}
	}
	if err := Export(st, ref, "stdout", "", "/dev/null"); err != nil {
		t.Errorf("to /dev/null: %v", err)
	}
	if err := Export(st, ref, "stdout", "", "/dev/full"); err == nil || errors.Is(err, ErrTerminal) {
		t.Errorf("to /dev/full: %v, want the write's error", err)
	}
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	if err := Export(st, ref, "stdout", "", pts.Name()); !errors.Is(err, ErrTerminal) {
		t.Errorf("to a terminal: %v, want ErrTerminal", err)
	}
}

// TestExportOntoItsBlob exports an artifact onto the store's own file
// of it, by its path and through a symbolic link, plain and sealed: the
// export opened the destination and truncated it before reading, so the
// evidence was lost (plain: "unexpected EOF", the blob empty) or, sealed,
// replaced by its plaintext. It is refused and the blob is unchanged.
func TestExportOntoItsBlob(t *testing.T) {
	dir := t.TempDir()
	recipient, err := seal.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := seal.ParseRecipients(recipient)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := seal.LoadIdentities(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sl := range []store.Sealer{nil, seal.New(rs, ids)} {
		st, ref := newStore(t, sl)
		blob := filepath.Join(st.Dir(), "raw", ref.Hex())
		link := filepath.Join(dir, "link")
		os.Remove(link)
		if err := os.Symlink(blob, link); err != nil {
			t.Fatal(err)
		}
		before, err := os.ReadFile(blob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{blob, link} {
			for _, stream := range []string{"stdout", StreamArtifact} {
				if err := Export(st, ref, stream, "", p); !errors.Is(err, ErrSameFile) {
					t.Errorf("sealed %v, %s onto %s: %v, want ErrSameFile", sl != nil, stream, p, err)
				}
				if after, _ := os.ReadFile(blob); !bytes.Equal(after, before) {
					t.Fatalf("sealed %v, %s onto %s: the blob changed: %q", sl != nil, stream, p, after[:min(len(after), 16)])
				}
			}
		}
		// Nothing else in the store is written either: another
		// artifact's file, a cleaned text, a new file, or one reached
		// through a link to the store's directory.
		storeLink := filepath.Join(dir, "storelink")
		os.Remove(storeLink)
		if err := os.Symlink(st.Dir(), storeLink); err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(st.Dir(), "raw", strings.Repeat("0", 64))
		os.WriteFile(other, []byte("other"), 0o600)
		for _, p := range []string{other, filepath.Join(st.Dir(), "new"), filepath.Join(storeLink, "raw", "new"), st.Dir()} {
			if err := Export(st, ref, "stdout", "", p); !errors.Is(err, ErrSameFile) {
				t.Errorf("sealed %v, into the store at %s: %v, want ErrSameFile", sl != nil, p, err)
			}
		}
		if b, _ := os.ReadFile(other); string(b) != "other" {
			t.Errorf("another artifact's file became %q", b)
		}
		if _, err := os.Stat(filepath.Join(st.Dir(), "new")); err == nil {
			t.Error("a file was created in the store")
		}
	}
}

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	recipient, err := seal.Keygen(key)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := seal.ParseRecipients(recipient)
	if err != nil {
		t.Fatal(err)
	}
	clear, ref := newStore(t, nil)
	sealed, sref := newStore(t, seal.New(rs, nil))
	if sref != ref {
		t.Fatal("sealing changed the reference")
	}
	raw, err := clear.ReadRaw(ref)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		st   *store.Store
		file string
		want string
	}{
		{"artifact", clear, string(raw), "match: artifact " + ref.String() + " (" + strconv.Itoa(len(raw)) + " bytes)\n"},
		{"stream", clear, "e\n", "match: stderr (2 bytes)\n"},
		{"none", clear, "x", "no match: sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 (1 bytes) is neither the artifact nor any of its streams\n"},
		{"sealed stream", sealed, stdout, "match: stdout (35 bytes; compared by digest, the artifact is encrypted)\n"},
		{"sealed none", sealed, "x", "no match: sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 (1 bytes) is neither the artifact nor any of its streams\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Verify(tc.st, ref, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(tc.file)), nil })
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := v.WriteText(render.NewWriter(&b)); err != nil || b.String() != tc.want {
				t.Errorf("got %q (%v), want %q", b.String(), err, tc.want)
			}
			if v.Match != !strings.HasPrefix(tc.want, "no match") || v.Sealed != (tc.st == sealed) {
				t.Errorf("match %v sealed %v", v.Match, v.Sealed)
			}
		})
	}
	// A stream that the manifest names "artifact" is not the artifact.
	named, nref := newStoreNamed(t, nil, "artifact")
	v, err := Verify(named, nref, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(stdout)), nil })
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if v.WriteText(render.NewWriter(&b)); b.String() != "match: artifact (35 bytes)\n" {
		t.Errorf("a stream named artifact: got %q", b.String())
	}
	// Without its record, a sealed artifact needs the identity.
	os.RemoveAll(filepath.Join(sealed.Dir(), "clean"))
	if _, err := Verify(sealed, ref, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("x")), nil }); !errors.Is(err, store.ErrEncrypted) {
		t.Errorf("sealed without record: %v, want ErrEncrypted", err)
	}
}
