package main

import (
	"github.com/bytelens/bytelens/diff"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func newDiffCmd(s *streams) *cobra.Command {
	var r diff.Request
	var asJSON bool
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
	fs.StringVar(&r.APolicy, "a-policy", "", "policy settings for side A on top of the policy flags, e.g. cr=drop")
	fs.StringVar(&r.BPolicy, "b-policy", "", "policy settings for side B on top of the policy flags, e.g. cr=overwrite,format-chars=keep")
	fs.StringVar(&r.Corpus, "corpus", "", "compare every capture in `DIR` under --a-policy and --b-policy")
	fs.BoolVar(&r.All, "all", false, "list equal rows too (with --corpus: equal cases too)")
	fs.BoolVar(&asJSON, "json", false, "print the comparison as JSON (schema "+sanitize.DiffSchema+")")
	fs.IntVar(&r.Lines, "lines", sanitize.DefaultTextDiffLines, "how many differing lines of cleaned text to show")
	policy := addPolicyFlags(fs)
	cf := addCaptureFlags(fs)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		r.Base, r.Open, r.Stream, r.Stdin, r.Notes, r.Warn = *policy, cf.open(), cf.stream, s.stdin, s.stderr, warnCapture
		r.Progress = func(label render.Safe, total int64) diff.Meter { return iostreams.NewProgress(s.tty, label, total) }
		out, err := diff.Run(args, r)
		if err == nil && asJSON {
			err = writeJSON(s.stdout, out)
		} else if err == nil {
			err = out.WriteText(s.out, r.All)
		}
		switch {
		case err != nil:
			return usageError{err} // trouble exits 2, as in diff(1)
		case out.ExitCode() != command.ExitOK:
			return exitError{out.ExitCode()}
		}
		return nil
	}
	return cmd
}
