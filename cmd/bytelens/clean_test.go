package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
)

// runCLI runs bytelens with args and stdin and returns exit code, stdout
// and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// cliCase is one row of a CLI table test: a command line, its stdin, and
// what must come out.
type cliCase struct {
	name     string
	stdin    string
	args     []string
	code     int
	stdout   string   // exact, when not empty
	contains []string // substrings of stdout
	canaries bool     // whether payload canaries may appear (hex, glyphs)
	stderr   string   // substring
}

// run runs the case, checks exit code, stdout and stderr, and returns the
// streams for checks of the caller's own.
func (tc cliCase) run(t *testing.T) (out, errs string) {
	t.Helper()
	code, out, errs := runCLI(t, tc.stdin, tc.args...)
	if code != tc.code {
		t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errs)
	}
	if tc.stdout != "" && out != tc.stdout {
		t.Errorf("stdout %q, want %q", out, tc.stdout)
	}
	for _, c := range tc.contains {
		if !strings.Contains(out, c) {
			t.Errorf("stdout lacks %q:\n%s", c, out)
		}
	}
	if !strings.Contains(errs, tc.stderr) {
		t.Errorf("stderr %q lacks %q", errs, tc.stderr)
	}
	return out, errs
}

func TestCleanAndReport(t *testing.T) {
	dir := t.TempDir()
	hostile := "a\x1b[31mred\x1b[0m \x1b]52;c;U0VDUkVU\x07\x1b]0;TITLECANARY\x07b\r\n"
	in := filepath.Join(dir, "in.bin")
	os.WriteFile(in, []byte(hostile), 0o644)
	repPath := filepath.Join(dir, "rep.json")
	const logs = "../../capture/testdata/logs/"
	truncated := filepath.Join(dir, "truncated.log")
	// Two ConsoleNote preambles whose base64 decodes to fewer than the
	// 4 bytes of a length: malformed notes the loader keeps as text.
	badNotes := filepath.Join(dir, "bad-notes.log")
	os.WriteFile(badNotes, []byte("Started\n\x1b[8mha:AAAA\x1b[0mBuilding \x1b[8mha:AAAA\x1b[0m\n"), 0o644)
	os.WriteFile(truncated, []byte(`{"log":"a\n","stream":"stdout","time":"2026-11-29T11:47:47Z"}`+"\n"+`{"log":"b\u001b]52;c;eA==`), 0o644)

	tests := []cliCase{
		{name: "clean file", args: []string{"clean", in}, stdout: "ared b\n"},
		{name: "clean stdin", stdin: hostile, args: []string{"clean"}, stdout: "ared b\n"},
		{name: "clean dash", stdin: "x\x1b[1my", args: []string{"clean", "-"}, stdout: "xy"},
		{name: "clean policy", stdin: "ab\rcd\n", args: []string{"clean", "--cr", "overwrite"}, stdout: "cd\n"},
		{name: "clean with report", args: []string{"clean", in, "--report", repPath}, stdout: "ared b\n"},
		{name: "report summary", args: []string{"report", in},
			contains: []string{"csi  ", "osc  ", "clipboard", "title", "0x0000000e", "OSC 52 write"}},
		{name: "report json", args: []string{"report", "--json", in}, contains: []string{`"schema": "bytelens.report/v1"`, `"clipboard": 1`}},
		{name: "missing file", args: []string{"clean", filepath.Join(dir, "nope")}, code: 1, stderr: "no such file"},
		{name: "directory", args: []string{"report", dir}, code: 1, stderr: "is a directory"},
		{name: "bad policy", args: []string{"clean", "--cr", "sideways", in}, code: 2, stderr: "invalid cr policy"},
		{name: "unknown flag", args: []string{"clean", "--frobnicate"}, code: 2, stderr: "unknown flag"},
		{name: "too many args", args: []string{"clean", in, in}, code: 2, stderr: "accepts at most 1 arg"},
		{name: "unknown command", args: []string{"clen"}, code: 2, stderr: "unknown command \"clen\" for \"bytelens\"\nhint: did you mean clean?"},
		{name: "unknown subcommand", args: []string{"store", "rm"}, code: 2, stderr: `unknown command "rm" for "bytelens store"`},
		{name: "unknown format", args: []string{"clean", "--format", "wav", in}, code: 2, stderr: "unknown capture format"},
		{name: "timing on raw stdin", stdin: "x", args: []string{"clean", "--timing", in}, code: 2, stderr: "--timing applies to a script(1) typescript"},
		{name: "stream on raw stdin", stdin: "x", args: []string{"report", "--stream", "stderr"}, code: 2, stderr: "raw stdin has one stream, output; --stream stderr names none"},
		{name: "stream on raw stdin hex", stdin: "x", args: []string{"hex", "--stream", "stderr", "-"}, code: 2, stderr: "--stream stderr names none"},
		{name: "timing on raw stdin glyphs", stdin: "x", args: []string{"glyphs", "--timing", in}, code: 2, stderr: "--timing applies"},
		{name: "output stream on raw stdin", stdin: "x\n", args: []string{"clean", "--stream", "output"}, stdout: "x\n"},
		{name: "cast", args: []string{"clean", "../../capture/testdata/samples/asciinema-v2.cast"}, contains: []string{"split:green\n"}, stderr: "lossy"},
		{name: "fail-on clipboard", args: []string{"report", "--fail-on", "clipboard", in}, code: 1, contains: []string{"clipboard  1"},
			stderr: "bytelens: fail-on: stream output: clipboard at offset 0xe (14, OSC 52 write)\n"},
		{name: "fail-on json", args: []string{"report", "--json", "--fail-on", "query,title", in}, code: 1, contains: []string{`"title": 1`},
			stderr: "fail-on: stream output: title at offset 0x1e (30, OSC 0 title)\n"},
		{name: "fail-on not met", args: []string{"report", "--fail-on", "query,unterminated", in}, code: 0},
		{name: "fail-on clean writes the text", args: []string{"clean", "--fail-on", "any", in}, code: 1, stdout: "ared b\n", stderr: "clipboard at offset 0xe"},
		{name: "fail-on unterminated", stdin: "ok\x1b]52;c;AAAA", args: []string{"clean", "--fail-on", "unterminated"}, code: 1, stdout: "ok",
			stderr: "fail-on: stream output: unterminated at offset 0x2 (2, OSC 52 write)"},
		{name: "fail-on jenkins malformed note", args: []string{"report", "--format", "jenkins", "--fail-on", "any", badNotes}, code: 1,
			contains: []string{"malformed recorder annotations the loader kept as text:\n  jenkins_note_malformed  2  first at capture offset 0x8 (8)\n"},
			stderr:   "bytelens: fail-on: stream output: jenkins_note_malformed at capture offset 0x8 (8), first of 2\n"},
		{name: "fail-on jenkins malformed note json", args: []string{"report", "--json", "--format", "jenkins", badNotes},
			contains: []string{`"loader_anomalies": [`, `"class": "jenkins_note_malformed"`, `"count": 2`, `"first_offset": 8`}, stderr: "kept as text"},
		{name: "fail-on nonascii blanks", stdin: "a\u00a0b\u2009c", args: []string{"clean", "--fail-on", "nonascii_blanks"}, code: 1, stdout: "a\u00a0b\u2009c",
			stderr: "bytelens: fail-on: stream output: nonascii_blanks: 2 more without offsets listed\n"},
		{name: "fail-on unknown class", args: []string{"report", "--fail-on", "clipbored", in}, code: 2, stderr: `unknown class "clipbored"`},
		{name: "docker json-file", args: []string{"report", logs + "docker-json.log"}, contains: []string{"docker-json.log (docker-json) [stdout]", "clipboard", "split"}, stderr: "lossy"},
		{name: "docker clean", args: []string{"clean", "--stream", "stdout", logs + "docker-json.log"}, contains: []string{"split: green\n", "clip: <html>&\n"}},
		{name: "kubectl timestamps", args: []string{"clean", logs + "kubectl-timestamps.log"}, stdout: "plain red\ntitle: |\nlink: click|\nbadutf8: \uFFFD\uFFFD|cut: \uFFFD|\nc1csi-utf8: X|c1csi-raw: Y|\nerase:XXXX\nover\nclip: \n2026-11-29T11:47:47Z a line that starts with a time of its own\n"},
		{name: "kubectl report", args: []string{"report", logs + "kubectl-timestamps.log"}, contains: []string{"(timestamped)", "timestamp  8  232 bytes"}},
		{name: "jenkins", args: []string{"clean", logs + "jenkins-console.log"}, contains: []string{"[Pipeline] node\nplain red see here\n"}},
		{name: "journald json", args: []string{"report", logs + "journald.json"}, contains: []string{"(journald-json)", "clipboard"}, stderr: "journalctl --all keeps them"},
		{name: "journald export", args: []string{"clean", logs + "journald.export"}, contains: []string{"plain red and clip\n"}},
		{name: "truncated docker line refused", args: []string{"clean", truncated}, code: 1, stderr: "truncated.log: line 2: not a docker json-file entry (malformed or truncated JSON)"},
		{name: "truncated docker line raw", args: []string{"clean", "--format", "raw", truncated}, contains: []string{`{"log":"b`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs := tc.run(t)
			for _, canary := range []string{"U0VDUkVU", "TITLECANARY"} {
				if strings.Contains(out, canary) || strings.Contains(errs, canary) {
					t.Errorf("payload %q printed", canary)
				}
			}
		})
	}
	var rep map[string]any
	b, _ := os.ReadFile(repPath)
	if err := json.Unmarshal(b, &rep); err != nil || rep["bytes_in"].(float64) != float64(len(hostile)) {
		t.Errorf("--report file: %v %s", err, b)
	}
}

