package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/creack/pty"
)

const diffCorpusDir = "../../testdata/corpus/"

// checkDiffGolden compares got with testdata/diff/name.golden.
func checkDiffGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "diff", name+".golden"), []byte(got))
}

// checkDiffSafe fails if out holds anything but graphic runes, spaces and LF,
// or a tell-tale payload.
func checkDiffSafe(t *testing.T, out string, canaries ...string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != ' ' && !unicode.IsGraphic(r) {
			t.Errorf("output holds U+%04X:\n%q", r, out)
			break
		}
	}
	for _, c := range canaries {
		if strings.Contains(out, c) {
			t.Errorf("payload %q printed", c)
		}
	}
}

func TestDiffGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"captures", []string{"diff", diffCorpusDir + "csi-device-queries.bin", diffCorpusDir + "csi-decrqm-xtversion.bin"}, 1},
		{"policy", []string{"diff", diffCorpusDir + "cr-progress.bin", "--b-policy", "cr=overwrite"}, 1},
		{"policy-json", []string{"diff", "--json", diffCorpusDir + "cr-progress.bin", "--b-policy", "cr=overwrite"}, 1},
		{"format-keep", []string{"diff", diffCorpusDir + "bidi-trojan-source.bin", "--b-policy", "format-chars=keep"}, 1},
		{"equal", []string{"diff", diffCorpusDir + "cr-progress.bin", diffCorpusDir + "cr-progress.bin"}, 0},
		{"equal-policies", []string{"diff", "--all", diffCorpusDir + "sgr-basic.bin", "--a-policy", "cr=drop", "--b-policy", "cr=overwrite"}, 0},
		{"reports", []string{"diff", diffCorpusDir + "osc52-write.report.json", diffCorpusDir + "osc52-read.report.json"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if errs != "" {
				t.Errorf("stderr %q", errs)
			}
			checkDiffSafe(t, out)
			checkDiffGolden(t, tc.name, out)
		})
	}
}

// TestDiffRows checks that the table reads without colour: every row
// starts with an ASCII marker, "!=" exactly when the diff column is not 0.
func TestDiffRows(t *testing.T) {
	code, out, _ := runCLI(t, "", "diff", "--all", diffCorpusDir+"csi-device-queries.bin", diffCorpusDir+"csi-decrqm-xtversion.bin")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var rows int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 5 || f[0] != "!=" && f[0] != "=" {
			continue
		}
		rows++
		if differs := f[4] != "0"; differs != (f[0] == "!=") || differs != (f[2] != f[3]) {
			t.Errorf("row %q: marker and numbers disagree", line)
		}
		if f[4] != "0" && f[4][0] != '+' && f[4][0] != '-' {
			t.Errorf("row %q: difference without sign", line)
		}
	}
	// totals, removed, kept, anomalies, flags, and 8 CSI keys.
	if want := 4 + len(sanitize.Counts{}.ByName()) + len(sanitize.Kept{}.ByName()) +
		len(sanitize.Anomalies{}.ByName()) + len(sanitize.Flags{}.ByName()) + 8; rows != want {
		t.Errorf("%d rows with --all, want %d:\n%s", rows, want, out)
	}
	for _, r := range out {
		if r > 0x7e && r != '\n' {
			t.Errorf("non-ASCII %q in the table of ASCII inputs", r)
		}
	}
}

