package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
)

// cli runs bytelens with args and returns the exit code and both outputs.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// withStore points BYTELENS_STORE at a fresh directory and returns it.
func withStore(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	t.Setenv("BYTELENS_STORE", dir)
	return dir
}

// runEnvelope runs "bytelens run" and decodes the envelope.
func runEnvelope(t *testing.T, args ...string) capture.Envelope {
	t.Helper()
	code, out, errs := cli(t, "", append([]string{"run", "--timeout", "5s"}, args...)...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("envelope is not one line of JSON: %q", out)
	}
	var env capture.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	return env
}

func TestRunEnvelope(t *testing.T) {
	withStore(t)
	env := runEnvelope(t, "--", "sh", "-c", `printf '\033]0;title\007hi \033[1mthere\033[0m\n'; printf 'oops\n' >&2; exit 4`)
	if env.Schema != "bytelens.envelope/v2" || env.ExitCode != 4 || env.Stdout != "hi there\n" || env.Stderr != "oops\n" {
		t.Errorf("envelope: %+v", env)
	}
	if !strings.HasPrefix(env.RawArtifact, "restricted:sha256:") || len(env.RawArtifact) != 18+64 {
		t.Errorf("raw_artifact %q", env.RawArtifact)
	}
	if env.Argv[0] != "sh" || env.Stdin != os.DevNull {
		t.Errorf("argv %q stdin %q", env.Argv, env.Stdin)
	}
}

func TestRunExitCodes(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(badJSON, []byte("{nope"), 0o600)
	escDir := filepath.Join(dir, "d\x1b[31mx")
	os.Mkdir(escDir, 0o700)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"not found", []string{"run", "--", "bytelens-no-such-command"}, 1, "executable file not found"},
		{"no command", []string{"run"}, 2, "requires at least 1 arg"},
		{"bad size", []string{"run", "--max-output", "lots", "--", "true"}, 2, "number of bytes"},
		{"zero size", []string{"run", "--max-raw", "0", "--", "true"}, 2, "must be positive"},
		{"bad decision", []string{"run", "--decision", badJSON, "--", "true"}, 2, "not valid JSON"},
		{"missing decision", []string{"run", "--decision", filepath.Join(dir, "none"), "--", "true"}, 1, "no such file"},
		{"missing stdin", []string{"run", "--stdin", filepath.Join(dir, "none"), "--", "true"}, 1, "no such file"},
		{"save without store", []string{"run", "--no-store", "--save-envelope", "--", "true"}, 2, "needs the store"},
		{"negative timeout", []string{"run", "--timeout", "-1s", "--", "true"}, 2, "--timeout -1s: a duration must not be negative (0: no limit)"},
		{"negative kill-grace", []string{"run", "--kill-grace", "-5ms", "--", "true"}, 2, "--kill-grace -5ms: a duration must not be negative"},
		{"negative wait-delay", []string{"run", "--wait-delay", "-1m", "--", "true"}, 2, "--wait-delay -1m0s: a duration must not be negative"},
		// Refused before the command runs: it is not looked up.
		{"stdin directory", []string{"run", "--stdin", dir, "--", "bytelens-no-such-command"}, 1, "--stdin: " + dir + " is a directory, not a file"},
		{"stdin directory escaped", []string{"run", "--stdin", escDir, "--", "true"}, 1, "d\u241b[31mx is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.stderr) {
				t.Errorf("exit %d stderr %q; want %d and %q", code, errs, tt.code, tt.stderr)
			}
			if strings.Count(errs, "bytelens: error:") != 1 || out != "" {
				t.Errorf("want one error line and no stdout; stdout %q stderr %q", out, errs)
			}
		})
	}
	// The command's own failure is in the envelope, not bytelens' exit code.
	env := runEnvelope(t, "--", "sh", "-c", "exit 9")
	if env.ExitCode != 9 {
		t.Errorf("exit_code %d, want 9", env.ExitCode)
	}
}

