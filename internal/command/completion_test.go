package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// TestRegisterCompletions checks the values shell completion offers, by
// cobra's __complete: a policy key's values, the capture formats, a
// key=value list's next keys, and none for a bool flag.
func TestRegisterCompletions(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
		not  string
	}{
		{[]string{"clean", "--cr", ""}, sanitize.PolicyValues("cr"), ""},
		{[]string{"clean", "--format", ""}, []string{"asciicast", ":4\n"}, ""},
		{[]string{"clean", "--stream", ""}, []string{"output", "stderr"}, ""},
		{[]string{"clean", "--b-policy", "cr=screen,format-"}, []string{"cr=screen,format-chars=", ":6\n"}, ""},
		{[]string{"clean", "--c1", ""}, nil, "keep"},
	} {
		root := &cobra.Command{Use: "bytelens"}
		clean := &cobra.Command{Use: "clean [FILE]", Run: func(*cobra.Command, []string) {}}
		PolicyFlags(clean.Flags())
		clean.Flags().String("format", "", "")
		clean.Flags().String("stream", "", "")
		clean.Flags().String("b-policy", "", "")
		root.AddCommand(clean)
		RegisterCompletions(root)
		if clean.ValidArgsFunction == nil {
			t.Fatal("clean [FILE] got no argument completion")
		}
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&bytes.Buffer{})
		root.SetArgs(append([]string{cobra.ShellCompNoDescRequestCmd}, tc.args...))
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%q: completions %q lack %q", tc.args, out.String(), w)
			}
		}
		if tc.not != "" && strings.Contains(out.String(), tc.not) {
			t.Errorf("%q: completions %q offer %q", tc.args, out.String(), tc.not)
		}
	}
}