func TestDiffCorpus(t *testing.T) {
	dir := t.TempDir()
	cp := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"cr-progress.bin", "cr-progress-drop.bin", "cr-progress-drop.policy",
		"cr-progress-drop.clean.txt", "sgr-basic.bin", "bidi-trojan-source.bin", "bidi-trojan-source.report.json", "gen.go"} {
		cp(diffCorpusDir+name, name)
	}
	// A cast is taken by sniffing; a policy file sets its base policy.
	cp("../../capture/testdata/samples/asciinema-v2.cast", "progress.cast")
	os.WriteFile(filepath.Join(dir, "progress.policy"), []byte("cr=drop\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("plain text is not a capture\r\n"), 0o644)

	code, out, errs := runCLI(t, "", "diff", "--corpus", dir, "--b-policy", "cr=overwrite,format-chars=keep")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (stderr %q)", code, errs)
	}
	checkDiffSafe(t, out)
	checkDiffGolden(t, "corpus", out)

	// --all lists the equal cases too; JSON holds the diffs.
	code, out, _ = runCLI(t, "", "diff", "--corpus", dir, "--all", "--b-policy", "cr=overwrite")
	if code != 1 || !strings.Contains(out, "sgr-basic") || !strings.Contains(out, "equal") {
		t.Errorf("--all: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "diff", "--corpus", dir, "--json", "--b-policy", "cr=overwrite")
	var js capture.CorpusDiff
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 1 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if js.Schema != sanitize.DiffSchema || js.Total != 5 || js.Changed != len(js.Cases) || js.Changed == 0 || js.Cases[0].Diff == nil {
		t.Errorf("--json: %+v", js)
	}

	// Same policy on both sides: nothing changed.
	code, out, _ = runCLI(t, "", "diff", "--corpus", dir)
	if code != 0 || out != "5 cases, 0 changed\n" {
		t.Errorf("no policy change: exit %d\n%s", code, out)
	}

	// A case that cannot be read is trouble (exit 2); the others are still listed.
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "broken.bin"))
	code, out, errs = runCLI(t, "", "diff", "--corpus", dir, "--b-policy", "cr=overwrite")
	if code != 2 || !strings.Contains(out, "6 cases, 3 changed, 1 failed") || !strings.Contains(errs, "broken") {
		t.Errorf("broken case: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

func TestDiffInputs(t *testing.T) {
	dir := t.TempDir()
	hostile := "a\x1b]52;c;U0VDUkVU\x07\x1b]0;TITLECANARY\x07b\r\nc\rd\n"
	in := filepath.Join(dir, "in.bin")
	os.WriteFile(in, []byte(hostile), 0o644)
	// A file name is untrusted too.
	odd := filepath.Join(dir, "odd\x1b[31m\u202e.bin")
	os.WriteFile(odd, []byte("a\r\nb\n"), 0o644)

	rep := filepath.Join(dir, "in.report.json")
	if code, _, errs := runCLI(t, "", "report", "--json", in); code != 0 {
		t.Fatal(errs)
	} else {
		_, js, _ := runCLI(t, "", "report", "--json", in)
		os.WriteFile(rep, []byte(js), 0o644)
	}
	_, one, _ := runCLI(t, "", "report", "--json", in)
	var r sanitize.Report
	json.Unmarshal([]byte(one), &r)
	streamsJSON, _ := json.Marshal([]capture.StreamReport{{Stream: render.LineString("stdout"), Report: sanitize.Report{Schema: sanitize.Schema}}, {Stream: render.LineString("stderr"), Report: r}})
	arr := filepath.Join(dir, "streams.json")
	os.WriteFile(arr, streamsJSON, 0o644)
	v2 := filepath.Join(dir, "v2.json")
	os.WriteFile(v2, []byte(`{"schema": "bytelens.report/v2"}`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "bytelens.report/v1", "bytes_in": "many"}`), 0o644)
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"schema": "something/else", "x": 1}`), 0o644)

	// A restricted reference, as run prints it, names a capture as a
	// file does.
	withStore(t)
	ref := runEnvelope(t, "--stdin", in, "--", "cat").RawArtifact
	missing := store.RefPrefix + strings.Repeat("0", 64)

	tests := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		contains []string
		stderr   string
	}{
		{name: "restricted reference vs its file", args: []string{"diff", ref, in}, contains: []string{"A: " + ref + " (capture bytelens-artifact, stream stdout)", "A and B are equal"}},
		{name: "restricted reference, two policies", args: []string{"diff", ref, "--b-policy", "cr=drop"}, code: 1, contains: []string{"B: " + ref + " (capture bytelens-artifact, stream stdout)", "policy cr=drop"}},
		{name: "restricted reference, other stream", args: []string{"diff", "--stream", "stderr", ref, ref}, contains: []string{"stream stderr", "A and B are equal"}},
		{name: "malformed reference", args: []string{"diff", store.RefPrefix + "abc", in}, code: 2, stderr: "invalid reference"},
		{name: "reference not in store", args: []string{"diff", in, missing}, code: 2, stderr: "not in store: " + missing},
		{name: "capture vs its report", args: []string{"diff", in, rep}, contains: []string{"(report)", "A and B are equal", "cleaned text not compared: B is a report"}},
		{name: "report vs changed capture", args: []string{"diff", rep, odd}, code: 1, contains: []string{"flags.clipboard", "odd␛[31m<U+202E>.bin (capture"}},
		{name: "stdin side", stdin: hostile, args: []string{"diff", "-", in}, contains: []string{"A: - (capture raw", "A and B are equal"}},
		{name: "stdin report", stdin: one, args: []string{"diff", in, "-"}, contains: []string{"B: - (report)"}},
		{name: "stream of a report array", args: []string{"diff", "--stream", "stderr", arr, rep}, contains: []string{"stream stderr", "A and B are equal"}},
		{name: "first stream of a report array", args: []string{"diff", arr, rep}, code: 1, contains: []string{"stream stdout"}},
		{name: "no such stream in report", args: []string{"diff", "--stream", "output", arr, rep}, code: 2, stderr: `no stream "output"`},
		{name: "format forces capture", args: []string{"diff", "--format", "raw", rep, rep}, contains: []string{"capture raw"}},
		{name: "json other schema is a capture", args: []string{"diff", other, other}, contains: []string{"capture raw"}},
		{name: "policy pair json", args: []string{"diff", "--json", in, "--b-policy", "cr=drop"}, code: 1, contains: []string{`"equal": false`, `"schema": "bytelens.diff/v1"`, `"lines_a": 3`}},
		{name: "lines 0", args: []string{"diff", "--lines", "0", in, "--b-policy", "cr=drop"}, code: 1, contains: []string{"2 more differing lines"}},

		{name: "missing file", args: []string{"diff", in, filepath.Join(dir, "nope")}, code: 2, stderr: "no such file"},
		{name: "directory", args: []string{"diff", dir, in}, code: 2, stderr: "is a directory"},
		{name: "no arguments", args: []string{"diff"}, code: 2, stderr: "diff needs A and B"},
		{name: "three arguments", args: []string{"diff", in, in, in}, code: 2},
		{name: "one file without policy", args: []string{"diff", in}, code: 2, stderr: "hint: pass --b-policy"},
		{name: "bad b-policy", args: []string{"diff", in, "--b-policy", "cr=sideways"}, code: 2, stderr: "invalid cr policy"},
		{name: "bad a-policy syntax", args: []string{"diff", in, "--a-policy", "cr"}, code: 2, stderr: "not key=value"},
		{name: "bad base policy", args: []string{"diff", "--bs", "x", in, in}, code: 2, stderr: "invalid bs policy"},
		{name: "policy on a report", args: []string{"diff", rep, in, "--a-policy", "cr=drop"}, code: 2, stderr: "--a-policy applies to captures"},
		{name: "one report, two policies", args: []string{"diff", rep, "--b-policy", "cr=drop"}, code: 2, stderr: "is a report"},
		{name: "stdin twice", args: []string{"diff", "-", "-"}, code: 2, stderr: "stdin can be only one"},
		{name: "unsupported schema", args: []string{"diff", v2, in}, code: 2, stderr: "bytelens.report/v2 is not supported"},
		{name: "bad report", args: []string{"diff", bad, in}, code: 2, stderr: "bad report"},
		{name: "timing with two files", args: []string{"diff", "--timing", in, in, in}, code: 2, stderr: "--timing applies to one capture"},
		{name: "corpus with files", args: []string{"diff", "--corpus", dir, in}, code: 2, stderr: "takes no FILE"},
		{name: "corpus missing", args: []string{"diff", "--corpus", filepath.Join(dir, "nope")}, code: 2, stderr: "no such file"},
		{name: "unknown flag", args: []string{"diff", "--frobnicate", in, in}, code: 2, stderr: "unknown flag"},
		{name: "unknown format", args: []string{"diff", "--format", "wav", in, in}, code: 2, stderr: "unknown capture format"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)\n%s", code, tc.code, errs, out)
			}
			for _, c := range tc.contains {
				if !strings.Contains(out, c) {
					t.Errorf("stdout lacks %q:\n%s", c, out)
				}
			}
			if !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr %q lacks %q", errs, tc.stderr)
			}
			if tc.code == 2 && out != "" {
				t.Errorf("trouble, yet stdout %q", out)
			}
			if !strings.Contains(strings.Join(tc.args, " "), "--json") {
				checkDiffSafe(t, out, "U0VDUkVU", "TITLECANARY")
			}
			checkDiffSafe(t, errs, "U0VDUkVU", "TITLECANARY")
		})
	}
}

// TestDiffProgress compares a large file under two policies with stderr on
// a pseudo-terminal: each side's cleaning draws a bar there, as plain text.
func TestDiffProgress(t *testing.T) {
	defer func(d time.Duration) { iostreams.ProgressDelay = d }(iostreams.ProgressDelay)
	iostreams.ProgressDelay = 0
	in := filepath.Join(t.TempDir(), "big.log")
	os.WriteFile(in, bytes.Repeat([]byte("a\rline \x1b[31mred\x1b[0m\n"), (2<<20)/21), 0o644)
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptm); got <- b }()
	if code := run([]string{"diff", in, "--b-policy", "cr=drop"}, strings.NewReader(""), io.Discard, pts); code != 1 {
		t.Fatalf("exit %d", code)
	}
	pts.Close()
	drawn := <-got
	if bytes.Count(drawn, []byte("comparing ")) < 2 || !bytes.Contains(drawn, []byte("%")) || bytes.IndexByte(drawn, 0x1b) >= 0 {
		t.Errorf("want two plain progress bars on the terminal, got %q", drawn)
	}
}