func TestRunFlags(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.WriteFile(in, []byte("line\n"), 0o600)
	dec := filepath.Join(dir, "decision.json")
	os.WriteFile(dec, []byte(`{"approved": true, "by": "ci"}`), 0o600)
	env := runEnvelope(t, "--stdin", in, "--decision", dec, "--max-output", "1K", "--no-store", "--", "sh", "-c", "cat; yes x | head -c 5000")
	if !strings.HasPrefix(env.Stdout, "line\nx\n") || len(env.Stdout) != 511 || !env.Streams.Stdout.Truncated ||
		env.StdoutTail != strings.Repeat("x\n", 256) || env.StdoutOmitted == nil || env.StdoutOmitted.Excerpt != "" {
		t.Errorf("stdout head %d bytes, tail %d, truncated %v, omitted %+v", len(env.Stdout), len(env.StdoutTail), env.Streams.Stdout.Truncated, env.StdoutOmitted)
	}
	if env.Stdin != in || string(env.Decision) != `{"approved":true,"by":"ci"}` || env.RawArtifact != "" {
		t.Errorf("stdin %q decision %s raw %q", env.Stdin, env.Decision, env.RawArtifact)
	}
	// Flags after the command belong to the command.
	env = runEnvelope(t, "--no-store", "echo", "--max-output", "x")
	if env.Stdout != "--max-output x\n" {
		t.Errorf("stdout %q", env.Stdout)
	}
	// Timeouts kill and say so.
	env = runEnvelope(t, "--no-store", "--timeout", "200ms", "--wait-delay", "100ms", "--", "sh", "-c", "sleep 5 & sleep 5")
	if !env.TimedOut || env.Signal != "SIGKILL" {
		t.Errorf("timed_out %v signal %q", env.TimedOut, env.Signal)
	}
}

func TestRunText(t *testing.T) {
	withStore(t)
	code, out, errs := cli(t, "", "run", "--text", "--", "sh", "-c", `printf 'exit_code: 0\n\033[31mred\n'; exit 2`)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	for _, want := range []string{"\nexit_code:    2\n", "  | exit_code: 0\n  | red\n", "raw_artifact: restricted:sha256:",
		"stdout_report: removed csi 1\n", "stderr_report: nothing removed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("ESC in text output: %q", out)
	}
}

// TestRunCleansMetadata is the user's report: run in a directory whose name
// holds an OSC 0, with arguments holding ESC and U+202E. The envelope, the
// text form and store ls --json hold the values cleaned; the artifact's
// manifest keeps them exactly.
func TestRunCleansMetadata(t *testing.T) {
	withStore(t)
	dir := filepath.Join(t.TempDir(), "cwd\x1b]0;CWDTITLE\x07dir")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	argv := []string{"sh", "-c", "printf x", "\x1b[2J\x1b]52;c;U0VDUkVU\x07y", "\u202eevil"}
	code, out, errs := cli(t, "", append([]string{"run", "--timeout", "5s", "--"}, argv...)...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	for _, bad := range []string{"CWDTITLE", `\u001b`, `\u0007`, "\u202e", "U0VDUkVU"} {
		if strings.Contains(out, bad) {
			t.Errorf("envelope holds %q: %s", bad, out)
		}
	}
	var env capture.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	wantCwd := filepath.Join(filepath.Dir(dir), "cwddir")
	if env.Cwd != wantCwd || strings.Join(env.Argv, "|") != "sh|-c|printf x|y|evil" || env.Command != "sh -c 'printf x' y evil" || env.Stdout != "x" {
		t.Errorf("cwd %q argv %q command %q", env.Cwd, env.Argv, env.Command)
	}
	if want := []string{"command", "argv[3]", "argv[4]", "cwd"}; !slices.Equal(env.MetadataCleaned, want) {
		t.Errorf("metadata_cleaned %q, want %q", env.MetadataCleaned, want)
	}

	// The restricted manifest keeps the exact values.
	st, err := openStore()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := store.ParseRef(env.RawArtifact)
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.Load(ref)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Manifest.ExactArgv(), argv) || a.Manifest.ExactCwd() != dir || a.Manifest.Cwd != dir {
		t.Errorf("manifest argv %q cwd %q", a.Manifest.ExactArgv(), a.Manifest.ExactCwd())
	}

	// store ls --json cleans the manifest's argv too.
	code, out, _ = cli(t, "", "store", "ls", "--json")
	if code != 0 || strings.Contains(out, `\u001b`) || strings.Contains(out, "U0VDUkVU") || strings.Contains(out, "\u202e") ||
		!strings.Contains(out, `"argv":["sh","-c","printf x","y","evil"],"metadata_cleaned":["argv[3]","argv[4]"]`) {
		t.Errorf("store ls --json: exit %d %s", code, out)
	}

	// The text form shows them cleaned, and says so.
	code, out, _ = cli(t, "", append([]string{"run", "--text", "--no-store", "--"}, argv...)...)
	if code != 0 || !strings.Contains(out, "cwd:          "+wantCwd+"\n") || !strings.Contains(out, "cleaned:      command, argv[3], argv[4], cwd (") ||
		strings.ContainsAny(out, "\x1b\u202e") || strings.Contains(out, "CWDTITLE") {
		t.Errorf("text form: exit %d\n%s", code, out)
	}
}

