package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/viewer"
)

// defaultStdinLimit is how many bytes of stdin bytelens view spools to a
// temporary file before it gives up.
const defaultStdinLimit = 1 << 30

func newViewCmd(s *streams) *cobra.Command {
	var hidePayloads, ascii bool
	var stdinLimit int64
	var compareFile, comparePolicy string
	cmd := &cobra.Command{
		Use:     "view [FILE|-] [--compare B | --compare-policy SETTINGS]",
		Short:   "Inspect a capture safely: hex, escaped glyphs and cleaned text side by side",
		Long:    help("view"),
		Example: help("view.example"),
		Args:    cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cf := addCaptureFlags(cmd.Flags())
	cmd.Flags().BoolVar(&hidePayloads, "hide-payloads", false, "draw the payload bytes of control strings as ░ instead of escaped")
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw glyphs from ASCII only, for fonts without Control Pictures")
	cmd.Flags().Int64Var(&stdinLimit, "stdin-limit", defaultStdinLimit, "the most bytes of stdin to read for \"-\"")
	cmd.Flags().StringVar(&compareFile, "compare", "", "compare with capture `B` under the same policy")
	cmd.Flags().StringVar(&comparePolicy, "compare-policy", "", "compare with the same capture under these `SETTINGS` on top of the policy flags, e.g. cr=overwrite")
	cmd.RunE = func(c *cobra.Command, args []string) error {
		opts := *pf
		cmp, err := compareOptions(c, opts, compareFile, comparePolicy, args)
		if err != nil {
			return err
		}
		capt, name, check, cleanup, err := openView(s, args, cf, stdinLimit)
		if err != nil {
			return err
		}
		defer cleanup()
		if compareFile != "" {
			b, bName, bCheck, bCleanup, err := openView(s, []string{compareFile}, cf, stdinLimit)
			if err != nil {
				return err
			}
			defer bCleanup()
			cmp.Capture, cmp.Name, cmp.Check = b, bName, bCheck
		}
		out, ok := s.stdout.(*os.File)
		if !ok || !isatty.IsTerminal(out.Fd()) && !isatty.IsCygwinTerminal(out.Fd()) {
			return hintError{errors.New("view needs a terminal on stdout"), "to dump a capture, use bytelens clean or bytelens report"}
		}
		warnCapture(s.stderr, capt)
		if cmp != nil && cmp.Capture != nil {
			warnCapture(s.stderr, cmp.Capture)
		}
		return viewer.Run(capt, viewer.Options{
			Compare:      cmp,
			Name:         name,
			Stream:       cf.stream,
			Sanitize:     opts,
			HidePayloads: hidePayloads,
			ASCII:        ascii,
			NoColor:      os.Getenv("NO_COLOR") != "",
			Check:        check,
		})
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
		return nil, hintError{usagef("--compare-policy needs settings"), "for example --compare-policy cr=overwrite,format-chars=keep"}
	case byPolicy:
		o, err := applyPolicy(base, settings, "--compare-policy")
		if err != nil {
			return nil, err
		}
		return &viewer.Compare{Name: settings, Sanitize: o}, nil
	}
	return nil, nil
}

// openView loads what view shows: the demo with no argument, stdin
// spooled to a temporary file for "-", or a file or reference. check
// notices a file that changed size since it was opened; cleanup closes the
// capture and removes the spool file.
func openView(s *streams, args []string, cf *captureFlags, stdinLimit int64) (c *capture.Capture, name string, check func() error, cleanup func(), err error) {
	cleanup = func() {}
	switch {
	case len(args) == 0:
		c, err = viewer.Demo()
		return c, "demo (bytelens view with no FILE)", nil, cleanup, err
	case args[0] == "-":
		c, err = capture.OpenSpooled(s.stdin, stdinLimit, cf.open())
		if errors.Is(err, capture.ErrInputTooLarge) {
			err = hintError{render.Errorf("stdin: %w", err), "save it to a file and view the file, or raise --stdin-limit"}
		}
		if err != nil {
			return nil, "stdin", nil, cleanup, err
		}
		name = "stdin"
	default:
		name = args[0]
		var before os.FileInfo
		if before, err = os.Stat(name); err == nil && !before.IsDir() && !before.Mode().IsRegular() {
			return nil, name, nil, cleanup, hintError{render.Errorf("%s is not a regular file", name), "read it through stdin: bytelens view - < " + name}
		}
		var in *capture.Input
		if in, err = openInput(s, args, cf, false); err != nil {
			return nil, name, nil, cleanup, err
		}
		c = in.Capture
		if before != nil {
			check = func() error {
				after, err := os.Stat(name)
				if err != nil || after.Size() != before.Size() {
					size := "gone"
					if err == nil {
						size = fmt.Sprintf("%d bytes", after.Size())
					}
					return render.Errorf("%w: %s was %d bytes when opened and is now %s", viewer.ErrChanged, name, before.Size(), size)
				}
				return nil
			}
		}
	}
	cleanup = func() { c.Close() }
	return c, name, check, cleanup, nil
}
