package main

import (
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/diff"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
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
			return usageError{err} // trouble exits 2, as in diff(1)
		}
		if code != exitOK {
			return exitError{code}
		}
		return nil
	}
	return cmd
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

	var a, b *diff.Side
	switch len(args) {
	case 0:
		return 0, usagef("diff needs A and B, one FILE with --b-policy, or --corpus DIR")
	case 1:
		if f.aPolicy == "" && f.bPolicy == "" {
			return 0, hintError{usagef("one FILE is compared under two policies, and none was given"), "pass --b-policy, e.g. --b-policy cr=overwrite"}
		}
		in, err := loadDiffInput(s, args[0], f.capture)
		if err != nil {
			return 0, err
		}
		defer in.Close()
		if in.Reports != nil {
			return 0, usagef("%s is a report: policies apply to captures only", args[0])
		}
		if a, err = cleanSide(s, in, f.capture.stream, aOpts, s.stderr); err != nil {
			return 0, err
		}
		if b, err = cleanSide(s, in, f.capture.stream, bOpts, render.NewWriter(io.Discard)); err != nil {
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
		var sides [2]*diff.Side
		for i, name := range args {
			in, err := loadDiffInput(s, name, f.capture)
			if err != nil {
				return 0, err
			}
			switch {
			case in.Reports != nil && given[i] != "":
				err = usagef("--%c-policy applies to captures, and %s is a report", 'a'+i, name)
			case in.Reports != nil:
				sides[i], err = in.ReportSide(f.capture.stream)
			default:
				sides[i], err = cleanSide(s, in, f.capture.stream, opts[i], s.stderr)
			}
			in.Close()
			if err != nil {
				return 0, err
			}
		}
		a, b = sides[0], sides[1]
	}
	r := diff.Compare(a, b, f.lines)
	code := exitOK
	if !r.Equal {
		code = exitFailure
	}
	if f.asJSON {
		return code, writeJSON(s.stdout, r)
	}
	return code, r.WriteText(s.out, f.all)
}

// loadDiffInput loads name with diff.Load, the capture flags saying how
// (runDiff refuses --timing for two inputs), and words its errors for a
// person.
func loadDiffInput(s *streams, name string, cf *captureFlags) (*diff.Input, error) {
	in, err := diff.Load(name, s.stdin, cf.open())
	if err != nil {
		return nil, fileError(name, err)
	}
	return in, nil
}

// cleanSide cleans the stream of in that stream names (or the first)
// under opts, with a progress bar on a terminal; notes get the loader's
// note on which stream was taken and the capture's warnings.
func cleanSide(s *streams, in *diff.Input, stream string, opts sanitize.Options, notes *render.Writer) (*diff.Side, error) {
	st, err := in.Stream(stream, notes)
	if err != nil {
		return nil, usageError{err}
	}
	warnCapture(notes, in.Capture)
	p := iostreams.NewProgress(s.tty, render.Sprintf("comparing %s", in.Name), st.Len)
	defer p.Finish()
	return in.Clean(countStream(st, p), opts)
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