func TestRunDecisionControls(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	for name, content := range map[string]string{
		"escaped ESC": `{"by":"alice\u001b]0;x\u0007"}`,
		"raw ESC":     "{\"by\":\"alice\x1b[2J\"}",
		"key":         `{"b\u0000y":"alice"}`,
		"bidi":        `{"by":["\u202eecila"]}`,
		"invalid":     "{\"by\":\"\xff\"}",
		"surrogate":   `{"by":"alice\ud800"}`,
		"low alone":   `["\udc00x"]`,
	} {
		code, out, errs := cli(t, "", "run", "--decision", write(name, content), "--", "true")
		// A raw control in a JSON string is not JSON at all.
		want := "control or format characters"
		switch name {
		case "raw ESC":
			want = "not valid JSON"
		case "invalid":
			want = "not valid UTF-8"
		case "surrogate", "low alone":
			want = "lone UTF-16 surrogate"
		}
		if code != 2 || out != "" || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d stdout %q stderr %q", name, code, out, errs)
		}
		if strings.ContainsAny(errs, "\x1b\x00\u202e") || strings.Contains(errs, "\xff") {
			t.Errorf("%s: the error repeats the characters: %q", name, errs)
		}
	}
	// TAB and LF are text, as in cleaned output.
	env := runEnvelope(t, "--no-store", "--decision", write("ok", `{"reason":"line 1\nline 2\tend"}`), "--", "true")
	if string(env.Decision) != `{"reason":"line 1\nline 2\tend"}` {
		t.Errorf("decision %s", env.Decision)
	}
	// A surrogate pair is one character.
	env = runEnvelope(t, "--no-store", "--decision", write("pair", `{"by":"\ud83d\ude00"}`), "--", "true")
	if string(env.Decision) != `{"by":"\ud83d\ude00"}` {
		t.Errorf("decision %s", env.Decision)
	}
}

