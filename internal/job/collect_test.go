package job

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/command"
)

// opts are the run options of a short command.
var opts = capture.RunOptions{MaxOutput: capture.DefaultMaxOutput, MaxRaw: capture.DefaultMaxRaw, WaitDelay: capture.DefaultWaitDelay}

// TestCollect runs a command with stdin from a file into a private store,
// keeping the envelope too; then with a store that cannot be opened.
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("typed\n"), 0o644)
	st := filepath.Join(dir, "store")
	os.Mkdir(st, 0o700)
	t.Setenv("BYTELENS_STORE", st)
	keyed := 0
	e, _ := env()
	c := Collect{Stdin: in, SaveEnvelope: true, Keys: func(*store.Store) error { keyed++; return nil }}
	envl, err := e.Collect(context.Background(), []string{"sh", "-c", `cat; printf '\033]0;t\007x\n' >&2; exit 3`}, opts, c)
	if err != nil {
		t.Fatal(err)
	}
	if envl.Stdout != "typed\n" || envl.Stderr != "x\n" || envl.ExitCode != 3 || envl.Stdin != in || envl.StoreError != "" || !strings.HasPrefix(envl.RawArtifact, store.RefPrefix) || keyed != 1 {
		t.Errorf("envelope %+v, keys set %d times", envl, keyed)
	}
	ents, _ := os.ReadDir(st)
	if len(ents) == 0 {
		t.Error("store is empty")
	}

	os.Chmod(st, 0o755) // not private: refused, the run goes on
	envl, err = e.Collect(context.Background(), []string{"true"}, opts, Collect{})
	if err != nil || envl.RawArtifact != "" || !strings.Contains(envl.StoreError, "raw artifact not kept: ") {
		t.Errorf("public store: %v, envelope %+v", err, envl)
	}
}

func TestCollectRefuses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "decision.json")
	os.WriteFile(bad, []byte(`{"a": `), 0o644)
	e, _ := env()
	var ue command.UsageError
	if _, err := e.Collect(context.Background(), []string{"true"}, opts, Collect{NoStore: true, Decision: bad}); !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "--decision: ") {
		t.Errorf("bad decision: %v, want a usage error", err)
	}
	if _, err := e.Collect(context.Background(), []string{"true"}, opts, Collect{NoStore: true, Decision: filepath.Join(dir, "none")}); err == nil || errors.As(err, &ue) {
		t.Errorf("missing decision file: %v, want a failure", err)
	}
	if _, err := e.Collect(context.Background(), []string{"true"}, opts, Collect{NoStore: true, Stdin: filepath.Join(dir, "none")}); err == nil || !strings.HasPrefix(err.Error(), "--stdin: ") {
		t.Errorf("missing stdin file: %v", err)
	}
	keyErr := errors.New("no identity")
	t.Setenv("BYTELENS_STORE", dir)
	os.Chmod(dir, 0o700)
	if _, err := e.Collect(context.Background(), []string{"true"}, opts, Collect{Keys: func(*store.Store) error { return keyErr }}); !errors.Is(err, keyErr) {
		t.Errorf("key error: %v", err)
	}
}

func TestWriteEnvelope(t *testing.T) {
	envl := capture.Envelope{Schema: capture.EnvelopeSchema, Stdout: "a\u202eb\n", Stderr: "oops\n"}
	for _, tc := range []struct {
		form string
		want []string
	}{
		{FormJSON, []string{`{"schema":"bytelens.envelope/v2"`, `"stdout":"a\u202eb\n"`}},
		{FormCompact, []string{`{"schema":"bytelens.envelope/v2"`}},
		{FormText, []string{"  | a<U+202E>b\n"}},
		{FormAgent, []string{"a<U+202E>b\n", "[stderr]\noops\n", "[bytelens: "}},
	} {
		var b bytes.Buffer
		if err := WriteEnvelope(&b, &envl, tc.form); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("form %q: %q lacks %q", tc.form, b.String(), w)
			}
		}
		if strings.Contains(b.String(), "\u202e") {
			t.Errorf("form %q wrote U+202E raw: %q", tc.form, b.String())
		}
	}
}
