package diff

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// meter counts what is read through it and whether it was finished.
type meter struct {
	label    string
	total    int64
	read     int64
	finished bool
}

func (m *meter) ReaderAt(r io.ReaderAt) io.ReaderAt { return countedAt{r, m} }
func (m *meter) Finish()                            { m.finished = true }

type countedAt struct {
	r io.ReaderAt
	m *meter
}

func (c countedAt) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.m.read += int64(n)
	return n, err
}

// TestRunRefuses checks each request Run refuses before reading input,
// with its message (and hint).
func TestRunRefuses(t *testing.T) {
	file := corpus + "cr-progress.bin"
	for _, tc := range []struct {
		name string
		args []string
		r    Request
		msg  string
	}{
		{"bad A policy", []string{file}, Request{APolicy: "cr=sideways"}, "--a-policy: invalid cr policy"},
		{"bad B policy", []string{file}, Request{BPolicy: "nope"}, "--b-policy: policy setting \"nope\" is not key=value"},
		{"negative lines", []string{file}, Request{BPolicy: "cr=drop", Lines: -1}, "--lines must not be negative"},
		{"corpus with files", []string{file}, Request{Corpus: "x"}, "--corpus takes no FILE arguments"},
		{"corpus with timing", nil, Request{Corpus: "x", Open: capture.ArgOptions{OpenOptions: capture.OpenOptions{Timing: "t"}}}, "--timing cannot be used with --corpus"},
		{"nothing", nil, Request{}, "diff needs A and B"},
		{"one file, one policy", []string{file}, Request{}, "one FILE is compared under two policies, and none was given"},
		{"stdin twice", []string{"-", "-"}, Request{}, "stdin can be only one of A and B"},
		{"timing with two", []string{file, file}, Request{Open: capture.ArgOptions{OpenOptions: capture.OpenOptions{Timing: "t"}}}, "--timing applies to one capture"},
		{"missing file", []string{file, "/nonexistent/x.bin"}, Request{}, "/nonexistent/x.bin: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.Notes = render.NewWriter(io.Discard)
			out, err := Run(tc.args, tc.r)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Run = %v, %v; want an error with %q", out, err, tc.msg)
			}
		})
	}
	_, err := Run([]string{file}, Request{})
	if h, ok := err.(interface{ Hint() string }); !ok || !strings.Contains(h.Hint(), "--b-policy") {
		t.Errorf("one file, no policy: %v has no hint naming --b-policy", err)
	}
}

// TestRunOneFile compares a capture under two policies: the sides differ,
// each is metered, and the notes of side B are not printed twice.
func TestRunOneFile(t *testing.T) {
	var meters []*meter
	var notes bytes.Buffer
	warned := 0
	r := Request{
		BPolicy: "cr=overwrite", Lines: 3, Notes: render.NewWriter(&notes),
		Warn: func(w *render.Writer, c *capture.Capture) { warned++; w.Printf("warned %s\n", c.Format) },
		Progress: func(label render.Safe, total int64) Meter {
			m := &meter{label: label.String(), total: total}
			meters = append(meters, m)
			return m
		},
	}
	out, err := Run([]string{corpus + "cr-progress.bin"}, r)
	if err != nil {
		t.Fatal(err)
	}
	res := out.(*Result)
	want, _ := sanitize.ParsePolicy("cr=overwrite")
	if res.Equal || out.ExitCode() != 1 || res.A.Policy == res.B.Policy || res.B.Policy != want.String() {
		t.Errorf("result %+v, exit %d", res, out.ExitCode())
	}
	if len(meters) != 2 || warned != 2 || notes.String() != "warned raw\n" {
		t.Fatalf("%d meters, %d warnings, notes %q; want 2, 2 and side A's only", len(meters), warned, notes.String())
	}
	for _, m := range meters {
		if m.read != m.total || !m.finished || m.label != "comparing "+corpus+"cr-progress.bin" {
			t.Errorf("meter %+v: want all bytes read and finished", m)
		}
	}
	var text bytes.Buffer
	if err := out.WriteText(render.NewWriter(&text), false); err != nil || !strings.Contains(text.String(), "!=") {
		t.Errorf("WriteText: %v\n%s", err, text.String())
	}
}

// TestRunReport compares a capture with a report of itself from stdin:
// equal, and a policy given for the report side is refused.
func TestRunReport(t *testing.T) {
	file := corpus + "cr-progress.bin"
	rep, err := os.ReadFile(corpus + "cr-progress.report.json")
	if err != nil {
		t.Fatal(err)
	}
	r := Request{Open: capture.ArgOptions{Stdin: bytes.NewReader(rep)}, Notes: render.NewWriter(io.Discard)}
	out, err := Run([]string{file, "-"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if res := out.(*Result); !res.Equal || out.ExitCode() != 0 || res.B.Kind != "report" {
		t.Errorf("capture against its own report: %+v", res)
	}
	r.Open.Stdin, r.BPolicy = bytes.NewReader(rep), "cr=drop"
	if _, err := Run([]string{file, "-"}, r); err == nil || !strings.Contains(err.Error(), "--b-policy applies to captures, and - is a report") {
		t.Errorf("policy on a report side: %v", err)
	}
}

// TestRunCorpus compares a corpus of two cases, one of which cannot be
// read: exit 2, the failure named on the notes.
func TestRunCorpus(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.bin"), []byte("a\rb\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.policy"), []byte("cr=sideways\n"), 0o644)
	var notes bytes.Buffer
	out, err := Run(nil, Request{Corpus: dir, BPolicy: "cr=overwrite", Lines: 1, Notes: render.NewWriter(&notes)})
	if err != nil {
		t.Fatal(err)
	}
	c := out.(*CorpusResult)
	if c.Total != 2 || c.Changed != 1 || c.Failed != 1 || out.ExitCode() != 2 || !strings.Contains(notes.String(), "bytelens: error: b: b.policy:") {
		t.Errorf("corpus %+v, exit %d, notes %q", c.CorpusDiff, out.ExitCode(), notes.String())
	}
	if (&CorpusResult{}).ExitCode() != 0 {
		t.Error("an empty corpus is not equal")
	}
	if _, err := Run(nil, Request{Corpus: filepath.Join(dir, "none"), Notes: render.NewWriter(io.Discard)}); err == nil || !strings.HasSuffix(err.Error(), "none: no such file") {
		t.Errorf("missing corpus: %v", err)
	}
}

// TestCorpusResultWriteText: the cases that could be read are listed
// with their summaries, their names as capture.CompareCorpus escaped
// them, and the totals follow.
func TestCorpusResultWriteText(t *testing.T) {
	c := CorpusResult{capture.CorpusDiff{Total: 3, Changed: 1, Failed: 1, Cases: []capture.CorpusCase{
		{Name: render.LineString("cr\x1b[31m"), Summary: "removed.cr +1"},
		{Name: render.LineString("broken"), Error: render.LineString("no such file")},
	}}}
	var b bytes.Buffer
	if err := c.WriteText(render.NewWriter(&b), false); err != nil {
		t.Fatal(err)
	}
	if want := "cr␛[31m  removed.cr +1\n3 cases, 1 changed, 1 failed\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