func TestCleanFailsClosed(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake.bin")
	os.WriteFile(fake, []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"all good\\r\\n\"]\nERROR: \x1b[31mreal output\x1b[0m\n"), 0o644)
	// A sniffed recording that loses input is refused, not half cleaned.
	code, out, errs := runCLI(t, "", "clean", fake)
	if code != 1 || out != "" || !strings.Contains(errs, "looks like asciicast-v2") || !strings.Contains(errs, "--format raw") {
		t.Errorf("sniffed lossy cast: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, _ := runCLI(t, "", "clean", "--format", "raw", fake); code != 0 || !strings.Contains(out, "ERROR: real output") {
		t.Errorf("--format raw: exit %d, stdout %q", code, out)
	}
	// A timing file that is missing is named as such.
	plain := filepath.Join(dir, "typescript")
	os.WriteFile(plain, []byte("text\n"), 0o644)
	code, _, errs = runCLI(t, "", "clean", "--timing", filepath.Join(dir, "nope.timing"), plain)
	if code != 1 || !strings.Contains(errs, "open timing") {
		t.Errorf("missing timing: exit %d, stderr %q", code, errs)
	}
	// Bytes swallowed by a string left open are reported on stderr.
	code, out, errs = runCLI(t, "stray \x90 byte\nmore\n", "clean")
	if code != 0 || out != "stray " || !strings.Contains(errs, "swallowed by the DCS at offset 0x6") {
		t.Errorf("swallowed: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, c := range []struct{ in, want string }{
		{"a\x90", "1 byte at the end was swallowed by the DCS at offset 0x1,"},
		// Findings capped before the open string: its offset still shows.
		{strings.Repeat("\x1b[2J", 1100) + "\x9dtitle", "6 bytes up to the end were swallowed from offset 0x1130,"},
	} {
		if code, _, errs := runCLI(t, c.in, "clean"); code != 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%.20q: exit %d, stderr %q, want %q", c.in, code, errs, c.want)
		}
	}
}

