package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

func TestStoreLsAndPrune(t *testing.T) {
	dir := withStore(t)
	if code, out, _ := cli(t, "", "store", "ls"); code != 0 || out != "REFERENCE  KIND  BYTES  TIME  COMMAND\n" {
		t.Errorf("empty ls: exit %d %q", code, out)
	}
	kept := runEnvelope(t, "--save-envelope", "--", "sh", "-c", "echo one")
	old := runEnvelope(t, "--save-envelope", "--", "printf", "two\x1b]0;t\x07")
	hexOld := strings.TrimPrefix(old.RawArtifact, "restricted:sha256:")
	ago := time.Now().Add(-72 * time.Hour)
	for _, p := range []string{filepath.Join(dir, "raw", hexOld), filepath.Join(dir, "envelopes", hexOld+".json")} {
		if err := os.Chtimes(p, ago, ago); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ := cli(t, "", "store", "ls")
	if code != 0 || strings.Count(out, "\n") != 5 {
		t.Fatalf("ls: exit %d\n%s", code, out)
	}
	// Oldest first; the command is shown escaped.
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[1], old.RawArtifact) || !strings.Contains(out, `printf $'two\x1B]0;t\x07'`) {
		t.Errorf("ls order or quoting:\n%s", out)
	}
	if !strings.Contains(out, kept.RawArtifact+"  envelope") || !strings.Contains(out, "sh -c 'echo one'") {
		t.Errorf("ls lacks the envelope or command:\n%s", out)
	}
	// The stored envelope is the printed one.
	b, _ := os.ReadFile(filepath.Join(dir, "envelopes", hexOld+".json"))
	var env struct{ Stdout, RawArtifact string }
	json.Unmarshal(b, &env)
	if env.Stdout != "two" {
		t.Errorf("stored envelope stdout %q", env.Stdout)
	}
	code, out, _ = cli(t, "", "store", "ls", "--json")
	if code != 0 || strings.Count(out, `"kind":"raw"`) != 2 || strings.Count(out, `"kind":"envelope"`) != 2 {
		t.Errorf("ls --json:\n%s", out)
	}

	if code, _, errs := cli(t, "", "store", "prune"); code != 2 || !strings.Contains(errs, "--raw-older-than") {
		t.Errorf("prune without limits: exit %d %q", code, errs)
	}
	if code, _, errs := cli(t, "", "store", "prune", "--raw-older-than", "soon"); code != 2 {
		t.Errorf("prune bad age: exit %d %q", code, errs)
	}
	// Raw artifacts older than 2 days go, envelopes stay.
	code, out, _ = cli(t, "", "store", "prune", "--raw-older-than", "2d")
	if code != 0 || out != "removed raw "+old.RawArtifact+"\n" {
		t.Errorf("prune raw: exit %d %q", code, out)
	}
	if code, _, errs := cli(t, "", "extract", old.RawArtifact); code != 1 || !strings.Contains(errs, "not in store") {
		t.Errorf("pruned artifact still readable: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "envelopes", hexOld+".json")); err != nil {
		t.Errorf("envelope pruned with its raw artifact: %v", err)
	}
	code, out, _ = cli(t, "", "store", "prune", "--envelopes-older-than", "48h", "--dry-run")
	if code != 0 || out != "would remove envelope "+old.RawArtifact+"\n" {
		t.Errorf("dry run: %q", out)
	}
	code, out, _ = cli(t, "", "store", "prune", "--envelopes-older-than", "48h")
	if code != 0 || out != "removed envelope "+old.RawArtifact+"\n" {
		t.Errorf("prune envelopes: %q", out)
	}
	code, out, _ = cli(t, "", "store", "ls")
	if code != 0 || strings.Count(out, "\n") != 3 || strings.Contains(out, old.RawArtifact) {
		t.Errorf("after prune:\n%s", out)
	}
}

func TestStorePermissions(t *testing.T) {
	dir := withStore(t)
	runEnvelope(t, "--save-envelope", "--", "true")
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A store directory others can read is refused, not repaired.
	open := t.TempDir()
	os.Chmod(open, 0o755)
	t.Setenv("BYTELENS_STORE", open)
	code, _, errs := cli(t, "", "store", "ls")
	if code != 1 || !strings.Contains(errs, "not private") || !strings.Contains(errs, "hint:") {
		t.Errorf("open store dir: exit %d %q", code, errs)
	}
	// run still runs, and its envelope says why nothing was kept.
	if env := runEnvelope(t, "--", "true"); env.RawArtifact != "" || !strings.Contains(env.StoreError, "not private") {
		t.Errorf("run with an open store dir: raw_artifact %q store_error %q", env.RawArtifact, env.StoreError)
	}
	if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o755 {
		t.Errorf("the store dir was repaired to %04o", fi.Mode().Perm())
	}
}

// TestStoreTempFiles checks that a temp file left by a run that died is
// listed by store ls and removed by store prune, and that one being
// written is listed as such and kept.
func TestStoreTempFiles(t *testing.T) {
	dir := withStore(t)
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tmp", "raw-1.tmp"), []byte("partial"), 0o600)
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	_, out, _ := cli(t, "", "store", "ls")
	if !regexp.MustCompile(`\ntmp/raw-1\.tmp +temp +7 `).MatchString(out) || !strings.Contains(out, "left by a run that died") || !strings.Contains(out, "being written by a run") {
		t.Errorf("store ls:\n%s", out)
	}
	code, out, errs := cli(t, "", "store", "prune", "--raw-older-than", "30d")
	if code != 0 || out != "removed temp tmp/raw-1.tmp\n" {
		t.Errorf("store prune: exit %d stdout %q stderr %q", code, out, errs)
	}
	if es, _ := st.List(); len(es) != 1 || !es[0].InProgress {
		t.Errorf("after prune: %+v, want the file in progress only", es)
	}
}
