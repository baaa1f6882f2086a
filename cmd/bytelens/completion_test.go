package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestCompletionStderrInert runs __complete in-process with a hostile
// flag value, with the process's stderr a pipe as a shell's would be, and
// checks that cobra's debug and error lines reach it escaped: no C0
// byte but LF and TAB, the title sequence as Control Pictures.
func TestCompletionStderrInert(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = saved }()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(r); got <- string(b) }()
	run([]string{"__complete", "clean", "--cr", "\x1b]0;PWN\a", ""}, strings.NewReader(""), io.Discard, w)
	os.Stderr = saved
	w.Close()
	out := <-got
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' && c != '\t' {
			t.Fatalf("stderr holds raw byte %#x at %d: %q", c, i, out)
		}
	}
	if !strings.Contains(out, "[Error]") || !strings.Contains(out, "␛]0;PWN␇") {
		t.Errorf("stderr %q lacks cobra's escaped error line", out)
	}
}

// TestCompletionUsage gives the completion command an unknown shell and a
// shell an extra argument. cobra adds that command when it executes, after
// TypedArgs has walked the tree, so "completion fishh" printed the help and
// exited 0, and "completion bash extra" was a plain error (exit 1); both
// are usage errors (exit 2), as "store rm" is.
func TestCompletionUsage(t *testing.T) {
	for _, tc := range []cliCase{
		{name: "unknown shell", args: []string{"completion", "fishh"}, code: 2, stderr: "unknown command \"fishh\" for \"bytelens completion\"\nhint: did you mean fish?"},
		{name: "extra argument", args: []string{"completion", "bash", "extra"}, code: 2, stderr: `unknown command "extra" for "bytelens completion bash"`},
		{name: "a shell", args: []string{"completion", "bash"}, code: 0, contains: []string{"bash completion"}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

// TestHelpUnknownTopic asks for help on a command that does not exist:
// cobra's help command found the root for it and printed the root's help
// (exit 0), so a mistyped name went unnoticed. It is a usage error.
func TestHelpUnknownTopic(t *testing.T) {
	for _, tc := range []cliCase{
		{name: "unknown", args: []string{"help", "clen"}, code: 2, stderr: `unknown help topic "clen"`},
		{name: "unknown subcommand", args: []string{"help", "store", "rm"}, code: 2, stderr: `unknown help topic "store rm"`},
		{name: "known", args: []string{"help", "store", "ls"}, code: 0, contains: []string{"bytelens store ls"}},
		{name: "none", args: []string{"help"}, code: 0, contains: []string{"Available Commands"}},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}
