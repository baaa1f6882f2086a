package main

import (
	"context"
	"errors"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
	"github.com/spf13/cobra"
)

type excerptFlags struct {
	lines string
	json  bool
	excerpt.Query
}

func newExcerptCmd(s *streams) *cobra.Command {
	f := &excerptFlags{}
	cmd := withHelp("excerpt", &cobra.Command{
		Use:  "excerpt REF (--lines FROM:TO | --grep PATTERN [-C N]) [--stream NAME] [--json]",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runExcerpt(cmd.Context(), s, f, args[0]) },
	})
	fs := cmd.Flags()
	fs.StringVar(&f.lines, "lines", "", "line range `FROM:TO`")
	fs.StringVar(&f.Grep.Pattern, "grep", "", "show the lines matching `PATTERN`")
	fs.BoolVar(&f.Grep.Regex, "regex", false, "PATTERN is an RE2 regular expression")
	fs.IntVarP(&f.Grep.Context, "context", "C", 0, "`N` lines of context around each match (at most 10)")
	fs.Int64Var(&f.Grep.Cursor, "cursor", 0, "continue a search at line `N` (the next: of the previous call)")
	fs.StringVar(&f.Stream, "stream", "stdout", "the stream `NAME`: stdout or stderr")
	fs.BoolVar(&f.Report, "report", false, "with --lines, print the range's removal report")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	return cmd
}

func runExcerpt(ctx context.Context, s *streams, f *excerptFlags, refArg string) error {
	g := f.Grep
	switch {
	case (f.lines == "") == (g.Pattern == "") || f.Report && f.lines == "":
		return usagef("give --lines FROM:TO or --grep PATTERN (--report goes with --lines)")
	case f.lines != "" && (g.Regex || g.Context != 0 || g.Cursor != 0):
		return usagef("--regex, -C and --cursor go with --grep, not --lines")
	case f.lines != "":
		var err error
		if f.From, f.To, err = excerpt.ParseLines(f.lines); err != nil {
			return usagef("--lines wants FROM:TO line numbers from 1, such as 120:180")
		}
	}
	st, ref, err := keys.OpenRef(refArg)
	if err != nil {
		return err
	}
	rec, err := excerpt.Open(st, ref)
	if err != nil {
		return excerptError(err, st.Has(ref))
	}
	a, err := rec.Query(ctx, f.Query)
	switch {
	case err != nil:
		return excerptError(err, st.Has(ref))
	case f.json: // one line of JSON
		enc := safejson.NewEncoder(s.stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(a)
	}
	return a.WriteText(s.out)
}

// excerptError adds the way out to a record not found, which depends on
// whether the store still holds its raw artifact, raw (usage errors come
// from errorKinds).
func excerptError(err error, raw bool) error {
	switch {
	case !errors.Is(err, store.ErrNotFound):
		return err
	case raw:
		return render.HintError{Err: err, Tip: "the record was written without cleaned text or it was pruned; bytelens view REF reads the raw artifact"}
	}
	return render.HintError{Err: err, Tip: "the store holds neither cleaned text nor a raw artifact for it: pruned, or written to another store (check " + store.EnvStore + ")"}
}
