package seal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/sanitize"
)

// write stores an artifact whose stdout is out through st.
func write(t *testing.T, st *store.Store, out string) store.Ref {
	t.Helper()
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	aw, err := store.NewArtifactWriter(w, store.Manifest{Argv: []string{"x"}, Started: time.Unix(0, 0),
		Streams: []store.StreamDesc{{ID: 1, Name: "stdout"}}})
	if err != nil {
		t.Fatal(err)
	}
	aw.Chunk(1, 0, 0, []byte(out), len(out))
	if err := aw.Finish(store.Trailer{}); err != nil {
		t.Fatal(err)
	}
	ref, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestSealedStore(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.txt")
	recipient, err := Keygen(key)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(key); fi.Mode().Perm() != 0o600 {
		t.Fatalf("identity mode %v", fi.Mode().Perm())
	}
	if _, err := Keygen(key); err == nil {
		t.Fatal("keygen overwrote an identity")
	}
	rs, err := ParseRecipients(recipient)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := LoadIdentities(key)
	if err != nil {
		t.Fatal(err)
	}
	out := "secret \x1b]52;c;c2VjcmV0\x07 text\n"

	// The collecting side holds the recipients only.
	st, _ := store.Open(filepath.Join(dir, "store"))
	st.SetSealer(New(rs, nil))
	st.SetSidecar(excerpt.Sidecar(sanitize.Options{}))
	ref := write(t, st, out)
	file, _ := os.ReadFile(filepath.Join(st.Dir(), "raw", ref.Hex()))
	if !bytes.HasPrefix(file, []byte(store.SealedMagic)) || bytes.Contains(file, []byte("secret")) || !st.IsSealed(ref) {
		t.Fatal("raw artifact stored in the clear")
	}
	if _, err := st.Load(ref); !errors.Is(err, store.ErrEncrypted) {
		t.Fatalf("load without identity: %v", err)
	}
	// The cleaned text stays readable, and the same bytes get the same
	// reference (dedup works on the plaintext digest).
	rec, err := excerpt.Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	if ex, _ := rec.Lines("stdout", 1, 1); ex.Lines[0].Text != "secret  text" {
		t.Fatalf("cleaned text %q", ex.Lines[0].Text)
	}
	if again := write(t, st, out); again != ref {
		t.Fatal("same plaintext, different reference")
	}

	// Another identity cannot read it; the investigator's can.
	other, _ := age.GenerateX25519Identity()
	st.SetSealer(New(nil, []age.Identity{other}))
	if _, err := st.Load(ref); !errors.Is(err, store.ErrEncrypted) || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("load with another identity: %v", err)
	}
	st.SetSealer(New(nil, ids))
	a, err := st.Load(ref)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Stream("stdout").Data) != out {
		t.Fatalf("decrypted %q", a.Stream("stdout").Data)
	}
	// No plaintext is left in the store's tmp directory.
	if es, _ := os.ReadDir(filepath.Join(st.Dir(), "tmp")); len(es) != 0 {
		t.Fatalf("tmp holds %d files", len(es))
	}
}

func TestParseRecipients(t *testing.T) {
	id1, _ := age.GenerateX25519Identity()
	id2, _ := age.GenerateX25519Identity()
	list := id1.Recipient().String() + "," + id2.Recipient().String()
	if rs, err := ParseRecipients(list); err != nil || len(rs) != 2 {
		t.Fatalf("list: %v", err)
	}
	f := filepath.Join(t.TempDir(), "recipients")
	os.WriteFile(f, []byte("# team\n"+id1.Recipient().String()+"\n"), 0o600)
	if rs, err := ParseRecipients(f); err != nil || len(rs) != 1 {
		t.Fatalf("file: %v", err)
	}
	for _, bad := range []string{"age1nope", "/nonexistent"} {
		if _, err := ParseRecipients(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
