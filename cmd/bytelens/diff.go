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
	cmd := withHelp("diff", &cobra.Command{
		Use:  "diff [flags] A B | FILE --b-policy P | --corpus DIR --b-policy P",
		Args: cobra.MaximumNArgs(2),
	})
	fs := cmd.Flags()
	fs.StringVar(&r.APolicy, "a-policy", "", "policy settings for side A on top of the policy flags, e.g. cr=drop")
	fs.StringVar(&r.BPolicy, "b-policy", "", "policy settings for side B on top of the policy flags, e.g. cr=overwrite,format-chars=keep")
	fs.StringVar(&r.Corpus, "corpus", "", "compare every capture in `DIR` under --a-policy and --b-policy")
	fs.BoolVar(&r.All, "all", false, "list equal rows too (with --corpus: equal cases too)")
	fs.BoolVar(&asJSON, "json", false, "print the comparison as JSON (schema "+sanitize.DiffSchema+")")
	fs.IntVar(&r.Lines, "lines", sanitize.DefaultTextDiffLines, "how many differing lines of cleaned text to show")
	policy := addPolicyFlags(fs)
	cf := command.CaptureFlags(fs, s.stdin, keys.OpenStore)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		r.Base, r.Open, r.Stream, r.Notes, r.Warn = *policy, cf.ArgOptions(), cf.Stream, s.stderr, warnCapture
		r.Progress = func(label render.Safe, total int64) diff.Meter { return iostreams.NewProgress(s.tty, label, total) }
		out, err := diff.Run(args, r)
		switch {
		case err != nil:
		case asJSON:
			err = writeJSON(s.stdout, out)
		default:
			err = out.WriteText(s.out, r.All)
		}
		switch {
		case err != nil:
			return command.UsageError{Err: err} // trouble exits 2, as in diff(1)
		case out.ExitCode() != command.ExitOK:
			return command.ExitError{Code: out.ExitCode()}
		}
		return nil
	}
	return cmd
}
