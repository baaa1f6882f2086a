package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cleanTemp opens a store in a temporary directory and returns it, a
// reference and a new derived-file directory to commit for it.
func cleanTemp(t *testing.T) (*Store, Ref, string) {
	t.Helper()
	st, err := Open(filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	var r Ref
	r[0] = 1
	tmp, err := st.NewCleanTemp()
	if err != nil {
		t.Fatal(err)
	}
	return st, r, tmp
}

// A derived-file directory committed for a reference is opened by name,
// pruned on its own schedule, and never opened through a path.
func TestCleanDirs(t *testing.T) {
	st, r, tmp := cleanTemp(t)
	os.WriteFile(filepath.Join(tmp, "meta.json"), []byte("{}"), 0o600)
	if err := st.CommitClean(tmp, r); err != nil {
		t.Fatal(err)
	}
	f, err := st.OpenClean(r, "meta.json")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := st.OpenClean(r, "../raw"); err == nil {
		t.Error("opened a path")
	}
	if es, _ := st.PruneClean(time.Now().Add(-time.Hour), false); len(es) != 0 {
		t.Errorf("pruned a new directory: %v", es)
	}
	es, err := st.PruneClean(time.Now().Add(time.Hour), true)
	if err != nil || len(es) != 1 || es[0].Kind != KindClean || es[0].Ref != r {
		t.Fatalf("dry run: %v %v", es, err)
	}
	if _, err := st.OpenClean(r, "meta.json"); err != nil {
		t.Fatal("dry run removed it")
	}
	// Prune takes the derived files on their own schedule: not with raw
	// artifacts, envelopes or temporary files.
	if es, _ := st.Prune(PruneOptions{RawBefore: time.Now().Add(time.Hour), EnvelopesBefore: time.Now().Add(time.Hour), TempBefore: time.Now()}); len(es) != 0 {
		t.Errorf("pruned without CleanBefore: %v", es)
	}
	if es, err := st.Prune(PruneOptions{CleanBefore: time.Now().Add(time.Hour)}); err != nil || len(es) != 1 || es[0].Kind != KindClean {
		t.Errorf("Prune CleanBefore: %v %v", es, err)
	}
	if _, err := st.OpenClean(r, "meta.json"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after prune: %v", err)
	}
}
