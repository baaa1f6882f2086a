package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/sanitize"
)

// assertPlainJSON decodes out (one JSON document, or JSON Lines) and fails
// unless every string in it, object keys included, holds only printable
// text, TAB and LF once decoded (assertPlainOutput): the JSON escapes that
// safejson writes keep the document inert on a terminal, but an agent or
// `jq -r` that decodes it gets the characters back.
func assertPlainJSON(t *testing.T, what, out string) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: not JSON: %v: %q", what, err, out)
			return
		}
		sanitize.EveryJSONString(v, func(s string) bool { assertPlainOutput(t, what+" (decoded)", s); return true })
	}
}

// TestAttack15JSONStreamNames: the stream names of a raw artifact's
// manifest are the artifact writer's to choose (a crafted file, or a blob
// planted in the store by a command run without --isolate). report --json,
// clean --report, extract --json, verify --json and diff --json wrote them as they
// were, so that the decoded "stream" or "name" held ESC ] 52 … BEL, C1 and
// a bidi override, where glyphs --describe --json gives the same stream
// escaped (render). They are now escaped as the messages escape them, and
// so is the "corpus" of diff --corpus --json, the directory as given,
// which was left as it was. Those fields are render.Safe, so that an
// output cannot leave a name unescaped.
func TestAttack15JSONStreamNames(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	art := filepath.Join(dir, "evil.art")
	raw := writeHostileArtifact(t, art, false)
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
	evil := filepath.Join(dir, strings.ReplaceAll(hostile, "\x00", ""))
	if err := os.WriteFile(evil, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out1 := "out" + strings.Replace(hostile, "31m\x9b", "31m\ufffd", 1) // as the manifest's JSON keeps it
	hi := filepath.Join(dir, "hi")
	os.WriteFile(hi, []byte("hi\n"), 0o600) // the stored bytes of stream 1
	describe := filepath.Join(dir, "describe.art")
	writeSequenceArtifact(t, describe)

	corpus := filepath.Join(dir, "corpus")
	os.Mkdir(corpus, 0o700)
	os.WriteFile(filepath.Join(corpus, "a"+hostile+".bin"), []byte("a\x1b[31mb\n"), 0o600)
	os.WriteFile(filepath.Join(corpus, "b"+hostile+".bin"), []byte("c\n"), 0o600)
	os.WriteFile(filepath.Join(corpus, "b"+hostile+".policy"), []byte("cr="+hostile), 0o600)
	// A corpus directory given by a path that holds anything, as a side's
	// name may.
	evilCorpus := filepath.Join(dir, "corpus"+strings.ReplaceAll(hostile, "\x00", ""))
	os.Mkdir(evilCorpus, 0o700)
	os.WriteFile(filepath.Join(evilCorpus, "a.bin"), []byte("a\x1b[31mb\n"), 0o600)

	for _, args := range [][]string{
		{"diff", "--json", "--corpus", corpus, "--b-policy", "cr=drop", "--all"},
		{"diff", "--json", "--corpus", evilCorpus, "--b-policy", "cr=drop", "--all"},
		{"report", "--json", art},
		{"report", "--json", "--screen", art},
		{"clean", "--report", filepath.Join(dir, "report.json"), art},
		{"extract", refs, "--stream", out1, "--json"},
		{"extract", refs, "--stream", out1, "--as", "text", "--json"},
		{"verify", "--json", refs, hi},
		{"diff", "--json", art, art},
		{"diff", "--json", evil, art},
		{"glyphs", "--describe", "--json", describe},
		{"diff", "--json", "--stream", "err" + out1[3:], art, art},
	} {
		_, out, errs := cli(t, "", args...)
		what := strconv.Quote(strings.Join(args, " "))
		assertPlainOutput(t, "stderr of "+what, errs)
		if args[0] == "clean" {
			b, err := os.ReadFile(args[2])
			if err != nil {
				t.Fatal(err)
			}
			out = string(b)
		}
		if !strings.Contains(out, "out") {
			t.Errorf("%s: no stream named: %q (stderr %q)", what, out, errs)
		}
		assertPlainJSON(t, "stdout of "+what, out)
		if !slices.Contains(args, "text") && strings.Contains(out, `\n`) { // a name is one line: LF as ␊ (--as text: the cleaned text has its LF)
			t.Errorf("%s: a string holds LF: %q", what, out)
		}
	}
}

// writeSequenceArtifact writes a raw artifact whose one stream, named
// "out" and hostile, holds a CSI, so that glyphs --describe --json lists
// it with its stream's name.
func writeSequenceArtifact(t *testing.T, path string) {
	t.Helper()
	var b bytes.Buffer
	m := store.Manifest{Started: time.Unix(0, 0), MaxRaw: -1, Streams: []store.StreamDesc{{ID: 1, Name: "out" + hostile}}}
	m.SetExact([]string{"sh"}, "/", "/dev/null")
	aw, err := store.NewArtifactWriter(&b, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(1, 0, time.Millisecond, []byte("a\x1b[31mb\n"), 8); err != nil {
		t.Fatal(err)
	}
	if err := aw.Finish(store.Trailer{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAttack15DiffReportFile: diff --json passed the strings of a report
// file through to its JSON as they were (its policy, the finding kinds and
// sequences, the CSI final keys, the stream), so a report file that
// someone else wrote put ESC ] 52 … BEL, C1 and bidi overrides in the
// decoded result; the text form escapes them. A report file holding a
// string that cleaning changes is now refused, as excerpt refuses such a
// meta.json: bytelens writes none.
func TestAttack15DiffReportFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.bin")
	os.WriteFile(plain, []byte("a\x1b[31mb\n"), 0o600)
	_, good, _ := cli(t, "", "report", "--json", plain)
	var r map[string]any
	if err := json.Unmarshal([]byte(good), &r); err != nil {
		t.Fatal(err)
	}
	r["csi_finals"] = map[string]any{"m" + hostile: 1}
	r["findings"] = []any{map[string]any{"offset": 1, "length": 2, "kind": hostile, "sequence": hostile, "bytes": 2}}
	for _, c := range []struct {
		name string
		js   any
	}{
		{"solo", r},
		{"array", []any{map[string]any{"stream": "s" + hostile, "schema": "bytelens.report/v1", "policy": hostile}}},
	} {
		js, _ := json.Marshal(c.js)
		path := filepath.Join(dir, c.name+".json")
		os.WriteFile(path, js, 0o600)
		for _, args := range [][]string{{"diff", "--json", path, plain}, {"diff", path, plain}} {
			code, out, errs := cli(t, "", args...)
			what := strconv.Quote(strings.Join(args, " "))
			assertPlainOutput(t, "stderr of "+what, errs)
			assertPlainOutput(t, "stdout of "+what, out)
			if code != 2 || !strings.Contains(errs, "control or format characters") {
				t.Errorf("%s: exit %d, want 2 and the report refused; stdout %q, stderr %q", what, code, out, errs)
			}
		}
	}
	// bytelens' own report files, hostile stream names included, still read.
	art := filepath.Join(dir, "evil.art")
	writeSequenceArtifact(t, art)
	rep := filepath.Join(dir, "own.json")
	if code, _, errs := cli(t, "", "report", "--json", art); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs)
	}
	_, own, _ := cli(t, "", "report", "--json", art)
	os.WriteFile(rep, []byte(own), 0o600)
	if code, out, errs := cli(t, "", "diff", "--json", rep, art); code == 2 {
		t.Errorf("diff of bytelens' own report: exit 2: %s %s", out, errs)
	}
}
