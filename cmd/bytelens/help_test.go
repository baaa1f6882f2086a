package main

import (
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

// helpPending are the commands whose help still lacks an Example or an
// EXIT STATUS section; a command leaves the list when it gains both.
var helpPending []string

// TestHelpSections checks that every command's help has an Example (the
// man page's EXAMPLE) and an EXIT STATUS section that names exit codes 0
// and 2 (help/NAME.txt ends in one, a Markdown heading for cobra/doc).
func TestHelpSections(t *testing.T) {
	root := newRoot(&streams{stdin: strings.NewReader(""), stdout: io.Discard, out: render.NewWriter(io.Discard), stderr: render.NewWriter(io.Discard)})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		name := strings.TrimPrefix(strings.ReplaceAll(c.CommandPath(), " ", "-"), "bytelens-")
		_, status, _ := strings.Cut(c.Long, "\nEXIT STATUS\n===========\n")
		ok := c.Example != "" && strings.Contains(status, "\n  0  ") && strings.Contains(status, "\n  2  usage")
		switch pending := slices.Contains(helpPending, name); {
		case c.Hidden || c.Name() == "help" || c.Name() == "completion" || c.HasParent() && c.Parent().Name() == "completion":
		case !ok && !pending:
			t.Errorf("%s: help lacks an Example or an EXIT STATUS section naming 0 and 2 usage", c.CommandPath())
		case ok && pending:
			t.Errorf("%s has an Example and EXIT STATUS: remove it from helpPending", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestHelpFiles checks that every help/NAME.txt is a command's: a file
// left behind by a renamed or removed command fails.
func TestHelpFiles(t *testing.T) {
	root := newRoot(&streams{stdin: strings.NewReader(""), stdout: io.Discard, out: render.NewWriter(io.Discard), stderr: render.NewWriter(io.Discard)})
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		names[strings.TrimPrefix(strings.ReplaceAll(c.CommandPath(), " ", "-"), "bytelens-")] = true
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	files, err := helpTexts.ReadDir("help")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		if name, ok := strings.CutSuffix(f.Name(), ".txt"); !ok || !names[name] {
			t.Errorf("help/%s belongs to no command", f.Name())
		}
	}
}

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestHelpWriteFails: help, usage and version written to a full stdout
// exit 1 with the error on stderr, as the other commands' output does.
func TestHelpWriteFails(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"help", "clean"}, {"clean", "--help"}, {"--version"}, {"version"}} {
		var errb strings.Builder
		code := run(args, strings.NewReader(""), fullWriter{}, &errb)
		if want := "bytelens: error: "; code != 1 || !strings.HasPrefix(errb.String(), want) || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%q to a full stdout: exit %d, stderr %q; want 1 and %q…no space left on device", args, code, errb.String(), want)
		}
	}
}
