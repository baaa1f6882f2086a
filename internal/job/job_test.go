package job

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

const samples = "../../capture/testdata/samples/"

// open opens arg as a command does, stdin reading stdin.
func open(t *testing.T, arg, stdin string, o capture.ArgOptions) *capture.Input {
	t.Helper()
	o.Stdin = strings.NewReader(stdin)
	in, err := capture.OpenArg(arg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// env returns an Env writing notes to the returned buffer.
func env() (Env, *bytes.Buffer) {
	var notes bytes.Buffer
	return Env{Notes: render.NewWriter(&notes)}, &notes
}

func TestCleanRawStdin(t *testing.T) {
	e, notes := env()
	var out bytes.Buffer
	sts, reps, err := e.Clean(open(t, "-", "a\x1b[31mred\x1b[0m\n", capture.ArgOptions{}), "", &out, sanitize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sts != nil || len(reps) != 1 || reps[0].Stream.String() != capture.StreamOutput || reps[0].Report.Removed.CSI != 2 || reps[0].Format != capture.FormatRaw {
		t.Errorf("streams %v, reports %+v", sts, reps)
	}
	if out.String() != "ared\n" || notes.Len() != 0 {
		t.Errorf("text %q, notes %q", out.String(), notes.String())
	}
}

// TestCleanStreams cleans a cast of an output and an input stream: a
// note names each stream before its text, none when the text is
// discarded, and --stream picks one; the capture's lossy note comes first.
func TestCleanStreams(t *testing.T) {
	cast := samples + "asciinema-v2-stdin.cast"
	for _, tc := range []struct {
		name    string
		stream  string
		w       io.Writer
		streams []string
		notes   []string
	}{
		{"all", "", &bytes.Buffer{}, []string{"output", "input"}, []string{"bytelens: cleaning stream output (", "bytelens: cleaning stream input ("}},
		{"discarded", "", io.Discard, []string{"output", "input"}, nil},
		{"one", "input", &bytes.Buffer{}, []string{"input"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, notes := env()
			sts, reps, err := e.Clean(open(t, cast, "", capture.ArgOptions{}), tc.stream, tc.w, sanitize.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, r := range reps {
				got = append(got, r.Stream.String())
				if sts[i].Name != r.Stream.String() || r.Format != capture.FormatAsciicastV2 {
					t.Errorf("report %d: stream %s of %s, format %s", i, r.Stream, sts[i].Name, r.Format)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.streams, ",") {
				t.Errorf("streams %q, want %q", got, tc.streams)
			}
			for _, n := range tc.notes {
				if !strings.Contains(notes.String(), n) {
					t.Errorf("notes %q lack %q", notes.String(), n)
				}
			}
			if !strings.Contains(notes.String(), "capture is lossy") || tc.notes == nil && strings.Contains(notes.String(), "cleaning stream") {
				t.Errorf("notes %q: want the lossy note, and no stream named unless there are several written", notes.String())
			}
		})
	}
}

// TestCleanRefuses checks Clean's refusals: a stream the capture lacks,
// and a sniffed recording whose loader skipped input (its one warning
// named by the error, not printed as a note too).
func TestCleanRefuses(t *testing.T) {
	e, _ := env()
	_, _, err := e.Clean(open(t, samples+"asciinema-v2-stdin.cast", "", capture.ArgOptions{}), "stderr", io.Discard, sanitize.Options{})
	if !errors.Is(err, capture.ErrNoStream) {
		t.Errorf("unknown stream: %v, want capture.ErrNoStream", err)
	}
	bad := filepath.Join(t.TempDir(), "a.cast")
	os.WriteFile(bad, []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"hi\"]\nnot an event\n"), 0o644)
	e, notes := env()
	_, _, err = e.Clean(open(t, bad, "", capture.ArgOptions{}), "", io.Discard, sanitize.Options{})
	var se *capture.SniffError
	lossy := "bytelens: note: asciicast-v2 capture is lossy: asciicast stores output as JSON strings: the recorder replaced invalid UTF-8 with U+FFFD, so the original bytes are lost\n"
	if !errors.As(err, &se) || se.Warning.Line != 3 || notes.String() != lossy {
		t.Errorf("sniffed lossy cast: %v, notes %q", err, notes.String())
	}
}

// TestCleanProgress checks that a progress bar is drawn on the TTY, as
// plain text, and only there.
func TestCleanProgress(t *testing.T) {
	defer func(d time.Duration) { iostreams.ProgressDelay = d }(iostreams.ProgressDelay)
	iostreams.ProgressDelay = 0
	var tty bytes.Buffer
	e, notes := env()
	e.TTY = &tty
	if _, _, err := e.Clean(open(t, samples+"asciinema-v2.cast", "", capture.ArgOptions{}), "", io.Discard, sanitize.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tty.String(), "cleaning output") || strings.ContainsRune(tty.String(), 0x1b) || strings.Contains(notes.String(), "cleaning") {
		t.Errorf("tty %q, notes %q", tty.String(), notes.String())
	}
}

func TestWriteNotes(t *testing.T) {
	var b bytes.Buffer
	WriteNotes(render.NewWriter(&b), &capture.Capture{Format: capture.FormatRaw, Lossy: true, LossyReason: "cut\x1b[2J", Warnings: []capture.Warning{{Source: "capture", Line: 3, Msg: "stream \"x\x07\" skipped"}}})
	want := "bytelens: note: raw capture is lossy: cut\u241b[2J\nbytelens: warning: capture line 3: stream \"x\u2407\" skipped\n"
	if b.String() != want {
		t.Errorf("notes %q, want %q", b.String(), want)
	}
}

// TestWriteReports checks the labels: the name, the format unless raw,
// the stream when there are several.
func TestWriteReports(t *testing.T) {
	rep := sanitize.Report{Schema: sanitize.Schema}
	for _, tc := range []struct {
		reps []capture.StreamReport
		want []string
	}{
		{[]capture.StreamReport{{Stream: render.LineString("output"), Report: rep}}, []string{"in.bin:"}},
		{[]capture.StreamReport{{Stream: render.LineString("output"), Report: rep, Format: capture.FormatAsciicastV2}}, []string{"in.bin (asciicast-v2):"}},
		{[]capture.StreamReport{{Stream: render.LineString("stdout"), Report: rep}, {Stream: render.LineString("stderr"), Report: rep}}, []string{"in.bin [stdout]:", "\n\nin.bin [stderr]:"}},
	} {
		var b bytes.Buffer
		if err := WriteReports(render.NewWriter(&b), "in.bin", tc.reps); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("report %q lacks %q", b.String(), w)
			}
		}
	}
}

// TestCleanText checks that the text reaches stdout and that the bytes an
// open control string swallowed at the end are warned of.
func TestCleanText(t *testing.T) {
	e, notes := env()
	var out bytes.Buffer
	reps, err := e.CleanText(&out, open(t, "-", "kept\n\x1b]0;never closed", capture.ArgOptions{}), "", sanitize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "kept\n" || len(reps) != 1 || reps[0].BytesSwallowed == 0 || !strings.Contains(notes.String(), "bytes up to the end were") {
		t.Errorf("text %q, reports %+v, notes %q", out.String(), reps, notes.String())
	}
}
