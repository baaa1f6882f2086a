package main

import (
	"os"

	"github.com/bytelens/bytelens/hook"
	"github.com/spf13/cobra"
)

func newHookCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook AGENT",
		Short: "Answer a coding agent's PreToolUse hook so its shell commands run through bytelens",
		Long: `Hook reads a PreToolUse hook's JSON on stdin and answers on stdout.

  claude-code  for the Bash tool, hookSpecificOutput.updatedInput runs the
               same command as: bytelens run --agent --exit-code -- bash -c '...'
               (cleaned output and one footer line); other tools pass through
  codex        Codex CLI cannot rewrite a command (it rejects updatedInput):
               the hook denies the Bash call and gives the rewritten command
               as the reason, for the model to run instead

A command that already runs bytelens passes through. See README for the
settings snippets.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{string(hook.ClaudeCode), string(hook.Codex)},
	}
	var permission string
	var isolate bool
	cmd.Flags().StringVar(&permission, "permission", "ask", "claude-code: the permissionDecision sent with the rewrite: ask, allow (no prompt) or none")
	cmd.Flags().BoolVar(&isolate, "isolate", false, "rewrite to bytelens run --isolate (Linux namespaces; the command fails where they are unavailable)")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		agent, err := hook.ParseAgent(args[0])
		if err != nil {
			return usageError{err}
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
