package main

import (
	"errors"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/viewer"
	"github.com/spf13/cobra"
)

// defaultStdinLimit is how many bytes of stdin bytelens view spools to a
// temporary file before it gives up.
const defaultStdinLimit = 1 << 30

func newViewCmd(s *streams) *cobra.Command {
	var hidePayloads, ascii bool
	var stdinLimit int64
	cmd := withHelp("view", &cobra.Command{
		Use:  "view [FILE|-] [--compare B | --compare-policy SETTINGS]",
		Args: cobra.MaximumNArgs(1),
	})
	pf := addPolicyFlags(cmd.Flags())
	cf := command.CaptureFlags(cmd.Flags(), s.stdin, keys.OpenStore)
	cmd.Flags().BoolVar(&hidePayloads, "hide-payloads", false, "draw the payload bytes of control strings as ░ instead of escaped")
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw glyphs from ASCII only, for fonts without Control Pictures")
	cmd.Flags().Int64Var(&stdinLimit, "stdin-limit", defaultStdinLimit, "the most bytes of stdin to read for \"-\"")
	cmpf := command.CompareFlags(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		cmp, err := cmpf.Options(*pf, args)
		if err != nil {
			return err
		}
		open := viewer.OpenOptions{Stdin: s.stdin, StdinLimit: stdinLimit, Capture: cf.Options(), File: func(arg string) (*capture.Capture, error) {
			in, err := cf.OpenArg([]string{arg}, capture.ArgOptions{})
			if err != nil {
				return nil, err
			}
			return in.Capture, nil
		}}
		a, err := openView(append(args, "")[0], open)
		if err != nil {
			return err
		}
		defer a.Capture.Close()
		if cmpf.File != "" {
			b, err := openView(cmpf.File, open)
			if err != nil {
				return err
			}
			defer b.Capture.Close()
			cmp.Capture, cmp.Name, cmp.Check = b.Capture, b.Name, b.Check
		}
		if iostreams.Terminal(s.stdout) == nil {
			return render.HintError{Err: errors.New("view needs a terminal on stdout"), Tip: "to dump a capture, use bytelens clean or bytelens report"}
		}
		warnCapture(s.stderr, a.Capture)
		if cmp != nil && cmp.Capture != nil {
			warnCapture(s.stderr, cmp.Capture)
		}
		return viewer.Run(a.Capture, viewer.Options{Compare: cmp, Name: a.Name, Stream: cf.Stream, Sanitize: *pf,
			HidePayloads: hidePayloads, ASCII: ascii, NoColor: os.Getenv("NO_COLOR") != "", Check: a.Check})
	}
	return cmd
}

// openView is viewer.Open with the hints of bytelens view.
func openView(arg string, o viewer.OpenOptions) (*viewer.Input, error) {
	in, err := viewer.Open(arg, o)
	switch {
	case errors.Is(err, capture.ErrInputTooLarge):
		return nil, render.HintError{Err: err, Tip: "save it to a file and view the file, or raise --stdin-limit"}
	case errors.Is(err, capture.ErrNotRegular):
		return nil, render.HintError{Err: err, Tip: "read it through stdin: bytelens view - < " + arg}
	}
	return in, err
}
