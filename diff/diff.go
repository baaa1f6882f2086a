// Package diff compares what cleaning two inputs gives, as bytelens diff
// does. Each side is a capture cleaned under a policy, or a removal report
// read back from JSON (sanitize.ReadReports); the comparison is
// sanitize.Compare of the reports and, when both sides are captures,
// sanitize.CompareText of the cleaned texts. A Result prints for people
// through render.WriteReportDiff and marshals as the JSON of bytelens diff
// --json (schema sanitize.DiffSchema). Nothing in a side or a result holds
// payload bytes other than the cleaned text lines of the text diff.
package diff

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// MaxReportFile is the size in bytes of the largest file that Load reads
// as report JSON (64 MiB): anything larger is a capture.
const MaxReportFile = 64 << 20

// ErrDirectory is returned by Load for a directory: diff compares files,
// and a directory of captures is a corpus (capture.CompareCorpus).
var ErrDirectory = errors.New("is a directory, not a capture")

// Input is a loaded input: a capture, or the reports of a report JSON
// file. Exactly one of Capture and Reports is set.
type Input struct {
	// Name is the argument naming the input ("-" for stdin).
	Name    string
	Capture *capture.Capture
	Reports []sanitize.StreamReport
}

// Load loads name ("-" is stdin, read whole from o.Stdin with
// capture.ReadInput) as report JSON when o.Format is empty and the input
// is a bytelens report (its first non-space byte opens a JSON object or
// array, it is at most MaxReportFile bytes, and sanitize.ReadReports takes
// it), else as a capture under o: stdin with capture.Load, a file or a
// restricted reference (read from o.Store) with capture.OpenArg, as the
// other commands open their FILE. Errors: ErrDirectory (wrapped, naming
// the directory), capture.ErrNotRegular (wrapped, naming the file) for a
// FIFO or device, capture.ErrInputTooLarge for stdin, a malformed or
// unsupported report (naming the input), and the errors of os.Stat and
// capture.OpenArg unwrapped, for the caller to word.
func Load(name string, o capture.ArgOptions) (*Input, error) {
	in := &Input{Name: name}
	if name == "-" {
		b, err := capture.ReadInput(o.Stdin, 0)
		if err != nil {
			return nil, render.Errorf("stdin: %w", err)
		}
		if o.Format == "" {
			if ok, err := in.readReport(b); ok || err != nil {
				return in, err
			}
		}
		if in.Capture, err = capture.Load(bytes.NewReader(b), int64(len(b)), o.OpenOptions); err != nil {
			return nil, err
		}
		return in, nil
	}
	if !capture.IsRefArg(name) {
		if ok, err := in.readFile(name, o.Format); ok || err != nil {
			return in, err
		}
	}
	a, err := capture.OpenArg(name, o)
	if err != nil {
		return nil, err
	}
	in.Capture = a.Capture
	return in, nil
}

// readFile refuses the directory name and, unopened, a name that is not
// a regular file (capture.ErrNotRegular: a FIFO, a device), and takes
// the file as report JSON when format is empty and it is one (Load):
// false for a capture.
func (in *Input) readFile(name, format string) (bool, error) {
	st, err := os.Stat(name)
	if err != nil {
		return false, err
	}
	if st.IsDir() {
		return false, render.Errorf("%s %w", name, ErrDirectory)
	}
	if !st.Mode().IsRegular() {
		// Not opened: a FIFO read here could not be read again.
		return false, render.Errorf("%s is %w", name, capture.ErrNotRegular)
	}
	if format != "" || st.Size() > MaxReportFile || !looksLikeJSON(name) {
		return false, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return false, err
	}
	return in.readReport(b)
}

// Close closes the capture, if the input is one.
func (in *Input) Close() error {
	if in.Capture == nil {
		return nil
	}
	return in.Capture.Close()
}