// TestRunStoreFailure checks that a store that cannot be used costs the
// raw artifact (or the saved envelope) only: the envelope is printed with
// store_error, and run exits 0.
func TestRunStoreFailure(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	t.Setenv("BYTELENS_STORE", link)
	env := runEnvelope(t, "--", "echo", "kept")
	if env.Stdout != "kept\n" || env.RawArtifact != "" || !strings.Contains(env.StoreError, "symbolic link") {
		t.Errorf("symlinked store: stdout %q raw_artifact %q store_error %q", env.Stdout, env.RawArtifact, env.StoreError)
	}
	// A read-only tmp/ (immutable, which binds root too): no raw
	// artifact. A read-only envelopes/: the raw artifact is committed,
	// then the envelope cannot be saved, and its reference is still
	// reported.
	st := withStore(t)
	if _, err := store.Open(st); err != nil {
		t.Fatal(err)
	}
	readOnly(t, filepath.Join(st, "tmp"))
	env = runEnvelope(t, "--save-envelope", "--", "echo", "kept")
	if env.Stdout != "kept\n" || env.RawArtifact != "" || !strings.HasPrefix(env.StoreError, "raw artifact not kept: ") {
		t.Errorf("read-only tmp: stdout %q raw_artifact %q store_error %q", env.Stdout, env.RawArtifact, env.StoreError)
	}
	st = withStore(t)
	if _, err := store.Open(st); err != nil {
		t.Fatal(err)
	}
	readOnly(t, filepath.Join(st, "envelopes"))
	env = runEnvelope(t, "--save-envelope", "--", "echo", "kept")
	if env.Stdout != "kept\n" || env.RawArtifact == "" || !strings.HasPrefix(env.StoreError, "envelope not kept: ") {
		t.Errorf("read-only envelopes: stdout %q raw_artifact %q store_error %q", env.Stdout, env.RawArtifact, env.StoreError)
	}
}

// readOnly makes dir read-only for everyone, root included: mode 0500,
// and immutable (chattr +i) when the file system allows it.
func readOnly(t *testing.T, dir string) {
	t.Helper()
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	if os.Geteuid() != 0 {
		return
	}
	if err := exec.Command("chattr", "+i", dir).Run(); err != nil {
		t.Skipf("cannot make %s read-only as root: %v", dir, err)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
}

func TestRunCompactAndExitCode(t *testing.T) {
	withStore(t)
	for _, tc := range []struct {
		script string
		code   int
	}{{"exit 0", 0}, {"exit 7", 7}, {"kill -9 $$", 137}} {
		code, out, errs := cli(t, "", "run", "--compact", "--exit-code", "--", "sh", "-c", "echo hi; "+tc.script)
		if code != tc.code || errs != "" {
			t.Errorf("%s: exit %d, stderr %q; want %d", tc.script, code, errs, tc.code)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		if m["stdout"] != "hi\n" || m["exit_code"] == nil || m["stderr"] != nil || m["chunks"] != nil || m["timed_out"] != nil {
			t.Errorf("%s: compact envelope %s", tc.script, out)
		}
		if rest := strings.Replace(out, `"exit_code":0,`, "", 1); strings.Contains(rest, ":0,") || strings.Contains(rest, ":false") || strings.Contains(rest, `:""`) {
			t.Errorf("%s: compact envelope keeps zeros: %s", tc.script, out)
		}
	}
	if code, _, _ := cli(t, "", "run", "--compact", "--text", "--", "true"); code != 2 {
		t.Errorf("--compact --text: exit %d, want 2", code)
	}
	for _, other := range []string{"--text", "--compact"} {
		if code, _, errs := cli(t, "", "run", "--agent", other, "--", "true"); code != 2 || !strings.Contains(errs, "--agent") {
			t.Errorf("--agent %s: exit %d, %q; want 2", other, code, errs)
		}
	}
}

// TestRunAgentHeadTail: run --agent shows the head and the tail of a long
// output, with the omitted lines and the excerpt call between them.
func TestRunAgentHeadTail(t *testing.T) {
	withStore(t)
	code, out, errs := cli(t, "", "run", "--agent", "--exit-code", "--max-output", "100", "--", "seq", "1", "1000")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	head, marker, tail := strings.Join(lines[:19], "\n"), lines[19], strings.Join(lines[20:len(lines)-1], "\n")
	if head != "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19" || !strings.HasSuffix(tail, "\n999\n1000") ||
		!regexp.MustCompile(`^\[bytelens: stdout lines 20-98\d omitted \(\d+ bytes\); bytelens excerpt restricted:sha256:[0-9a-f]{64} --lines 20:98\d --stream stdout\]$`).MatchString(marker) {
		t.Errorf("agent text:\n%s", out)
	}
}
