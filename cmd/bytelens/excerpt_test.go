package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExcerptCommand(t *testing.T) {
	withStore(t)
	env := runEnvelope(t, "sh", "-c", `printf 'one\n\033[31mtwo\033[0m\tx\nthree\n'; printf 'warn\n' >&2`)
	ref := env.RawArtifact
	for _, c := range []struct {
		args []string
		code int
		out  string // a substring of stdout, or of stderr for errors
	}{
		{[]string{"--lines", "2:3"}, 0, "     2  [4:19]  two␉x\n      3  [19:25]  three\n"},
		{[]string{"--lines", "2"}, 0, "     2  [4:19]  two␉x\n"},
		{[]string{"--grep", "thr", "-C", "1"}, 0, ">     3  [19:25]  three\n"},
		{[]string{"--grep", "warn", "--stream", "stderr", "--json"}, 0, `"match":true`},
		{[]string{"--lines", "1:1", "--report"}, 0, " stdout lines 1:1: raw [0:4], 4 bytes in, 4 bytes of text out\nno findings in these lines\n"},
		{[]string{"--lines", "1:1", "--report", "--json"}, 0, `"raw_end":4`},
		{[]string{"--lines", "3:2"}, 2, "bad line range"},
		{[]string{"--grep", "(", "--regex"}, 2, "invalid RE2 pattern"},
		{[]string{"--lines", "1", "--grep", "x"}, 2, "give --lines"},
		{[]string{"--lines", "1", "--stream", "stdin"}, 2, "no such stream"},
		{[]string{"--lines", "1", "-C", "2"}, 2, "go with --grep"},
		{[]string{"--lines", "1", "--regex"}, 2, "go with --grep"},
		{[]string{"--lines", "1", "--cursor", "3"}, 2, "go with --grep"},
	} {
		code, out, errs := cli(t, "", append([]string{"excerpt", ref}, c.args...)...)
		got := out
		if c.code != 0 {
			got = errs
		}
		if code != c.code || !strings.Contains(got, c.out) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out, errs, c.code, c.out)
		}
	}
	// Pruned, the cleaned text is gone and excerpt says so.
	if code, _, errs := cli(t, "", "store", "prune", "--clean-older-than", "0s"); code != 0 || errs != "" {
		t.Fatalf("prune: %d %q", code, errs)
	}
	if code, _, errs := cli(t, "", "excerpt", ref, "--lines", "1"); code != 1 || !strings.Contains(errs, "no cleaned text") || !strings.Contains(errs, "view REF reads the raw artifact") {
		t.Errorf("after prune: exit %d, %q", code, errs)
	}
	// A reference the store knows nothing of is not sent to view.
	missing := "restricted:sha256:" + strings.Repeat("0", 64)
	if code, _, errs := cli(t, "", "excerpt", missing, "--lines", "1"); code != 1 || strings.Contains(errs, "view REF") || !strings.Contains(errs, "neither cleaned text nor a raw artifact") {
		t.Errorf("missing record: exit %d, %q", code, errs)
	}
}

func TestKeygenAndEncryptedRun(t *testing.T) {
	dir := withStore(t)
	key := filepath.Join(t.TempDir(), "id")
	code, recipient, errs := cli(t, "", "store", "keygen", key)
	if code != 0 || !strings.HasPrefix(recipient, "age1") {
		t.Fatalf("keygen: %d %q %q", code, recipient, errs)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("identity file: %v", err)
	}
	t.Setenv("BYTELENS_RECIPIENTS", strings.TrimSpace(recipient))
	env := runEnvelope(t, "printf", "hidden")
	raw, _ := os.ReadFile(filepath.Join(dir, "raw", strings.TrimPrefix(env.RawArtifact, "restricted:sha256:")))
	if !strings.HasPrefix(string(raw), "age-encryption.org/v1\n") || strings.Contains(string(raw), "hidden") {
		t.Fatal("raw artifact not encrypted")
	}
	if code, _, errs := cli(t, "", "clean", env.RawArtifact); code != 1 || !strings.Contains(errs, "--identity") {
		t.Errorf("clean without identity: %d %q", code, errs)
	}
	if code, out, errs := cli(t, "", "clean", "--identity", key, env.RawArtifact); code != 0 || !strings.Contains(out, "hidden") {
		t.Errorf("clean with identity: %d %q %q", code, out, errs)
	}
}
