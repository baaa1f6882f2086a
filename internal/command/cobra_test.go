package command

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// tree is a root with a group (store) of one subcommand (ls) and a
// command (clean) taking at most one argument.
func tree() *cobra.Command {
	root := &cobra.Command{Use: "bytelens", SilenceErrors: true, SilenceUsage: true}
	group := &cobra.Command{Use: "store"}
	group.AddCommand(&cobra.Command{Use: "ls", RunE: func(*cobra.Command, []string) error { return nil }})
	root.AddCommand(group, &cobra.Command{Use: "clean", Args: cobra.MaximumNArgs(1), RunE: func(*cobra.Command, []string) error { return nil }})
	TypedArgs(root)
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	return root
}

func TestTypedArgs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool
		msg   string
		hint  string
	}{
		{"group alone shows help", []string{"store"}, false, "", ""},
		{"subcommand runs", []string{"store", "ls"}, false, "", ""},
		{"too many arguments", []string{"clean", "a", "b"}, true, "accepts at most 1 arg(s), received 2", "usage: bytelens clean"},
		{"unknown with a near name", []string{"claen"}, true, `unknown command "claen" for "bytelens"`, "did you mean clean?"},
		{"unknown subcommand", []string{"store", "xyzzy"}, true, `unknown command "xyzzy" for "bytelens store"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree()
			root.SetArgs(tc.args)
			err := root.Execute()
			var ue UsageError
			if errors.As(err, &ue) != tc.usage || tc.msg == "" && err != nil || tc.msg != "" && (err == nil || err.Error() != tc.msg) {
				t.Fatalf("err %v (usage %v), want %q (usage %v)", err, errors.As(err, &ue), tc.msg, tc.usage)
			}
			var h interface{ Hint() string }
			if got := ""; errors.As(err, &h) || tc.hint != "" {
				if h != nil {
					got = h.Hint()
				}
				if !strings.Contains(got, tc.hint) || tc.hint == "" {
					t.Errorf("hint %q, want %q", got, tc.hint)
				}
			}
		})
	}
}

// TestCompletionStderr checks that during __complete what is written to
// os.Stderr reaches w escaped, after os.Stderr is back, and that other
// commands leave os.Stderr alone.
func TestCompletionStderr(t *testing.T) {
	saved := os.Stderr
	var w bytes.Buffer
	restore := CompletionStderr([]string{"clean"}, &w)
	if os.Stderr != saved {
		t.Error("clean swapped os.Stderr")
	}
	restore()
	restore = CompletionStderr([]string{cobra.ShellCompNoDescRequestCmd, "clean"}, &w)
	if os.Stderr == saved {
		t.Fatal("__completeNoDesc kept os.Stderr")
	}
	os.Stderr.WriteString("[Debug] \x1b]0;PWN\a\n")
	restore()
	if os.Stderr != saved || w.String() != "[Debug] ␛]0;PWN␇\n" {
		t.Errorf("os.Stderr restored %v, w = %q", os.Stderr == saved, w.String())
	}
}
