package command

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

// TypedArgs makes cobra's argument errors in the tree under c usage
// errors (exit 2) with the command's usage line as their hint ("accepts
// 1 arg(s), received 0" does not say which): each command's Args check
// is wrapped, and a command
// with subcommands and no action of its own (the root, store) rejects an
// unknown one itself, suggesting the nearest names (cobra reports that as
// a plain error), and shows its help when called alone.
func TypedArgs(c *cobra.Command) {
	switch {
	case c.HasSubCommands() && !c.Runnable():
		c.Args = unknownCommand
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	case c.Args != nil:
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return render.HintError{Err: UsageError{err}, Tip: "usage: " + cmd.UseLine()}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		TypedArgs(sub)
	}
}

// unknownCommand rejects arguments to a command that has only
// subcommands, suggesting the nearest names.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	err := Usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		return render.HintError{Err: err, Tip: "did you mean " + strings.Join(near, " or ") + "?"}
	}
	return err
}

// CompletionStderr routes what cobra writes to os.Stderr itself during
// shell completion (args[0] is cobra's __complete or __completeNoDesc;
// its CompDebug and CompError write there, not to the command's SetErr,
// and quote the arguments raw) through render.InertWriter onto w. It
// makes os.Stderr a pipe until the function it returns is called, which
// puts os.Stderr back and then writes what the pipe held. For other args
// it does nothing.
func CompletionStderr(args []string, w io.Writer) (restore func()) {
	if len(args) == 0 || !strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		return func() {}
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return func() {}
	}
	saved := os.Stderr
	os.Stderr = pw
	var held bytes.Buffer
	done := make(chan struct{})
	go func() { held.ReadFrom(r); r.Close(); close(done) }()
	return func() {
		os.Stderr = saved
		pw.Close()
		<-done
		render.InertWriter(w).Write(held.Bytes())
	}
}
