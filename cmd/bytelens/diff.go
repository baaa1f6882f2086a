package main

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// Limits of diff.
const (
	// maxReportFile is the largest file that diff reads as report JSON;
	// anything larger is a capture.
	maxReportFile = 64 << 20
)

type diffFlags struct {
	aPolicy, bPolicy string
	corpus           string
	all, asJSON      bool
	lines            int
	policy           *sanitize.Options
	capture          *captureFlags
}

func newDiffCmd(s *streams) *cobra.Command {
	f := &diffFlags{}
	cmd := &cobra.Command{
		Use:   "diff [flags] A B | FILE --b-policy P | --corpus DIR --b-policy P",
		Short: "Compare the cleaned text and removal reports of two inputs",
		Long: `Diff compares what cleaning two inputs gives: every removal count, kept
count, anomaly and advisory flag, OSC commands and CSI final bytes, the
findings (aligned by byte offset, matched by offset and kind), and the
first differing lines of cleaned text. It never prints payloads.

A and B are each a capture (any format that clean reads; "-" is stdin for
one of them) or a removal report in JSON (a file holding a JSON object with
"schema": "bytelens.report/v1", as report --json writes; no text is compared
then). With --format, files are always captures. With one FILE, diff
compares the capture under two policies: --a-policy and --b-policy are
comma-separated key=value settings (cr=overwrite,format-chars=keep) applied
on top of the policy flags, which set the base policy of both sides;
--timing is accepted with one FILE only.

With --corpus DIR, it runs every capture in DIR (files named *.bin, and any
other file whose format is sniffed as not raw, except *.policy, *.clean.txt,
*.report.json, *.golden, *.go, *.md and *.timing) under A's and B's policies
and lists the cases whose cleaned text or report changed, one line each,
then "N cases, M changed". A case's NAME.policy file (for NAME.bin, or the
file name without its extension), if any, sets that case's base policy on
top of the policy flags; --a-policy and --b-policy apply on top of it.

The table lists differing rows only (--all for every row). Its first column
is "!=" for a row that differs and "=" for one that does not; the diff
column is B minus A ("+3", "-1", "0"). Text lines are printed quoted with
Go escapes, so nothing in them reaches the terminal as a control. A
capture with several streams is compared by its first stream unless
--stream names one.

Exit status, as for diff(1): 0 when A and B are equal (the policies may
differ), 1 when they differ, 2 on trouble: a usage error, a missing or
unreadable file, a bad report file. With --corpus: 0 when no case changed,
1 when some did, 2 when a case could not be read (the others are still
compared and listed).`,
		Example: `  bytelens diff before.bin after.bin
  bytelens diff build.cast --b-policy cr=overwrite,format-chars=keep
  bytelens diff --json old.report.json new.report.json
  bytelens diff --corpus testdata/corpus --b-policy c1=lone`,
		Args: cobra.MaximumNArgs(2),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.aPolicy, "a-policy", "", "policy settings for side A on top of the policy flags, e.g. cr=drop")
	fs.StringVar(&f.bPolicy, "b-policy", "", "policy settings for side B on top of the policy flags, e.g. cr=overwrite,format-chars=keep")
	fs.StringVar(&f.corpus, "corpus", "", "compare every capture in `DIR` under --a-policy and --b-policy")
	fs.BoolVar(&f.all, "all", false, "list equal rows too (with --corpus: equal cases too)")
	fs.BoolVar(&f.asJSON, "json", false, "print the comparison as JSON (schema "+sanitize.DiffSchema+")")
	fs.IntVar(&f.lines, "lines", sanitize.DefaultTextDiffLines, "how many differing lines of cleaned text to show")
	f.policy = addPolicyFlags(fs)
	f.capture = addCaptureFlags(fs)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		code, err := runDiff(s, f, args)
		if err != nil {
			return diffTrouble(err)
		}
		if code != exitOK {
			return exitError{code}
		}
		return nil
	}
	return cmd
}

// diffTrouble makes err exit 2, as diff(1) does for anything that is not a
// difference; usage errors already do.
func diffTrouble(err error) error {
	var ue usageError
	if errors.As(err, &ue) {
		return err
	}
	return usageError{err}
}

// diffSide is one side of a comparison, loaded and cleaned.
type diffSide struct {
	// Name is the argument naming the input ("-" for stdin).
	Name string `json:"name"`
	// Kind is "capture" or "report".
	Kind string `json:"kind"`
	// Format is the capture format; Stream the stream compared.
	Format string `json:"format,omitempty"`
	Stream string `json:"stream,omitempty"`
	Policy string `json:"policy"`

	rep  sanitize.Report
	text []byte // nil for a report
}

