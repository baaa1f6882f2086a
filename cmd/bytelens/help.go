package main

import (
	"embed"
	"strings"
)

// helpTexts are the long help texts and examples of the commands, plain
// text that cobra shows in --help and cobra/doc turns into the man pages
// of docs/man: help/NAME.txt is the Long of the command NAME (a
// subcommand's path joined by "-", as its man page is named), ending in
// an EXIT STATUS section, and help/NAME.example.txt its Example.
//
//go:embed help
var helpTexts embed.FS

// help returns the text of help/NAME.txt without its final line feed. A
// missing file is a mistake in this package that every test building the
// command tree shows: it panics.
func help(name string) string {
	b, err := helpTexts.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}
