package screen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recording is a real session recorded with script(1) at 80×24 for these
// tests (testdata/recordings): a python progress bar and spinner, apt
// installing a package with its fancy progress bar in a scroll region,
// vim scrolling and inserting, less paging and searching.
type recording struct {
	name string
	// data is the output the terminal was sent: the typescript without
	// script's header and footer lines.
	data []byte
}

func recordings(t *testing.T) []recording {
	t.Helper()
	files, _ := filepath.Glob("testdata/recordings/*.typescript")
	if len(files) < 4 {
		t.Fatalf("only %d recordings", len(files))
	}
	var out []recording
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Script's first line is its header; its footer starts at the
		// last "\nScript done on ".
		_, b, _ = bytes.Cut(b, []byte("\n"))
		if i := bytes.LastIndex(b, []byte("\nScript done on ")); i >= 0 {
			b = b[:i]
		}
		out = append(out, recording{strings.TrimSuffix(filepath.Base(f), ".typescript"), b})
	}
	return out
}

// TestRecordingsNoDeception: real programs overwrite, erase and redraw all
// the time; none of it may rank as a deception.
func TestRecordingsNoDeception(t *testing.T) {
	for _, r := range recordings(t) {
		m := feed(t, Options{Findings: true}, string(r.data))
		fs := m.Findings()
		if len(fs) == 0 {
			t.Errorf("%s: no findings at all; the recording redraws", r.name)
		}
		for _, f := range fs {
			if f.Rank >= Deception {
				t.Errorf("%s: finding ranked %d >= %d: %s %d+%d %q replaced by %q, %q", r.name, f.Rank, Deception, f.Cause, f.Off, f.Len, f.Text, f.ReplacedBy, f.Reasons)
			}
		}
	}
}

// TestTmuxRecordings compares the final screen of each real recording and
// each crafted deception with what tmux shows for the same bytes.
func TestTmuxRecordings(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a tmux server")
	}
	s := newTmux(t)
	recs := recordings(t)
	var inputs [][]byte
	for _, r := range recs {
		inputs = append(inputs, r.data)
	}
	for i, res := range s.showAll(inputs, 80, 24, false) {
		m := feed(t, Options{}, string(recs[i].data))
		if got := lines(m); strings.Join(got, "\n") != strings.Join(res.rows, "\n") {
			t.Errorf("%s: final screen differs:\nmodel %q\n tmux %q", recs[i].name, got, res.rows)
		}
	}
	files, _ := filepath.Glob("testdata/deception/*.bin")
	inputs = inputs[:0]
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("\x1b(0")) || bytes.Contains(b, []byte("\x1b[8m")) {
			continue // capture-pane prints DEC graphics as letters and concealed text
		}
		inputs, names = append(inputs, b), append(names, f)
	}
	for i, res := range s.showAll(inputs, 80, 24, true) {
		m := feed(t, Options{NewlineCRLF: true}, string(inputs[i]))
		if got := lines(m); strings.Join(got, "\n") != strings.Join(res.rows, "\n") {
			t.Errorf("%s: final screen differs:\nmodel %q\n tmux %q", names[i], got, res.rows)
		}
	}
}