// view returns the side as render.WriteReportDiff describes it.
func (d *diffSide) view() render.DiffSide {
	return render.DiffSide{Name: d.Name, Kind: d.Kind, Format: d.Format, Stream: d.Stream, Policy: d.Policy, HasText: d.text != nil}
}

// diffJSON is the --json form of a comparison of two inputs.
type diffJSON struct {
	Schema string   `json:"schema"`
	Equal  bool     `json:"equal"`
	A      diffSide `json:"a"`
	B      diffSide `json:"b"`
	sanitize.ReportDiff
}

// runDiff runs the diff command and returns its exit code; an error is
// trouble (exit 2).
func runDiff(s *streams, f *diffFlags, args []string) (int, error) {
	base := *f.policy
	aOpts, err := applyPolicy(base, f.aPolicy, "--a-policy")
	if err != nil {
		return 0, err
	}
	bOpts, err := applyPolicy(base, f.bPolicy, "--b-policy")
	if err != nil {
		return 0, err
	}
	if f.lines < 0 {
		return 0, usagef("--lines must not be negative")
	}
	if f.corpus != "" {
		if len(args) > 0 {
			return 0, usagef("--corpus takes no FILE arguments")
		}
		if f.capture.timing != "" {
			return 0, usagef("--timing cannot be used with --corpus")
		}
		return diffCorpus(s, f, base)
	}

	var a, b *diffSide
	switch len(args) {
	case 0:
		return 0, usagef("diff needs A and B, one FILE with --b-policy, or --corpus DIR")
	case 1:
		if f.aPolicy == "" && f.bPolicy == "" {
			return 0, hintError{usagef("one FILE is compared under two policies, and none was given"), "pass --b-policy, e.g. --b-policy cr=overwrite"}
		}
		in, err := loadDiffInput(s, args[0], f.capture, true)
		if err != nil {
			return 0, err
		}
		if in.reps != nil {
			return 0, usagef("%s is a report: policies apply to captures only", args[0])
		}
		defer in.c.Close()
		if a, err = cleanSide(in, f.capture.stream, aOpts, s.stderr); err != nil {
			return 0, err
		}
		if b, err = cleanSide(in, f.capture.stream, bOpts, render.NewWriter(io.Discard)); err != nil {
			return 0, err
		}
	case 2:
		if args[0] == "-" && args[1] == "-" {
			return 0, usagef("stdin can be only one of A and B")
		}
		if f.capture.timing != "" {
			return 0, usagef("--timing applies to one capture: compare it under two policies with --b-policy")
		}
		opts := [2]sanitize.Options{aOpts, bOpts}
		given := [2]string{f.aPolicy, f.bPolicy}
		var sides [2]*diffSide
		for i, name := range args {
			in, err := loadDiffInput(s, name, f.capture, false)
			if err != nil {
				return 0, err
			}
			if in.reps != nil {
				if given[i] != "" {
					return 0, usagef("--%c-policy applies to captures, and %s is a report", 'a'+i, name)
				}
				sides[i] = reportSide(in, f.capture.stream)
				if sides[i] == nil {
					return 0, usagef("report file %s has no stream %q", name, f.capture.stream)
				}
				continue
			}
			sides[i], err = cleanSide(in, f.capture.stream, opts[i], s.stderr)
			in.c.Close()
			if err != nil {
				return 0, err
			}
		}
		a, b = sides[0], sides[1]
	}

	d := sanitize.Compare(a.rep, b.rep)
	if a.text != nil && b.text != nil {
		t := sanitize.CompareText(a.text, b.text, max(f.lines, 1))
		if f.lines == 0 {
			t.Lines = t.Lines[:0]
		}
		d.Text = &t
	}
	code := exitOK
	if !d.Equal() {
		code = exitFailure
	}
	if f.asJSON {
		return code, writeJSON(s.stdout, diffJSON{sanitize.DiffSchema, d.Equal(), *a, *b, d})
	}
	if err := render.WriteReportDiff(s.out, a.view(), b.view(), &d, f.all); err != nil {
		return 0, err
	}
	return code, nil
}

// diffInput is a loaded input: a capture, or reports read from JSON.
type diffInput struct {
	name string
	c    *capture.Capture
	reps []sanitize.StreamReport // set for report JSON
}