// TestTruncatedCastOnce checks that a sniffed cast cut in its last event
// line is refused with its loader warning in the error line only, not
// first as a warning too; a later warning is still printed.
func TestTruncatedCastOnce(t *testing.T) {
	dir := t.TempDir()
	cast := "{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"all good\\r\\n\"]\n[0.2, \"o\", \"cut he"
	tests := []struct {
		name, body, want string
	}{
		{name: "cut", body: cast, want: ""},
		{name: "cut twice", body: cast + "\n[0.3, \"o\", \"x\"]\n[0.4, \"r\", \"wide\"]\n", want: "bytelens: warning: capture line 5: malformed \"r\" event skipped (want \"COLSxROWS\")\n"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, "rec.cast")
		os.WriteFile(path, []byte(tc.body), 0o644)
		want := "bytelens: note: asciicast-v2 capture is lossy: asciicast stores output as JSON strings: the recorder replaced invalid UTF-8 with U+FFFD, so the original bytes are lost\n" +
			tc.want + "bytelens: error: " + path + " looks like asciicast-v2, but loading it skipped or changed input (capture line 3: malformed event line skipped (want a JSON array [time, code, data]))\n" +
			"hint: --format raw cleans the file's bytes as they are; --format asciicast-v2 accepts the asciicast-v2 reading\n"
		for _, cmd := range []string{"clean", "report"} {
			code, out, errs := runCLI(t, "", cmd, path)
			if code != 1 || out != "" || errs != want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr\n%s\nwant\n%s", tc.name, cmd, code, out, errs, want)
			}
		}
	}
}

