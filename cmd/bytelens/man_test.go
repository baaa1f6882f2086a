package main

//go:generate go test -run TestManPages -update

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// manDir holds the committed man pages, one per command.
const manDir = "../../docs/man"

// TestManPages checks that docs/man holds exactly the man pages that
// cobra/doc generates from the command tree. Regenerate them with
// `go generate ./cmd/bytelens` (go test -run TestManPages -update).
func TestManPages(t *testing.T) {
	root := newRoot(&streams{stdin: strings.NewReader(""), stdout: io.Discard, out: render.NewWriter(io.Discard), stderr: render.NewWriter(io.Discard)})
	forMan(root)
	tmp := t.TempDir()
	date := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) // fixed, so that pages change only with the commands
	err := doc.GenManTreeFromOpts(root, doc.GenManTreeOptions{
		Header:           &doc.GenManHeader{Section: "1", Date: &date, Source: "bytelens", Manual: "bytelens manual"},
		Path:             tmp,
		CommandSeparator: "-",
	})
	if err != nil {
		t.Fatal(err)
	}
	gen, _ := filepath.Glob(filepath.Join(tmp, "*.1"))
	var names []string
	for _, p := range gen {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(p))
		if bytes.Contains(b, []byte("`")) {
			t.Errorf("%s: a backquote, pflag's quoting of a value name, reaches the page", filepath.Base(p))
		}
		golden.Check(t, filepath.Join(manDir, filepath.Base(p)), b)
	}
	if golden.Updating() {
		committed, _ := filepath.Glob(filepath.Join(manDir, "*.1"))
		for _, p := range committed {
			if !slices.Contains(names, filepath.Base(p)) {
				os.Remove(p)
			}
		}
		return
	}
	committed, _ := filepath.Glob(filepath.Join(manDir, "*.1"))
	for _, p := range committed {
		if !slices.Contains(names, filepath.Base(p)) {
			t.Errorf("%s has no command any more (go generate ./cmd/bytelens removes it)", p)
		}
	}
	if !slices.Contains(names, "bytelens-clean.1") {
		t.Errorf("no bytelens-clean.1 among %v", names)
	}
}

// forMan rewrites the help texts of the tree as the Markdown that
// cobra/doc hands to go-md2man: the help is plain text, in which "<hex>"
// would be read as HTML and "*" or "_" as emphasis, and an indented block
// (the --as table of extract) as a paragraph.
func forMan(c *cobra.Command) {
	c.Long = manMarkdown(c.Long)
	c.Flags().VisitAll(func(f *pflag.Flag) {
		// pflag's backquotes name the flag's value (`FILE`) in --help;
		// the man page shows the usage without them.
		_, usage := pflag.UnquoteUsage(f)
		f.Usage = manEscaper.Replace(usage)
	})
	for _, sub := range c.Commands() {
		forMan(sub)
	}
}

var manEscaper = strings.NewReplacer(`\`, `\\`, "<", `\<`, ">", `\>`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`)

// manMarkdown escapes plain help text for Markdown and fences its
// indented blocks as code, which go-md2man shows as they are.
func manMarkdown(text string) string {
	var b strings.Builder
	inBlock := false
	for _, line := range strings.Split(text, "\n") {
		indented := strings.HasPrefix(line, "  ")
		switch {
		case indented && !inBlock:
			b.WriteString("\n```\n")
		case !indented && inBlock:
			b.WriteString("```\n\n")
		}
		inBlock = indented
		if indented {
			b.WriteString(line + "\n")
			continue
		}
		b.WriteString(manEscaper.Replace(line) + "\n")
	}
	if inBlock {
		b.WriteString("```\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
