package main

import (
	"embed"
	"strings"

	"github.com/spf13/cobra"
)

// helpTexts hold the help of the commands: help/NAME.txt for the command
// NAME (a subcommand's path joined by "-", as its man page is named).
//
//go:embed help
var helpTexts embed.FS

// withHelp sets the Short, Long and Example of c from help/NAME.txt and
// returns c. The file reads as the man page cobra/doc makes of it: the
// one-line summary (Short), an empty line, the description (Long), which
// ends in an EXIT STATUS section, and an EXAMPLES section of indented
// command lines (Example). Each section is a heading underlined with "="
// (Markdown for the man page, plain text in --help). A missing file or
// section is a mistake in this package, which every test that builds the
// command tree shows: withHelp panics.
func withHelp(name string, c *cobra.Command) *cobra.Command {
	b, err := helpTexts.ReadFile("help/" + name + ".txt")
	short, rest, ok := strings.Cut(string(b), "\n\n")
	long, example, ok2 := strings.Cut(rest, "\n\nEXAMPLES\n========\n\n")
	if err != nil || !ok || !ok2 || !strings.Contains(long, "\nEXIT STATUS\n===========\n") {
		panic("bytelens: help/" + name + ".txt lacks a summary, an EXIT STATUS or an EXAMPLES section")
	}
	c.Short, c.Long, c.Example = short, long, strings.TrimSuffix(example, "\n")
	return c
}
