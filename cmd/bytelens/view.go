package main

import (
	"errors"
	"os"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/viewer"
	"github.com/spf13/cobra"
)

// defaultStdinLimit is how many bytes of stdin bytelens view spools to a
// temporary file before it gives up.
const defaultStdinLimit = 1 << 30

func newViewCmd(s *streams) *cobra.Command {
	var hidePayloads, ascii bool
	var stdinLimit int64
	var compareFile, comparePolicy string
	cmd := withHelp("view", &cobra.Command{
		Use:  "view [FILE|-] [--compare B | --compare-policy SETTINGS]",
		Args: cobra.MaximumNArgs(1),
	})
	pf := addPolicyFlags(cmd.Flags())
	cf := command.CaptureFlags(cmd.Flags(), s.stdin, keys.OpenStore)
	cmd.Flags().BoolVar(&hidePayloads, "hide-payloads", false, "draw the payload bytes of control strings as ░ instead of escaped")
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw glyphs from ASCII only, for fonts without Control Pictures")
	cmd.Flags().Int64Var(&stdinLimit, "stdin-limit", defaultStdinLimit, "the most bytes of stdin to read for \"-\"")
	cmd.Flags().StringVar(&compareFile, "compare", "", "compare with capture `B` under the same policy")
	cmd.Flags().StringVar(&comparePolicy, "compare-policy", "", "compare with the same capture under these `SETTINGS` on top of the policy flags, e.g. cr=overwrite")
	cmd.RunE = func(c *cobra.Command, args []string) error {
		cmp, err := compareOptions(c, *pf, compareFile, comparePolicy, args)
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
		if compareFile != "" {
			b, err := openView(compareFile, open)
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

// compareOptions returns what --compare and --compare-policy ask for, nil
// for neither, or a usage error. base is the policy of the flags; B's
// capture is opened later.
func compareOptions(c *cobra.Command, base sanitize.Options, file, settings string, args []string) (*viewer.Compare, error) {
	byFile, byPolicy := c.Flags().Changed("compare"), c.Flags().Changed("compare-policy")
	switch {
	case byFile && byPolicy:
		return nil, usagef("--compare and --compare-policy cannot be used together: compare two captures, or one capture under two policies")
	case byFile && file == "":
		return nil, usagef("--compare needs a capture to compare with")
	case byFile && file == "-" && len(args) > 0 && args[0] == "-":
		return nil, usagef("stdin can be only one of FILE and --compare")
	case byFile:
		return &viewer.Compare{Sanitize: base}, nil
	case byPolicy && strings.TrimSpace(settings) == "":
		return nil, render.HintError{Err: usagef("--compare-policy needs settings"), Tip: "for example --compare-policy cr=overwrite,format-chars=keep"}
	case byPolicy:
		o, err := applyPolicy(base, settings, "--compare-policy")
		if err != nil {
			return nil, err
		}
		return &viewer.Compare{Name: settings, Sanitize: o}, nil
	}
	return nil, nil
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
