// Command bytelens cleans terminal output into agent-safe text, collects
// command output as restricted evidence, and views raw captures safely.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
