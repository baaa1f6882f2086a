package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
)

// hostile is a name or field an attacker chose: an OSC 52 clipboard write,
// a C1 CSI in UTF-8, a raw 9B byte (invalid UTF-8), a bidi override, LF,
// TAB, a Hangul filler, a line separator and render's own ␛ and ‹ glyphs.
// It holds no '/' or NUL, so it can be a file name.
const hostile = "x\x1b]52;c;SElKQUNL\x07\u009b31m\x9b\u202e\n\t\u3164\u2028␛‹"

// assertPlainOutput fails unless out holds only printable text, TAB and
// LF: valid UTF-8, no C0 but TAB and LF, no DEL, no C1, no format,
// default-ignorable, private-use or unassigned character, no line or
// paragraph separator.
func assertPlainOutput(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s is not valid UTF-8: %q", what, out)
		return
	}
	for i, r := range out {
		if r == '\t' || r == '\n' {
			continue
		}
		if !unicode.IsGraphic(r) || unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
			t.Errorf("%s holds %U at %d: %q", what, r, i, out)
			return
		}
	}
}

// writeHostileArtifact writes a raw artifact whose manifest fields and
// stream names are all hostile and returns its bytes. With truncated, one
// stream passed the raw limit: the loader warns about it, naming it.
func writeHostileArtifact(t *testing.T, path string, truncated bool) []byte {
	t.Helper()
	var b bytes.Buffer
	seen := 4
	if truncated {
		seen = 9
	}
	m := store.Manifest{Started: time.Unix(0, 0), MaxRaw: 4,
		Streams: []store.StreamDesc{{ID: 1, Name: "out" + hostile}, {ID: 2, Name: "err" + hostile}}}
	m.SetExact([]string{"sh" + hostile, hostile}, "/"+hostile, hostile)
	aw, err := store.NewArtifactWriter(&b, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(1, 0, time.Millisecond, []byte("hi\n"), 3); err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(2, 1, time.Millisecond, []byte("oops"), seen); err != nil {
		t.Fatal(err)
	}
	if err := aw.Finish(store.Trailer{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hostileReport is report JSON as report --json writes it, with stream
// (when not empty) and its other strings hostile; schema is its schema.
func hostileReport(schema, stream string) []byte {
	r := map[string]any{"schema": schema, "policy": hostile, "bytes_in": 9, "bytes_out": 1,
		"findings": []map[string]any{{"offset": 1, "kind": hostile, "sequence": hostile, "bytes": 2}}}
	if stream == "" {
		js, _ := json.Marshal(r)
		return js
	}
	r["stream"] = stream
	js, _ := json.Marshal([]any{r})
	return js
}

// TestHostileNamesStayInert walks the error and warning paths of every
// subcommand with hostile file names, stream names, manifest fields,
// report fields, flag values and arguments, and checks that stdout and
// stderr hold only printable text, TAB and LF.
func TestHostileNamesStayInert(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	name := filepath.Join(dir, hostile)
	art := filepath.Join(dir, "evil.art")
	raw := writeHostileArtifact(t, art, true)
	full := filepath.Join(dir, "full.art")
	writeHostileArtifact(t, full, false)
	hostileArt := name + ".art"
	os.WriteFile(hostileArt, raw, 0o600)
	hostileDir := filepath.Join(dir, "dir"+hostile)
	os.Mkdir(hostileDir, 0o700)
	os.WriteFile(filepath.Join(hostileDir, hostile+".bin"), []byte("a\x1b[31mb\n"), 0o600)
	os.WriteFile(filepath.Join(hostileDir, "case"+hostile+".bin"), []byte("c\n"), 0o600)
	os.WriteFile(filepath.Join(hostileDir, "case"+hostile+".policy"), []byte(hostile+"=1"), 0o600)
	badSchema := filepath.Join(dir, "v9"+hostile+".json")
	os.WriteFile(badSchema, hostileReport("bytelens.report/v9"+hostile, ""), 0o600)
	report := filepath.Join(dir, "rep"+hostile+".json")
	os.WriteFile(report, hostileReport("bytelens.report/v1", ""), 0o600)
	reportArray := filepath.Join(dir, "arr"+hostile+".json")
	os.WriteFile(reportArray, hostileReport("bytelens.report/v1", "s"+hostile), 0o600)
	reportArrayBad := filepath.Join(dir, "arr9"+hostile+".json")
	os.WriteFile(reportArrayBad, hostileReport("bytelens.report/v9"+hostile, "s"+hostile), 0o600)
	badJSON := filepath.Join(dir, "bad"+hostile+".json")
	os.WriteFile(badJSON, []byte("{nope"), 0o600)
	plain := filepath.Join(dir, "plain.bin")
	os.WriteFile(plain, []byte("plain\n"), 0o600)

	// A stored artifact with hostile argv, cwd and stdin, for store,
	// extract and verify.
	st, err := store.OpenDefault()
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	w.Write(raw)
	ref, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	refs := ref.String()

	runs := [][]string{
		// cobra's own errors and help
		{hostile},
		{"clean", "--" + hostile},
		{"clean", "-" + hostile},
		{"clean", plain, hostile},
		{"hex", "--width", hostile},
		{"run", "--max-output", hostile, "--", "true"},
		{"help", hostile},
		{"clean", "--help"},
		{"hex", "--help"},
		{"glyphs", "--help"},
		// the capture readers on a hostile artifact and hostile names
		{"clean", art},
		{"clean", full},
		{"clean", "--report", filepath.Join(dir, "r.json"), full},
		{"clean", "--report", filepath.Join(dir, "no", hostile), full},
		{"report", full},
		{"report", "--json", full},
		{"diff", full, art},
		{"diff", "--json", full, art},
		{"hex", full},
		{"glyphs", full},
		{"clean", hostileArt},
		{"clean", "--stream", hostile, art},
		{"report", art},
		{"report", "--json", art},
		{"report", "--stream", "err" + hostile, art},
		{"hex", art},
		{"hex", "--stream", hostile, art},
		{"glyphs", art},
		{"glyphs", "--describe", art},
		{"glyphs", "--stream", "out" + hostile, art},
		{"clean", name},
		{"report", name},
		{"hex", name},
		{"glyphs", name},
		{"clean", hostileDir},
		{"clean", "--format", hostile, plain},
		{"clean", "--format", "script", "--timing", name, plain},
		{"clean", "--cr", hostile, plain},
		{"report", "--format-chars", hostile, plain},
		{"clean", "--format", "asciicast", plain},
		// diff: names, report fields, policies, corpus
		{"diff", art, art},
		{"diff", "--json", art, art},
		{"diff", "--stream", "err" + hostile, art, plain},
		{"diff", name, plain},
		{"diff", hostileDir, plain},
		{"diff", badSchema, plain},
		{"diff", report, plain},
		{"diff", "--json", report, plain},
		{"diff", reportArray, plain},
		{"diff", reportArrayBad, plain},
		{"diff", "--stream", hostile, report, plain},
		{"diff", "--b-policy", hostile, plain},
		{"diff", "--b-policy", hostile + "=1", plain},
		{"diff", "--b-policy", "cr=" + hostile, plain},
		{"diff", "--a-policy", "cr=drop", report, plain},
		{"diff", "--corpus", hostileDir, "--b-policy", "cr=drop", "--all"},
		{"diff", "--json", "--corpus", hostileDir, "--b-policy", "cr=drop", "--all"},
		{"diff", "--corpus", name, "--b-policy", "cr=drop"},
		// run: argv, exec errors, --stdin, --decision
		{"run", "--", name},
		{"run", "--", hostile},
		{"run", "--no-store", "--", "printf", hostile},
		{"run", "--no-store", "--text", "--", "printf", hostile},
		{"run", "--stdin", name, "--", "true"},
		{"run", "--decision", name, "--", "true"},
		{"run", "--decision", badJSON, "--", "true"},
		{"run", "--decision", report, "--", "true"},
		// store, extract, verify
		{"store", "ls"},
		{"store", "ls", "--json"},
		{"store", "prune", "--raw-older-than", hostile},
		{"extract", hostile},
		{"extract", refs},
		{"extract", refs, "--stream", hostile},
		{"extract", refs, "--stream", "out" + hostile, "--as", "text"},
		{"extract", refs, "--range", hostile},
		{"extract", refs, "--stream", "out" + hostile, "--raw", "-o", filepath.Join(dir, "no", hostile)},
		{"verify", refs, name},
		{"verify", refs, art},
		{"verify", hostile, name},
		// the agent surface and the screen model
		{"excerpt", hostile, "--lines", "1:2"},
		{"excerpt", refs, "--lines", hostile},
		{"excerpt", refs, "--grep", hostile},
		{"excerpt", refs, "--grep", "hi", "--stream", hostile},
		{"excerpt", refs, "--grep", "hi", "--stream", "out" + hostile, "--json"},
		{"hook", hostile},
		{"mcp", "--" + hostile},
		{"screen", name},
		{"screen", art},
		{"screen", full},
		{"screen", "--stream", hostile, full},
		{"report", "--screen", full},
		// view, up to where it needs a terminal
		{"view", name},
		{"view", hostileDir},
		{"view", art},
		{"view", plain, "--compare", name},
		{"view", plain, "--compare-policy", hostile},
	}
	for _, args := range runs {
		_, out, errs := cli(t, "", args...)
		what := strconv.Quote(strings.Join(args, " "))
		if os.Getenv("EDGE_DUMP") != "" {
			t.Logf("%s\n--stdout--\n%s--stderr--\n%s", what, out, errs)
		}
		assertPlainOutput(t, "stdout of "+what, out)
		assertPlainOutput(t, "stderr of "+what, errs)
	}

	// view prints the loader's warnings before it starts, with
	// warnCapture: one of them names the truncated hostile stream.
	c, err := capture.Open(art, capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var b bytes.Buffer
	warnCapture(render.NewWriter(&b), c)
	if !strings.Contains(b.String(), "kept the first 4") {
		t.Errorf("no warning about the truncated stream: %q", b.String())
	}
	assertPlainOutput(t, "view's warnings", b.String())
}

// TestStdinIsStreamed checks that hex - and glyphs - read a pipe as it
// arrives, spooling nothing (the temporary directory does not exist),
// and show what they show for the same bytes in a file.
func TestStdinIsStreamed(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "none"))
	in := strings.Repeat("row \x1b]52;c;QUJD\x07\x1b[31mred\x1b[0m\r\n", 5000)
	file := filepath.Join(t.TempDir(), "in.bin")
	os.WriteFile(file, []byte(in), 0o600)
	for _, args := range [][]string{{"hex"}, {"glyphs"}, {"glyphs", "--describe"}, {"glyphs", "--payloads", "--chips"}} {
		code, got, errs := cli(t, in, append(args, "-")...)
		_, want, _ := cli(t, "", append(args, file)...)
		if code != 0 || errs != "" || got != want {
			t.Errorf("%v -: exit %d, stderr %q, %d bytes of output, want %d as for the file", args, code, errs, len(got), len(want))
		}
	}
}
