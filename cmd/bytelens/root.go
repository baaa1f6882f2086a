package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

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

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef returns a usage error built like fmt.Errorf.
func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// hintError carries a second line printed as "hint: ...".
type hintError struct {
	err  error
	hint string
}

func (e hintError) Error() string { return e.err.Error() }
func (e hintError) Unwrap() error { return e.err }

// exitError lets a command choose its exit code without printing an error
// (diff exits 1 when inputs differ).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// streams are the standard streams a command runs with.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// subcommands lists the constructors of every subcommand; each file of this
// package adds its own in an init function.
var subcommands []func(s *streams) *cobra.Command

func newRoot(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "bytelens",
		Short:         "Clean, collect and inspect untrusted terminal output",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       currentVersion().String(),
		// Man pages carry no generation date, so that docs/man changes
		// only when the commands do.
		DisableAutoGenTag: true,
	}
	root.SetVersionTemplate("bytelens {{.Version}}\n")
	root.SetIn(s.stdin)
	root.SetOut(s.stdout)
	root.SetErr(s.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	for _, mk := range subcommands {
		root.AddCommand(mk(s))
	}
	root.AddCommand(newVersionCmd(s))
	registerCompletions(root)
	return root
}

// run executes bytelens with args and returns the process exit code:
// 0 ok, 1 the command's own failure, 2 usage.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &streams{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRoot(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintf(stderr, "bytelens: error: %v\n", err)
	var he hintError
	if errors.As(err, &he) {
		fmt.Fprintf(stderr, "hint: %s\n", he.hint)
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitFailure
}

// isCobraUsage reports whether err is one of cobra's own argument errors,
// which it returns as plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "requires at most", "invalid argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
