package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/viewer"
)

func init() { subcommands = append(subcommands, newViewCmd) }

// defaultStdinLimit is how many bytes of stdin bytelens view spools to a
// temporary file before it gives up.
const defaultStdinLimit = 1 << 30

func newViewCmd(s *streams) *cobra.Command {
	var hidePayloads, ascii bool
	var stdinLimit int64
	cmd := &cobra.Command{
		Use:   "view [FILE|-]",
		Short: "Inspect a capture safely: hex, escaped glyphs and cleaned text side by side",
		Long: `View opens a terminal capture in an interactive viewer: a hex pane, a pane of
escaped glyphs (one per byte), the cleaned text, and the removal report, all
following one cursor, with every escape sequence's boundaries marked. Nothing
from the capture reaches the terminal unescaped.

FILE is loaded by format (raw bytes, asciinema casts, ttyrec, script
typescripts, CI logs, bytelens artifacts or restricted:sha256 references;
--format overrides sniffing). "-" reads stdin into a temporary file first (up
to --stdin-limit bytes). With no FILE, view opens a demo capture that holds
one of each hazard. Press ? inside the viewer for the keys.`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cf := addCaptureFlags(cmd.Flags())
	cmd.Flags().BoolVar(&hidePayloads, "hide-payloads", false, "draw the payload bytes of control strings as ░ instead of escaped")
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw glyphs from ASCII only, for fonts without Control Pictures")
	cmd.Flags().Int64Var(&stdinLimit, "stdin-limit", defaultStdinLimit, "the most bytes of stdin to read for \"-\"")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := pf.options()
		if err != nil {
			return err
		}
		c, name, check, cleanup, err := openView(s, args, cf, stdinLimit)
		if err != nil {
			return err
		}
		defer cleanup()
		out, ok := s.stdout.(*os.File)
		if !ok || !isatty.IsTerminal(out.Fd()) && !isatty.IsCygwinTerminal(out.Fd()) {
			return hintError{errors.New("view needs a terminal on stdout"), "to dump a capture, use bytelens clean or bytelens report"}
		}
		warnCapture(s.stderr, c)
		return viewer.Run(c, viewer.Options{
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
		path, err := spool(s.stdin, stdinLimit)
		if err != nil {
			return nil, "stdin", nil, cleanup, err
		}
		c, err = capture.Open(path, capture.OpenOptions{Format: cf.format, Timing: cf.timing})
		os.Remove(path) // the open file stays readable
		if err != nil {
			return nil, "stdin", nil, cleanup, err
		}
		name = "stdin"
	default:
		name = args[0]
		var before os.FileInfo
		if before, err = os.Stat(name); err == nil && !before.IsDir() && !before.Mode().IsRegular() {
			return nil, name, nil, cleanup, hintError{fmt.Errorf("%s is not a regular file", displayName(name)), "read it through stdin: bytelens view - < " + displayName(name)}
		}
		if c, _, _, err = openCapture(s, args, cf); err != nil {
			return nil, name, nil, cleanup, err
		}
		if before != nil {
			check = func() error {
				after, err := os.Stat(name)
				if err != nil || after.Size() != before.Size() {
					size := "gone"
					if err == nil {
						size = fmt.Sprintf("%d bytes", after.Size())
					}
					return fmt.Errorf("%w: %s was %d bytes when opened and is now %s", viewer.ErrChanged, displayName(name), before.Size(), size)
				}
				return nil
			}
		}
	}
	cleanup = func() { c.Close() }
	var total int64
	for _, st := range c.Streams {
		total += st.Len
	}
	if total == 0 {
		cleanup()
		return nil, name, nil, func() {}, fmt.Errorf("%s is empty: nothing to view", displayName(name))
	}
	return c, name, check, cleanup, nil
}

// spool copies r into a new temporary file of at most limit bytes and
// returns its path.
func spool(r io.Reader, limit int64) (string, error) {
	f, err := os.CreateTemp("", "bytelens-view-*.bin")
	if err != nil {
		return "", fmt.Errorf("spooling stdin: %w", err)
	}
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		os.Remove(f.Name())
		return "", fmt.Errorf("spooling stdin: %w", err)
	case n > limit:
		os.Remove(f.Name())
		return "", hintError{fmt.Errorf("stdin holds more than %d bytes", limit), "save it to a file and view the file, or raise --stdin-limit"}
	}
	return f.Name(), nil
}