// loadDiffInput loads name ("-" is stdin) as report JSON or as a capture.
// withTiming passes --timing to the capture loader.
func loadDiffInput(s *streams, name string, cf *captureFlags, withTiming bool) (*diffInput, error) {
	opts := capture.OpenOptions{Format: cf.format}
	if withTiming {
		opts.Timing = cf.timing
	}
	in := &diffInput{name: name}
	if name == "-" {
		b, err := readStdin(s.stdin)
		if err != nil {
			return nil, err
		}
		if cf.format == "" {
			if ok, err := in.readReport(b); ok || err != nil {
				return in, err
			}
		}
		if in.c, err = capture.Load(bytes.NewReader(b), int64(len(b)), opts); err != nil {
			return nil, err
		}
		return in, nil
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, fileError(name, err)
	}
	if st.IsDir() {
		return nil, hintError{render.Errorf("%s is a directory, not a capture", name), "compare a directory of captures with --corpus DIR --b-policy P"}
	}
	if cf.format == "" && st.Size() <= maxReportFile && diffLooksLikeJSON(name) {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fileError(name, err)
		}
		if ok, err := in.readReport(b); ok || err != nil {
			return in, err
		}
	}
	if in.c, err = capture.Open(name, opts); err != nil {
		if errors.Is(err, capture.ErrUnknownFormat) {
			return nil, usageError{err}
		}
		return nil, fileError(name, err)
	}
	return in, nil
}

// diffLooksLikeJSON reports whether the file's first non-space byte opens a
// JSON object or array, reading a few bytes only.
func diffLooksLikeJSON(name string) bool {
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

// readReport takes b as report JSON when it is one (sanitize.ReadReports):
// it returns false for anything else, and an error for a bad report.
func (in *diffInput) readReport(b []byte) (bool, error) {
	reps, err := sanitize.ReadReports(b)
	if errors.Is(err, sanitize.ErrNotReport) {
		return false, nil
	}
	if err != nil {
		return false, render.Errorf("%s: %v", in.name, err)
	}
	in.reps = reps
	return true, nil
}

// reportSide returns the side of a report input: the stream's report (the
// first unless stream names one); nil when stream names none of them.
func reportSide(in *diffInput, stream string) *diffSide {
	r, ok := sanitize.PickReport(in.reps, stream)
	if !ok {
		return nil
	}
	return &diffSide{Name: in.name, Kind: "report", Stream: r.Stream, Policy: r.Policy, rep: r.Report}
}

// cleanSide cleans one stream of the capture under opts: the one stream
// names, or the first. Loader notes go to notes.
func cleanSide(in *diffInput, stream string, opts sanitize.Options, notes *render.Writer) (*diffSide, error) {
	c := in.c
	var st *capture.Stream
	if stream != "" {
		sts, err := pickStreams(c, stream)
		if err != nil {
			return nil, err
		}
		st = sts[0]
	} else {
		if len(c.Streams) == 0 {
			return nil, render.Errorf("%s: capture has no stream", in.name)
		}
		st = &c.Streams[0]
		if len(c.Streams) > 1 {
			notes.Printf("bytelens: note: %s has %d streams; comparing %s (--stream picks another)\n", in.name, len(c.Streams), st.Name)
		}
	}
	warnCapture(notes, c)
	var text bytes.Buffer
	rep, err := capture.Clean(&text, st, opts)
	if err != nil {
		return nil, err
	}
	return &diffSide{
		Name: in.name, Kind: "capture", Format: c.Format.String(), Stream: st.Name,
		Policy: rep.Policy, rep: rep, text: text.Bytes(),
	}, nil
}

// diffCorpus compares every capture of the --corpus directory.
func diffCorpus(s *streams, f *diffFlags, base sanitize.Options) (int, error) {
	co := capture.CorpusOptions{Format: f.capture.format, Stream: f.capture.stream, Base: base, A: f.aPolicy, B: f.bPolicy, Lines: f.lines}
	out, err := capture.CompareCorpus(f.corpus, co, f.all, func(name string, err error) {
		s.stderr.Printf("bytelens: error: %s: %v\n", name, err)
	})
	if err != nil {
		return 0, fileError(f.corpus, err)
	}
	code := exitOK
	switch {
	case out.Failed > 0:
		code = exitUsage
	case out.Changed > 0:
		code = exitFailure
	}
	if f.asJSON {
		return code, writeJSON(s.stdout, out)
	}
	return code, render.WriteCorpusDiff(s.out, &out)
}
