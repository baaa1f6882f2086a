// Package hook answers coding agents' PreToolUse hooks so that the shell
// commands an agent runs go through bytelens run, and the model reads
// cleaned text with a one-line footer instead of raw terminal output.
//
// Claude Code (https://code.claude.com/docs/en/hooks, PreToolUse decision
// control) lets a hook replace a tool's input: for the Bash tool, the
// answer's hookSpecificOutput.updatedInput is the same input with its
// command rewritten to
//
//	bytelens run --agent --exit-code -- bash -c '<command>'
//
// Other tools, other events and commands exactly as the hook rewrites them
// are passed through: the hook prints nothing, which lets the call proceed
// unchanged.
//
// Codex CLI's PreToolUse hook (openai/codex, codex-rs/hooks) has the same
// input for its Bash tool but rejects updatedInput ("unsupported
// updatedInput", and the call then runs unchanged) and supports only
// permissionDecision "deny" with a reason, which the model reads. So for
// Codex the hook denies a command not run through bytelens and gives the
// rewritten command as the reason, for the model to run instead.
package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bytelens/bytelens/safejson"
)

// MaxInput is the largest hook input read, in bytes.
const MaxInput = 4 << 20

// Options configures an answer.
type Options struct {
	// Bytelens is the path of the bytelens executable the rewritten
	// command runs (an absolute path, so $PATH does not matter).
	Bytelens string
	// Permission is the permissionDecision sent with a Claude Code rewrite:
	// "ask" (the person approves the rewritten command), "allow" (skips
	// the permission prompt: only where every command may run unasked),
	// or "" (none: Claude Code's own permission rules decide).
	Permission string
	// Isolate adds --isolate to the rewritten command (bytelens run
	// --isolate: the command runs in its own Linux namespaces).
	Isolate bool
}

// Input is the part of a PreToolUse hook's stdin JSON the hook reads
// (Claude Code and Codex both send it).
type Input struct {
	HookEventName string                     `json:"hook_event_name"`
	ToolName      string                     `json:"tool_name"`
	ToolInput     map[string]json.RawMessage `json:"tool_input"`
}

// Agent is a coding agent whose hook contract this package answers.
type Agent string

// The agents.
const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
)

// Agents lists the supported agents.
var Agents = []Agent{ClaudeCode, Codex}

// ParseAgent returns the agent named s, one of Agents, or an error
// naming the ones there are.
func ParseAgent(s string) (Agent, error) {
	for _, a := range Agents {
		if string(a) == s {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown agent %q: want claude-code or codex", s)
}

// ParsePermission returns the Options.Permission that s names: "ask",
// "allow", or "none" for "" (no permissionDecision); anything else is an
// error.
func ParsePermission(s string) (string, error) {
	switch s {
	case "ask", "allow":
		return s, nil
	case "none":
		return "", nil
	}
	return "", errors.New("must be ask, allow or none")
}

// ErrInput reports hook input that is not the documented JSON.
var ErrInput = errors.New("hook input is not PreToolUse JSON")

// Answer reads one hook input from r and writes the answer for agent to
// w: nothing (pass through) or one JSON object. It fails with ErrInput
// on input that is not a JSON object of at most MaxInput bytes.
func Answer(agent Agent, r io.Reader, w io.Writer, o Options) error {
	b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return err
	}
	var in Input
	if len(b) > MaxInput || json.Unmarshal(b, &in) != nil {
		return ErrInput
	}
	command, ok := rewrite(&in, o)
	if !ok {
		return nil
	}
	out := hookOutput{HookEventName: "PreToolUse"}
	switch agent {
	case ClaudeCode:
		cmd, _ := json.Marshal(command)
		in.ToolInput["command"] = cmd
		out.UpdatedInput, out.PermissionDecision = in.ToolInput, o.Permission
		if o.Permission != "" {
			out.PermissionDecisionReason = "bytelens: the command runs under bytelens run, which cleans its output of terminal control sequences"
		}
	case Codex:
		out.PermissionDecision = "deny"
		out.PermissionDecisionReason = "Run shell commands through bytelens, which cleans their output of terminal control sequences. Run this instead: " + command
	default:
		return fmt.Errorf("hook: unknown agent %q", agent)
	}
	js, err := safejson.Marshal(struct {
		HookSpecificOutput hookOutput `json:"hookSpecificOutput"`
	}{out})
	if err != nil {
		return err
	}
	_, err = w.Write(append(js, '\n'))
	return err
}

type hookOutput struct {
	HookEventName            string                     `json:"hookEventName"`
	PermissionDecision       string                     `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string                     `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             map[string]json.RawMessage `json:"updatedInput,omitempty"`
}

// rewrite returns the command that runs in's Bash command through
// bytelens, or false when in is to pass through: another event or tool,
// no command, or a command as rewrite returns it (wrapped).
func rewrite(in *Input, o Options) (string, bool) {
	if in.HookEventName != "PreToolUse" || in.ToolName != "Bash" {
		return "", false
	}
	var command string
	if json.Unmarshal(in.ToolInput["command"], &command) != nil || strings.TrimSpace(command) == "" {
		return "", false
	}
	prefix := shellQuote(o.Bytelens) + " run "
	if wrapped(command, prefix, o.Isolate) {
		return "", false
	}
	flags := runFlags
	if o.Isolate {
		flags = isolateFlag + flags
	}
	return prefix + flags + shellQuote(command), true
}

// The flags of bytelens run in a rewritten command, and the one that
// Options.Isolate adds before them.
const (
	runFlags    = "--agent --exit-code -- bash -c "
	isolateFlag = "--isolate "
)

// wrapped reports whether command is one that rewrite returns: prefix,
// the flags (with --isolate, which isolate requires) and one quoted
// argument. A command that only begins so, such as
// "… bash -c 'ls'; cat log", runs more than bytelens and is rewritten.
func wrapped(command, prefix string, isolate bool) bool {
	for _, flags := range []string{isolateFlag + runFlags, runFlags} {
		rest, ok := strings.CutPrefix(command, prefix+flags)
		if ok && len(rest) >= 2 && rest[0] == '\'' && rest[len(rest)-1] == '\'' &&
			shellQuote(strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, "'")) == rest {
			return true
		}
		if isolate {
			break
		}
	}
	return false
}

// shellQuote quotes s for a POSIX shell: in single quotes, each ' written
// as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