// looksLikeJSON reports whether the file's first non-space byte (after a
// UTF-8 byte order mark) opens a JSON object or array, reading 512 bytes
// at most.
func looksLikeJSON(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = bytes.TrimLeft(bytes.TrimPrefix(head[:n], []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(head) > 0 && (head[0] == '{' || head[0] == '[')
}

// readReport takes b as report JSON when it is one: false for anything
// else, and an error naming the input for a bad report.
func (in *Input) readReport(b []byte) (bool, error) {
	reps, err := sanitize.ReadReports(b)
	if errors.Is(err, sanitize.ErrNotReport) {
		return false, nil
	}
	if err != nil {
		return false, render.Errorf("%s: %v", in.Name, err)
	}
	in.Reports = reps
	return true, nil
}

// Side is one side of a comparison, as the JSON of bytelens diff names it.
type Side struct {
	// Name is the argument naming the input ("-" for stdin), escaped
	// (render.Line): a path typed or globbed may hold anything.
	Name render.Safe `json:"name"`
	// Kind is "capture" or "report".
	Kind string `json:"kind"`
	// Format is the capture format; Stream the stream compared, escaped
	// as Name is (a raw artifact's manifest or a report file names it);
	// Policy the sanitizer options (sanitize.Options.String).
	Format string      `json:"format,omitempty"`
	Stream render.Safe `json:"stream,omitzero"`
	Policy string      `json:"policy"`

	// Report is the side's removal report; Text its cleaned text, nil
	// for a report input.
	Report sanitize.Report `json:"-"`
	Text   []byte          `json:"-"`
}

// ReportSide returns the side of a report input: the report of the stream
// that stream names, or the first when stream is "". The error names a
// stream that none of the reports has.
func (in *Input) ReportSide(stream string) (*Side, error) {
	r, ok := sanitize.PickReport(in.Reports, stream)
	if !ok {
		return nil, render.Errorf("report file %s has no stream %q", in.Name, stream)
	}
	return &Side{Name: render.LineString(in.Name), Kind: "report", Stream: render.LineString(r.Stream), Policy: r.Policy, Report: r.Report}, nil
}

// Stream returns the stream of a capture input that a side compares: the
// one name names (capture.Capture.Select's error otherwise), or the first.
// When the capture has several streams and name is "", it says on notes
// which one it took.
func (in *Input) Stream(name string, notes *render.Writer) (*capture.Stream, error) {
	c := in.Capture
	if name != "" {
		sts, err := c.Select(name)
		if err != nil {
			return nil, err
		}
		return sts[0], nil
	}
	if len(c.Streams) == 0 {
		return nil, render.Errorf("%s: capture has no stream", in.Name)
	}
	if len(c.Streams) > 1 {
		notes.Printf("bytelens: note: %s has %d streams; comparing %s (--stream picks another)\n", in.Name, len(c.Streams), c.Streams[0].Name)
	}
	return &c.Streams[0], nil
}

// Clean returns the side of a capture input: st (from Stream, or a copy
// whose Data counts what is read) cleaned under opts by capture.Clean.
func (in *Input) Clean(st *capture.Stream, opts sanitize.Options) (*Side, error) {
	var text bytes.Buffer
	rep, err := capture.Clean(&text, st, opts)
	if err != nil {
		return nil, err
	}
	b := text.Bytes()
	if b == nil {
		b = []byte{} // no text, which is compared: nil is a report's (Side.Text)
	}
	return &Side{
		Name: render.LineString(in.Name), Kind: "capture", Format: in.Capture.Format.String(), Stream: render.LineString(st.Name),
		Policy: rep.Policy, Report: rep, Text: b,
	}, nil
}

// Result is a comparison of two sides; its JSON form is that of bytelens
// diff --json: schema, equal, the sides a and b, and the report diff.
type Result struct {
	Schema string `json:"schema"`
	Equal  bool   `json:"equal"`
	A      Side   `json:"a"`
	B      Side   `json:"b"`
	sanitize.ReportDiff
}

// Compare compares the reports of a and b and, when both have cleaned
// text, the texts, keeping at most lines differing lines of text (0 keeps
// none, and the diff still counts them).
func Compare(a, b *Side, lines int) *Result {
	d := sanitize.Compare(a.Report, b.Report)
	if a.Text != nil && b.Text != nil {
		t := sanitize.CompareText(a.Text, b.Text, max(lines, 1))
		if lines <= 0 {
			t.Lines = t.Lines[:0]
		}
		d.Text = &t
	}
	return &Result{Schema: sanitize.DiffSchema, Equal: d.Equal(), A: *a, B: *b, ReportDiff: d}
}

// WriteText prints r for people with render.WriteReportDiff: every row
// when all is set, else the differing ones. It returns w.Err().
func (r *Result) WriteText(w *render.Writer, all bool) error {
	return render.WriteReportDiff(w, r.A.view(), r.B.view(), &r.ReportDiff, all)
}

// view returns the side as render.WriteReportDiff names it.
func (s *Side) view() render.DiffSide {
	return render.DiffSide{Name: s.Name, Kind: s.Kind, Format: s.Format, Stream: s.Stream, Policy: s.Policy, HasText: s.Text != nil}
}