// TestCleanReportOverInput gives clean --report the file it reads: the
// FILE argument (by its path and through a symbolic link), the --timing
// file, standard input and a REF's raw artifact in the store. The report
// was written over it after cleaning, so the capture was lost (exit 0);
// it is refused before anything is read (exit 2) and the file is kept.
func TestCleanReportOverInput(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.bin")
	capture := "a\x1b[31mred\n"
	link := filepath.Join(dir, "link")
	typescript := filepath.Join(dir, "typescript")
	timing := filepath.Join(dir, "timing")
	os.WriteFile(typescript, []byte("Script started on 2026-01-01 00:00:00+00:00\nhi\n"), 0o644)
	os.WriteFile(timing, []byte("0.1 3\n"), 0o644)
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	env := runEnvelope(t, "--", "echo", "hi")
	ref, _ := store.ParseRef(env.RawArtifact)
	blob := filepath.Join(os.Getenv("BYTELENS_STORE"), "raw", ref.Hex())
	other, _ := store.ParseRef(runEnvelope(t, "--", "echo", "other").RawArtifact)
	otherBlob := filepath.Join(os.Getenv("BYTELENS_STORE"), "raw", other.Hex())
	tests := []struct {
		name  string
		args  []string
		file  string // the input that must be kept
		stdin bool   // in on standard input
	}{
		{"path", []string{"clean", "--report", in, in}, in, false},
		{"link", []string{"clean", "--report", link, in}, in, false},
		{"timing", []string{"clean", "--format", "script-timing", "--timing", timing, "--report", timing, typescript}, timing, false},
		{"stdin", []string{"clean", "--report", in}, in, true},
		{"ref", []string{"clean", "--report", blob, env.RawArtifact}, blob, false},
		{"store", []string{"clean", "--report", otherBlob, in}, otherBlob, false}, // any file in the store
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.WriteFile(in, []byte(capture), 0o644)
			before, _ := os.ReadFile(tc.file)
			var out, errb bytes.Buffer
			var stdin io.Reader = strings.NewReader("")
			if tc.stdin {
				f, err := os.Open(in)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin = f
			}
			code := run(tc.args, stdin, &out, &errb)
			if after, _ := os.ReadFile(tc.file); code != 2 || !bytes.Equal(after, before) || out.Len() != 0 ||
				!strings.Contains(errb.String(), "--report") {
				t.Errorf("exit %d, stdout %q, stderr %q, %s now %q (was %q)", code, out.String(), errb.String(), tc.file, after, before)
			}
		})
	}
}

// TestCleanReportToDevice writes the report to /dev/null while reading
// stdin from it: a device is not replaced by writing, so it is no input
// to protect.
func TestCleanReportToDevice(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errb bytes.Buffer
	if code := run([]string{"clean", "--report", os.DevNull}, f, &out, &errb); code != 0 {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
