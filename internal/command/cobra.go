package command

import (
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

// TypedArgs makes cobra's argument errors in the tree under c usage
// errors (exit 2): each command's Args check is wrapped, and a command
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
				return UsageError{err}
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
