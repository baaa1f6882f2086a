package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// claudeInput is the PreToolUse input of the Claude Code hooks reference,
// for its Bash tool.
const claudeInput = `{
  "session_id": "abc123",
  "transcript_path": "/home/user/.claude/projects/x/00893aaf.jsonl",
  "cwd": "/home/user/my-project",
  "permission_mode": "default",
  "hook_event_name": "PreToolUse",
  "tool_name": "Bash",
  "tool_input": {"command": %s, "description": "Show recent commits", "timeout": 120000},
  "tool_use_id": "toolu_01ABC123"
}`

// codexInput is Codex CLI's PreToolUse command input
// (codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json).
const codexInput = `{"session_id":"019a","turn_id":"t1","transcript_path":null,"cwd":"/home/user/p","hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","tool_name":"Bash","tool_input":{"command":%s},"tool_use_id":"call_1"}`

func input(format, command string) string {
	js, _ := json.Marshal(command)
	return strings.Replace(format, "%s", string(js), 1)
}

type answer struct {
	HookSpecificOutput struct {
		HookEventName            string         `json:"hookEventName"`
		PermissionDecision       string         `json:"permissionDecision"`
		PermissionDecisionReason string         `json:"permissionDecisionReason"`
		UpdatedInput             map[string]any `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

func ask(t *testing.T, agent Agent, in string, o Options) (answer, string) {
	t.Helper()
	var out bytes.Buffer
	if err := Answer(agent, strings.NewReader(in), &out, o); err != nil {
		t.Fatal(err)
	}
	var a answer
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatalf("answer %q: %v", out.String(), err)
		}
	}
	return a, out.String()
}

// The rewritten command, run by a shell, hands bytelens run the original
// command as one argument, whatever quotes it holds.
func TestClaudeCodeRewrite(t *testing.T) {
	command := `git log --color=always -5 | grep -v 'it'"'"'s' && echo "$HOME" \` + "\n" + `done`
	a, _ := ask(t, ClaudeCode, input(claudeInput, command), Options{Bytelens: "/bin/echo", Permission: "ask"})
	h := a.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || h.PermissionDecision != "ask" || h.UpdatedInput["description"] != "Show recent commits" || h.UpdatedInput["timeout"] != 120000.0 {
		t.Fatalf("answer %+v", h)
	}
	rewritten := h.UpdatedInput["command"].(string)
	if !strings.HasPrefix(rewritten, "'/bin/echo' run --agent --exit-code -- bash -c '") {
		t.Fatalf("command %q", rewritten)
	}
	out, err := exec.Command("bash", "-c", rewritten).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "run --agent --exit-code -- bash -c " + command + "\n"; string(out) != want {
		t.Fatalf("the shell passed %q, want %q", out, want)
	}
	// Without a permission decision, none is sent.
	a, _ = ask(t, ClaudeCode, input(claudeInput, "ls"), Options{Bytelens: "/usr/bin/bytelens"})
	if a.HookSpecificOutput.PermissionDecision != "" || a.HookSpecificOutput.UpdatedInput["command"] != "'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls'" {
		t.Fatalf("%+v", a.HookSpecificOutput)
	} // Isolate asks bytelens run for its namespaces.
	a, _ = ask(t, ClaudeCode, input(claudeInput, "ls"), Options{Bytelens: "/usr/bin/bytelens", Isolate: true})
	if a.HookSpecificOutput.UpdatedInput["command"] != "'/usr/bin/bytelens' run --isolate --agent --exit-code -- bash -c 'ls'" {
		t.Fatalf("isolate: %+v", a.HookSpecificOutput)
	}
}

func TestPassThrough(t *testing.T) {
	o := Options{Bytelens: "/usr/bin/bytelens"}
	for name, in := range map[string]string{
		"other tool":       `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/x","content":"y"}}`,
		"other event":      `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		"empty command":    input(claudeInput, "  "),
		"already wrapped":  input(claudeInput, "'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls'"),
		"already isolated": input(claudeInput, "'/usr/bin/bytelens' run --isolate --agent --exit-code -- bash -c 'ls'"),
	} {
		for _, agent := range Agents {
			if _, out := ask(t, agent, in, o); out != "" {
				t.Errorf("%s, %s: answered %q, want nothing", name, agent, out)
			}
		}
	}
	// A command that begins as a wrapped one but runs more is rewritten,
	// and under Isolate so is a wrapped one without --isolate.
	for name, tc := range map[string]struct {
		command string
		o       Options
	}{
		"chained":     {"'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls'; cat log", o},
		"piped":       {"'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls' | tee x; cat x", o},
		"quote ended": {"'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls'\n cat log '", o},
		"other flags": {"'/usr/bin/bytelens' run --text -- cat log", o},
		"no isolate":  {"'/usr/bin/bytelens' run --agent --exit-code -- bash -c 'ls'", Options{Bytelens: "/usr/bin/bytelens", Isolate: true}},
	} {
		for _, agent := range Agents {
			if _, out := ask(t, agent, input(claudeInput, tc.command), tc.o); out == "" {
				t.Errorf("%s, %s: passed %q through", name, agent, tc.command)
			}
		}
	}
	if err := Answer(ClaudeCode, strings.NewReader("not json"), &bytes.Buffer{}, o); !errors.Is(err, ErrInput) {
		t.Errorf("bad input: %v", err)
	}
}

// Codex cannot rewrite: the hook denies and names the command to run.
func TestCodexDeny(t *testing.T) {
	a, out := ask(t, Codex, input(codexInput, "cargo test"), Options{Bytelens: "/usr/bin/bytelens"})
	h := a.HookSpecificOutput
	if h.PermissionDecision != "deny" || h.UpdatedInput != nil || !strings.HasSuffix(h.PermissionDecisionReason, "Run this instead: '/usr/bin/bytelens' run --agent --exit-code -- bash -c 'cargo test'") {
		t.Fatalf("answer %s", out)
	}
}

// A command holding control characters is answered in escaped JSON only.
func TestAnswerEscaped(t *testing.T) {
	_, out := ask(t, ClaudeCode, input(claudeInput, "printf '\x1b]0;x\x07\u202e'"), Options{Bytelens: "/b"})
	if strings.ContainsAny(out, "\x1b\x07\u202e") || !strings.Contains(out, `\u001b`) || !strings.Contains(out, `\u202e`) {
		t.Fatalf("answer %q", out)
	}
}

func TestParseFlags(t *testing.T) {
	for _, a := range Agents {
		if got, err := ParseAgent(string(a)); got != a || err != nil {
			t.Errorf("ParseAgent(%q) = %q, %v", a, got, err)
		}
	}
	if _, err := ParseAgent("vim"); err == nil || !strings.Contains(err.Error(), `unknown agent "vim"`) {
		t.Errorf("ParseAgent(vim): %v", err)
	}
	for in, want := range map[string]string{"ask": "ask", "allow": "allow", "none": ""} {
		if got, err := ParsePermission(in); got != want || err != nil {
			t.Errorf("ParsePermission(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParsePermission(""); err == nil {
		t.Error(`ParsePermission("") accepted`)
	}
}
