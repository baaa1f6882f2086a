package diff

import (
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// Meter counts the bytes read through it and shows them to a person
// (iostreams.Progress, whose nil value counts nothing).
type Meter interface {
	ReaderAt(r io.ReaderAt) io.ReaderAt
	Finish()
}

// Request is a comparison as bytelens diff asks for it: two inputs, one
// capture under two policies, or a corpus directory.
type Request struct {
	// Base is the policy of both sides; APolicy and BPolicy are key=value
	// settings (sanitize.Options.Apply) on top of it for side A and B.
	Base             sanitize.Options
	APolicy, BPolicy string
	// Open says how captures are loaded, and where stdin ("-") and
	// restricted references are read from; Stream names the stream
	// compared ("" for the first).
	Open   capture.ArgOptions
	Stream string
	// Corpus, when set, is the directory whose captures are compared
	// (capture.CompareCorpus), All listing equal cases too.
	Corpus string
	All    bool
	// Lines is how many differing lines of cleaned text to keep.
	Lines int
	// Notes (not nil) takes notes for people: which stream was taken,
	// the capture's own notes (Warn), a corpus case that failed.
	Notes *render.Writer
	// Warn, when not nil, prints a capture's notes and warnings on w.
	Warn func(w *render.Writer, c *capture.Capture)
	// Progress, when not nil, returns the meter of cleaning a side of
	// total bytes.
	Progress func(label render.Safe, total int64) Meter
}

// Outcome is what Run found: a *Result, or a *CorpusResult for
// Request.Corpus. Its JSON form is that of bytelens diff --json.
type Outcome interface {
	// ExitCode is diff(1)'s: 0 when equal, 1 when different, 2 when a
	// corpus case could not be read.
	ExitCode() int
	// WriteText prints the outcome for people, every row or case with
	// all, else those that differ. It returns w.Err().
	WriteText(w *render.Writer, all bool) error
}

// Run compares what args name as r says: with r.Corpus, every capture of
// the directory and no args; else two inputs A and B (a capture or a
// report JSON file each, "-" stdin for one of them), or one capture
// under A's and B's policies. Errors are trouble, exit 2 in diff(1)'s
// terms: a bad request (naming the flag at fault), a missing or
// unreadable file (render.FileError), a bad report, a stream that is not
// there.
func Run(args []string, r Request) (Outcome, error) {
	aOpts, bOpts := r.Base, r.Base
	if err := aOpts.Apply(r.APolicy); err != nil {
		return nil, render.Errorf("--a-policy: %v", err)
	}
	if err := bOpts.Apply(r.BPolicy); err != nil {
		return nil, render.Errorf("--b-policy: %v", err)
	}
	switch {
	case r.Lines < 0:
		return nil, render.Errorf("--lines must not be negative")
	case r.Corpus != "" && len(args) > 0:
		return nil, render.Errorf("--corpus takes no FILE arguments")
	case r.Corpus != "" && r.Open.Timing != "":
		return nil, render.Errorf("--timing cannot be used with --corpus")
	case r.Corpus != "":
		return r.corpus()
	case len(args) == 0:
		return nil, render.Errorf("diff needs A and B, one FILE with --b-policy, or --corpus DIR")
	case len(args) == 1 && r.APolicy == "" && r.BPolicy == "":
		return nil, render.HintError{Err: render.Errorf("one FILE is compared under two policies, and none was given"), Tip: "pass --b-policy, e.g. --b-policy cr=overwrite"}
	case len(args) == 2 && args[0] == "-" && args[1] == "-":
		return nil, render.Errorf("stdin can be only one of A and B")
	case len(args) == 2 && r.Open.Timing != "":
		return nil, render.Errorf("--timing applies to one capture: compare it under two policies with --b-policy")
	}
	var sides [2]*Side
	if len(args) == 1 {
		in, err := r.load(args[0])
		if err != nil {
			return nil, err
		}
		defer in.Close()
		if in.Reports != nil {
			return nil, render.Errorf("%s is a report: policies apply to captures only", args[0])
		}
		if sides[0], err = r.clean(in, aOpts, r.Notes); err != nil {
			return nil, err
		}
		if sides[1], err = r.clean(in, bOpts, render.NewWriter(io.Discard)); err != nil {
			return nil, err
		}
	} else if err := r.each(args, [2]sanitize.Options{aOpts, bOpts}, &sides); err != nil {
		return nil, err
	}
	return Compare(sides[0], sides[1], r.Lines), nil
}

// each makes sides from two inputs, the captures cleaned under opts.
func (r Request) each(args []string, opts [2]sanitize.Options, sides *[2]*Side) error {
	given := [2]string{r.APolicy, r.BPolicy}
	for i, name := range args {
		in, err := r.load(name)
		if err != nil {
			return err
		}
		switch {
		case in.Reports != nil && given[i] != "":
			err = render.Errorf("--%c-policy applies to captures, and %s is a report", 'a'+i, name)
		case in.Reports != nil:
			sides[i], err = in.ReportSide(r.Stream)
		default:
			sides[i], err = r.clean(in, opts[i], r.Notes)
		}
		in.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// load loads name with Load, its file errors worded for a person.
func (r Request) load(name string) (*Input, error) {
	in, err := Load(name, r.Open)
	if err != nil {
		return nil, render.FileError(name, err)
	}
	return in, nil
}

// clean cleans the stream of in that r.Stream names (or the first)
// under opts, counted by a meter; notes get the note on which stream was
// taken and the capture's own notes.
func (r Request) clean(in *Input, opts sanitize.Options, notes *render.Writer) (*Side, error) {
	st, err := in.Stream(r.Stream, notes)
	if err != nil {
		return nil, err
	}
	if r.Warn != nil {
		r.Warn(notes, in.Capture)
	}
	if r.Progress != nil {
		m := r.Progress(render.Sprintf("comparing %s", in.Name), st.Len)
		defer m.Finish()
		st = st.Through(m.ReaderAt)
	}
	return in.Clean(st, opts)
}

// ExitCode is 0 when the sides are equal, else 1.
func (r *Result) ExitCode() int {
	if r.Equal {
		return 0
	}
	return 1
}

// CorpusResult is the comparison of a corpus directory.
type CorpusResult struct{ capture.CorpusDiff }

// ExitCode is 2 when a case could not be read, else 1 when some case
// changed, else 0.
func (c *CorpusResult) ExitCode() int {
	switch {
	case c.Failed > 0:
		return 2
	case c.Changed > 0:
		return 1
	}
	return 0
}

// WriteText prints the cases listed that could be read, one line each,
// its name and summary in columns, then "N cases, M changed" (and ", K
// failed" when some failed); all was applied when they were compared.
// It returns w.Err().
func (c *CorpusResult) WriteText(w *render.Writer, _ bool) error {
	tw := w.Columns(2, 8, 2)
	for _, cc := range c.Cases {
		if cc.Error.IsZero() {
			tw.Printf("%s\t%s\n", cc.Name, cc.Summary)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	w.Printf("%d cases, %d changed", c.Total, c.Changed)
	if c.Failed > 0 {
		w.Printf(", %d failed", c.Failed)
	}
	return w.Printf("\n")
}

// corpus compares every capture of r.Corpus, naming on r.Notes each case
// that could not be read.
func (r Request) corpus() (Outcome, error) {
	co := capture.CorpusOptions{Format: r.Open.Format, Stream: r.Stream, Base: r.Base, A: r.APolicy, B: r.BPolicy, Lines: r.Lines}
	out, err := capture.CompareCorpus(r.Corpus, co, r.All, func(name string, err error) {
		r.Notes.Printf("bytelens: error: %s: %v\n", name, err)
	})
	if err != nil {
		return nil, render.FileError(r.Corpus, err)
	}
	return &CorpusResult{out}, nil
}
