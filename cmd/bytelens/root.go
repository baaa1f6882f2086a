package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/diff"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/extract"
	"github.com/bytelens/bytelens/hook"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/bytelens/bytelens/version"
	"github.com/spf13/cobra"
)

// Exit codes shared by every subcommand.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks an error as a usage error (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string          { return e.err.Error() }
func (e usageError) Unwrap() error          { return e.err }
func (e usageError) SafeError() render.Safe { return render.ErrorText(e.err) }

// usagef returns a usage error built like render.Errorf: its arguments
// are escaped.
func usagef(format render.Format, a ...any) error { return usageError{render.Errorf(format, a...)} }

// hintError carries a second line printed as "hint: ...". The hint is
// escaped when printed, like the error.
type hintError struct {
	err  error
	hint string
}

func (e hintError) Error() string          { return e.err.Error() }
func (e hintError) Unwrap() error          { return e.err }
func (e hintError) SafeError() render.Safe { return render.ErrorText(e.err) }
func (e hintError) Hint() string           { return e.hint }

// exitError lets a command choose its exit code without printing an error
// (diff exits 1 when inputs differ).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// errorKinds give the exit code and hint of an error that wraps one of
// these (errors.Is), for the packages' errors that mean the same on every
// command: bad input from the command line is a usage error (exit 2). A
// hintError or usageError a command wraps around an error comes first,
// and so does the hint of an error that has its own (a Hint method).
var errorKinds = []struct {
	err   error
	usage bool
	hint  string
}{
	{capture.ErrUnknownFormat, true, ""},
	{store.ErrBadRef, true, ""},
	{extract.ErrNoStream, true, ""},
	{excerpt.ErrRange, true, ""},
	{excerpt.ErrPattern, true, ""},
	{excerpt.ErrStream, true, ""},
	{hook.ErrInput, true, ""},
	{capture.ErrInputTooLarge, false, "save it to a file and pass the file"},
	{diff.ErrDirectory, false, "compare a directory of captures with --corpus DIR --b-policy P"},
	{store.ErrEncrypted, false, "the raw artifact is encrypted at rest: pass --identity FILE (or set " + seal.EnvIdentity + "); bytelens excerpt REF reads its cleaned text without the key"},
	{extract.ErrTerminal, false, "use bytelens extract --as hex or --as text to look at them, or bytelens view"},
	{exec.ErrNotFound, false, "check the command name and $PATH"},
}

// exitCode prints err on stderr, with its hint, and returns its exit
// code: exitError's own, 2 for a usage error, else 1.
func exitCode(stderr *render.Writer, err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	stderr.Printf("bytelens: error: %v\n", err)
	var hinted interface{ Hint() string }
	var ue usageError
	usage, hint := errors.As(err, &ue), ""
	if errors.As(err, &hinted) {
		hint = hinted.Hint()
	}
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			usage = usage || k.usage
			hint = cmp.Or(hint, k.hint)
		}
	}
	if hint != "" {
		stderr.Printf("hint: %s\n", hint)
	}
	if usage {
		return exitUsage
	}
	return exitFailure
}

// streams are the standard streams a command runs with. Messages for
// people go through out (on stdout) and stderr, which take only render's
// safe text (render.Sprintf escapes every argument), so that no name,
// field or error from elsewhere reaches the terminal unescaped. stdout
// carries a command's data only: cleaned text from sanitize, JSON from
// safejson, dumps from render. TestNoRawPrinting keeps fmt's printing
// functions out of this package.
type streams struct {
	stdin  io.Reader
	stdout io.Writer
	out    *render.Writer
	stderr *render.Writer
	// tty is stderr when it is a terminal, for progress bars; else nil.
	tty io.Writer
}

// subcommands are the constructors of bytelens's commands, in the order
// of the README. A new command is added here, not from an init function.
var subcommands = []func(s *streams) *cobra.Command{
	newCleanCmd, newReportCmd, newRunCmd, newViewCmd, newHexCmd, newGlyphsCmd,
	newDiffCmd, newScreenCmd, newExtractCmd, newVerifyCmd, newStoreCmd,
	newExcerptCmd, newMCPCmd, newHookCmd, newVersionCmd,
}

func newRoot(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "bytelens",
		Short:         "Clean, collect and inspect untrusted terminal output",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version.Current().Safe().String(),
		// Man pages carry no generation date, so that docs/man changes
		// only when the commands do.
		DisableAutoGenTag: true,
	}
	root.SetVersionTemplate("bytelens {{.Version}}\n")
	root.SetIn(s.stdin)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addKeyFlags(root.PersistentFlags()) // keys.go
	for _, mk := range subcommands {
		root.AddCommand(mk(s))
	}
	typedArgErrors(root)
	registerCompletions(root)
	return root
}

// typedArgErrors makes cobra's argument errors usage errors (exit 2):
// each command's Args check is wrapped, and a command with subcommands
// and no action of its own (the root, store) rejects an unknown one itself
// (cobra reports that as a plain error) and shows its help when called
// alone.
func typedArgErrors(c *cobra.Command) {
	switch {
	case c.HasSubCommands() && !c.Runnable():
		c.Args = unknownCommand
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	case c.Args != nil:
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		typedArgErrors(sub)
	}
}

// unknownCommand rejects arguments to a command that has only
// subcommands, suggesting the nearest names.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	err := usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		return hintError{err, "did you mean " + strings.Join(near, " or ") + "?"}
	}
	return err
}

// run executes bytelens with args and returns the process exit code:
// 0 ok, 1 the command's own failure, 2 usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &streams{stdin: stdin, stdout: stdout, out: render.NewWriter(stdout), stderr: render.NewWriter(stderr), tty: iostreams.Terminal(stderr)}
	root := newRoot(s)
	// cobra writes help and usage itself, quoting arguments in them.
	root.SetOut(render.InertWriter(stdout))
	root.SetErr(render.InertWriter(stderr))
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		return exitCode(s.stderr, err)
	}
	return exitOK
}
