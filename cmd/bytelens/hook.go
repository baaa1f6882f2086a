package main

import (
	"os"

	"github.com/bytelens/bytelens/hook"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/spf13/cobra"
)

func newHookCmd(s *streams) *cobra.Command {
	cmd := withHelp("hook", &cobra.Command{
		Use:       "hook AGENT",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{string(hook.ClaudeCode), string(hook.Codex)},
	})
	var permission string
	var isolate bool
	cmd.Flags().StringVar(&permission, "permission", "ask", "claude-code: the permissionDecision sent with the rewrite: ask, allow (no prompt) or none")
	cmd.Flags().BoolVar(&isolate, "isolate", false, "rewrite to bytelens run --isolate (Linux namespaces; the command fails where they are unavailable)")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		agent, err := hook.ParseAgent(args[0])
		if err != nil {
			return command.UsageError{Err: err}
		}
		o := hook.Options{Isolate: isolate}
		if o.Permission, err = hook.ParsePermission(permission); err != nil {
			return usagef("--permission %v", err)
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		o.Bytelens = exe
		return hook.Answer(agent, s.stdin, s.stdout, o)
	}
	return cmd
}
