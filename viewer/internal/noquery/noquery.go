// Package noquery keeps bubbletea v1 from querying the terminal when the
// program starts. bubbletea's package init calls lipgloss.HasDarkBackground,
// which writes OSC 11;? and CSI 6n to a terminal on stdout and waits for
// the reply (tea_init.go in bubbletea v1.3.10). bytelens never uses
// adaptive colours, so it has no use for the answer.
//
// Go initialises packages in import-path order among those whose imports
// are initialised (the Go spec, "Package initialization", since Go 1.21).
// This package imports lipgloss but not bubbletea, and its path sorts
// before github.com/charmbracelet/bubbletea, so its init runs first and
// settles the background before bubbletea asks. The viewer's end-to-end
// test checks that no OSC reaches the terminal.
package noquery

import "github.com/charmbracelet/lipgloss"

func init() { lipgloss.SetHasDarkBackground(true) }
