package main

import (
	"io"
	"os/exec"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/diff"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/extract"
	"github.com/bytelens/bytelens/hook"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/internal/job"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/bytelens/bytelens/version"
	"github.com/spf13/cobra"
)

// The short names the commands use for the helpers they share.
var (
	usagef    = command.Usagef
	fileError = render.FileError
	// The policy flags: sanitize.Options.Set parses them, from
	// sanitize's defaults.
	addPolicyFlags = command.PolicyFlags
	warnCapture    = job.WriteNotes
)

// errorKinds give the exit code and hint of the packages' errors that
// mean the same on every command: bad input from the command line is a
// usage error (exit 2).
var errorKinds = []command.Kind{
	{Err: capture.ErrUnknownFormat, Usage: true},
	{Err: capture.ErrRawStdin, Usage: true},
	{Err: capture.ErrRefOptions, Usage: true},
	{Err: capture.ErrNoStream, Usage: true},
	{Err: store.ErrBadRef, Usage: true},
	{Err: extract.ErrNoStream, Usage: true},
	{Err: excerpt.ErrRange, Usage: true},
	{Err: excerpt.ErrPattern, Usage: true},
	{Err: excerpt.ErrStream, Usage: true},
	{Err: hook.ErrInput, Usage: true},
	{Err: capture.ErrInputTooLarge, Hint: "save it to a file and pass the file"},
	{Err: diff.ErrDirectory, Hint: "compare a directory of captures with --corpus DIR --b-policy P"},
	{Err: store.ErrEncrypted, Hint: "the raw artifact is encrypted at rest: pass --identity FILE (or set " + seal.EnvIdentity + "); bytelens excerpt REF reads its cleaned text without the key"},
	{Err: extract.ErrTerminal, Hint: "use bytelens extract --as hex or --as text to look at them, or bytelens view"},
	{Err: exec.ErrNotFound, Hint: "check the command name and $PATH"},
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

// env is where the jobs of package job write notes and progress.
func (s *streams) env() job.Env { return job.Env{Notes: s.stderr, TTY: s.tty} }

// subcommands are the constructors of bytelens's commands, in the order
// of the README. A new command is added here, not from an init function.
var subcommands = []func(s *streams) *cobra.Command{
	newCleanCmd, newReportCmd, newRunCmd, newViewCmd, newHexCmd, newGlyphsCmd,
	newDiffCmd, newScreenCmd, newExtractCmd, newVerifyCmd, newStoreCmd,
	newExcerptCmd, newMCPCmd, newHookCmd, newVersionCmd,
}

func newRoot(s *streams) *cobra.Command {
	root := withHelp("bytelens", &cobra.Command{
		Use:           "bytelens",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version.Current().Safe().String(),
		// Man pages carry no generation date, so that docs/man changes
		// only when the commands do.
		DisableAutoGenTag: true,
	})
	root.SetVersionTemplate("bytelens {{.Version}}\n")
	root.SetIn(s.stdin)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return command.UsageError{Err: err} })
	keys = command.KeyFlags(root.PersistentFlags())
	for _, mk := range subcommands {
		root.AddCommand(mk(s))
	}
	command.TypedArgs(root)
	command.RegisterCompletions(root)
	return root
}

// run executes bytelens with args and returns the process exit code:
// 0 ok, 1 the command's own failure, 2 usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &streams{stdin: stdin, stdout: stdout, out: render.NewWriter(stdout), stderr: render.NewWriter(stderr), tty: iostreams.Terminal(stderr)}
	root := newRoot(s)
	// cobra writes help and usage itself, quoting arguments in them, and
	// drops the error of a failed write of help: helpOut keeps it.
	helpOut := &stickyWriter{w: render.InertWriter(stdout)}
	root.SetOut(helpOut)
	root.SetErr(render.InertWriter(stderr))
	// cobra adds its completion and help commands when it executes, after
	// newRoot's TypedArgs; added here, once their output is set, they get
	// usage errors (exit 2): an unknown shell, an extra argument, help on
	// a command that does not exist (which cobra answered with the root's
	// help).
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	if c, _, err := root.Find([]string{"help"}); err == nil && c != root {
		c.Args = func(c *cobra.Command, args []string) error {
			if _, rest, err := c.Root().Find(args); err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q", strings.Join(args, " "))
			}
			return nil
		}
	}
	for _, name := range []string{"completion", "help"} {
		if c, _, err := root.Find([]string{name}); err == nil && c != root {
			command.TypedArgs(c)
		}
	}
	root.SetArgs(args)
	restore := command.CompletionStderr(args, stderr)
	err := root.Execute()
	restore()
	if err == nil && helpOut.err != nil {
		err = render.Errorf("writing help: %w", helpOut.err)
	}
	if err != nil {
		return command.ExitCode(s.stderr, err, errorKinds)
	}
	return command.ExitOK
}

// stickyWriter writes to w and keeps the first error a write gave.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (sw *stickyWriter) Write(p []byte) (int, error) {
	n, err := sw.w.Write(p)
	if err != nil && sw.err == nil {
		sw.err = err
	}
	return n, err
}
