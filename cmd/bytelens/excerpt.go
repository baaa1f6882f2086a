package main

import (
	"errors"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/safejson"
	"github.com/spf13/cobra"
)

type excerptFlags struct {
	lines, grep, stream string
	context             int
	cursor              int64
	regex, json, report bool
}

func newExcerptCmd(s *streams) *cobra.Command {
	f := &excerptFlags{}
	cmd := &cobra.Command{
		Use:     "excerpt REF (--lines FROM:TO | --grep PATTERN [-C N]) [--stream NAME] [--json]",
		Short:   "Show cleaned lines of a record by line range or search, each with its raw byte span",
		Long:    help("excerpt"),
		Example: help("excerpt.example"),
		Args:    cobra.ExactArgs(1),
		RunE:    func(_ *cobra.Command, args []string) error { return runExcerpt(s, f, args[0]) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.lines, "lines", "", "line range `FROM:TO`")
	fs.StringVar(&f.grep, "grep", "", "show the lines matching `PATTERN`")
	fs.BoolVar(&f.regex, "regex", false, "PATTERN is an RE2 regular expression")
	fs.IntVarP(&f.context, "context", "C", 0, "`N` lines of context around each match (at most 10)")
	fs.Int64Var(&f.cursor, "cursor", 0, "continue a search at line `N` (the next: of the previous call)")
	fs.StringVar(&f.stream, "stream", "stdout", "the stream `NAME`: stdout or stderr")
	fs.BoolVar(&f.report, "report", false, "with --lines, print the range's removal report")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	return cmd
}

func runExcerpt(s *streams, f *excerptFlags, refArg string) error {
	ref, err := store.ParseRef(refArg)
	if err != nil {
		return err
	}
	if (f.lines == "") == (f.grep == "") || f.report && f.lines == "" {
		return usagef("give --lines FROM:TO or --grep PATTERN (--report goes with --lines)")
	}
	if f.lines != "" && (f.regex || f.context != 0 || f.cursor != 0) {
		return usagef("--regex, -C and --cursor go with --grep, not --lines")
	}
	st, err := openStore()
	if err != nil {
		return err
	}
	rec, err := excerpt.Open(st, ref)
	if err != nil {
		return excerptError(err)
	}
	var v any
	switch {
	case f.grep != "":
		v, err = rec.Grep(f.stream, excerpt.GrepOptions{Pattern: f.grep, Regex: f.regex, Context: f.context, Cursor: f.cursor})
	default:
		from, to, perr := excerpt.ParseLines(f.lines)
		if perr != nil {
			return usagef("--lines wants FROM:TO line numbers from 1, such as 120:180")
		}
		if f.report {
			v, err = rec.Report(f.stream, from, to)
		} else {
			v, err = rec.Lines(f.stream, from, to)
		}
	}
	if err != nil {
		return excerptError(err)
	}
	// Lines and matches print as text, a range's report as indented JSON;
	// --json prints either as one line of JSON.
	enc := safejson.NewEncoder(s.stdout)
	enc.SetEscapeHTML(false)
	ex, lines := v.(*excerpt.Excerpt)
	switch {
	case f.json:
	case lines:
		return ex.WriteText(s.out, f.grep != "")
	default:
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}

// excerptError adds the way out to a record not found (usage errors
// come from errorKinds).
func excerptError(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return hintError{err, "the record was written without cleaned text or it was pruned; bytelens view REF reads the raw artifact"}
	}
	return err
}
