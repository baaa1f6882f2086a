package diff

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

const corpus = "../testdata/corpus/"

// TestLoad checks which inputs Load takes as report JSON and which as
// captures, and its errors.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := `{"schema": "bytelens.report/v1", "policy": "cr=keep"}`
	tests := []struct {
		name, path, stdin, format string
		report                    bool // want Reports, not Capture
		err                       string
	}{
		{name: "report file", path: write("r.json", "\xef\xbb\xbf \n"+report), report: true},
		{name: "report on stdin", path: "-", stdin: report, report: true},
		{name: "format forces capture", path: write("f.json", report), format: "raw"},
		{name: "other JSON is a capture", path: write("o.json", `{"schema": "x"}`)},
		{name: "text is a capture", path: write("t.txt", "a\x1b[31mb\n")},
		{name: "stdin capture", path: "-", stdin: "a\r\n"},
		{name: "bad report", path: write("bad.json", `{"schema": "bytelens.report/v1", "bytes_in": "many"}`), err: "bad.json: "},
		{name: "directory", path: dir, err: "is a directory, not a capture"},
		{name: "missing", path: filepath.Join(dir, "nope"), err: "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Load(tc.path, capture.ArgOptions{OpenOptions: capture.OpenOptions{Format: tc.format}, Stdin: strings.NewReader(tc.stdin)})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if got := in.Reports != nil; got != tc.report || (in.Capture == nil) == (in.Reports == nil) {
				t.Errorf("reports %v capture %v, want report %v", in.Reports != nil, in.Capture != nil, tc.report)
			}
		})
	}
	if _, err := Load(dir, capture.ArgOptions{}); !errors.Is(err, ErrDirectory) {
		t.Errorf("directory: %v, want ErrDirectory", err)
	}
}

// TestCompare compares one capture under two policies and with its own
// report, and checks the sides, the verdict and the text lines kept.
func TestCompare(t *testing.T) {
	in, err := Load(corpus+"cr-progress.bin", capture.ArgOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var notes bytes.Buffer
	st, err := in.Stream("", render.NewWriter(&notes))
	if err != nil {
		t.Fatal(err)
	}
	side := func(settings string) *Side {
		var o sanitize.Options
		if err := o.Apply(settings); err != nil {
			t.Fatal(err)
		}
		s, err := in.Clean(st, o)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := side(""), side("cr=overwrite")
	if a.Kind != "capture" || a.Format != "raw" || a.Stream != render.LineString(st.Name) || a.Text == nil || notes.Len() != 0 {
		t.Errorf("side A %+v, notes %q", a, notes.String())
	}
	for _, lines := range []int{0, 1, 5} {
		r := Compare(a, b, lines)
		if r.Equal || r.Schema != sanitize.DiffSchema || r.Text == nil || r.Text.Differing == 0 {
			t.Fatalf("lines %d: %+v", lines, r)
		}
		if want := min(lines, r.Text.Differing); len(r.Text.Lines) != want {
			t.Errorf("lines %d: %d text lines kept, want %d", lines, len(r.Text.Lines), want)
		}
	}
	if r := Compare(a, side(""), 3); !r.Equal {
		t.Errorf("same policy differs: %s", r.Summary())
	}

	// A report side compares counts, not text.
	rep, err := Load("-", capture.ArgOptions{Stdin: strings.NewReader(`{"schema": "bytelens.report/v1"}`)})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rep.ReportSide("")
	if err != nil || rs.Kind != "report" || rs.Text != nil {
		t.Fatalf("report side %+v, %v", rs, err)
	}
	if r := Compare(a, rs, 3); r.Text != nil || r.Equal {
		t.Errorf("capture vs empty report: %+v", r)
	}
	arr, err := Load("-", capture.ArgOptions{Stdin: strings.NewReader(`[{"stream": "stdout", "schema": "bytelens.report/v1"}]`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := arr.ReportSide("stderr"); err == nil || !strings.Contains(err.Error(), `no stream "stderr"`) {
		t.Errorf("missing stream: %v", err)
	}
	var out bytes.Buffer
	if err := Compare(a, rs, 3).WriteText(render.NewWriter(&out), false); err != nil || !strings.Contains(out.String(), "B: - (report)") {
		t.Errorf("WriteText: %v\n%s", err, out.String())
	}
}

// TestStreamNote checks that a capture of several streams names the one
// compared, and that a stream it lacks is an error.
func TestStreamNote(t *testing.T) {
	cast := filepath.Join(t.TempDir(), "two.cast")
	os.WriteFile(cast, []byte(`{"version": 2, "width": 80, "height": 24}`+"\n"+`[0.1, "o", "out\r\n"]`+"\n"+`[0.2, "i", "ls\r"]`+"\n"), 0o644)
	in, err := Load(cast, capture.ArgOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var notes bytes.Buffer
	st, err := in.Stream("", render.NewWriter(&notes))
	if err != nil {
		t.Fatal(err)
	}
	if want := "bytelens: note: " + cast + " has 2 streams; comparing output (--stream picks another)\n"; notes.String() != want || st.Name != "output" {
		t.Errorf("stream %s, notes %q, want %q", st.Name, notes.String(), want)
	}
	if st, err := in.Stream("input", render.NewWriter(&notes)); err != nil || st.Name != "input" {
		t.Errorf("stream input: %v %v", st, err)
	}
	if _, err := in.Stream("nosuch", render.NewWriter(&notes)); err == nil {
		t.Error("stream nosuch: no error")
	}
}
