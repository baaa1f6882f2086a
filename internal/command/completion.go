package command

import (
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// flagValues returns, per flag name, the values shell completion offers
// (cobra's completion command: bytelens completion bash|zsh|fish|powershell):
// each policy key's values, the capture formats and stream names.
func flagValues() map[string][]string {
	v := map[string][]string{
		"format": capture.FormatList(),
		"stream": {capture.StreamOutput, capture.StreamInput, capture.StreamStdout, capture.StreamStderr},
		"as":     {"hex", "text"},
	}
	for _, k := range sanitize.PolicyKeys {
		if vals := sanitize.PolicyValues(k); len(vals) > 0 {
			v[k] = vals
		}
	}
	return v
}

// settingsFlags take a comma-separated list of policy key=value settings.
var settingsFlags = []string{"a-policy", "b-policy", "compare-policy"}

// RegisterCompletions adds value completion to every flag of the tree
// that flagValues or settingsFlags names, and completion of
// restricted:sha256: references from the store to every command whose
// arguments take a FILE or REF.
func RegisterCompletions(root *cobra.Command) {
	values := flagValues()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, vals := range values {
			if fl := c.Flags().Lookup(name); fl != nil && fl.Value.Type() != "bool" {
				_ = c.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(vals, cobra.ShellCompDirectiveNoFileComp))
			}
		}
		for _, name := range settingsFlags {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, completeSettings)
			}
		}
		if c.ValidArgsFunction == nil && (strings.Contains(c.Use, "FILE") || strings.Contains(c.Use, "REF")) {
			c.ValidArgsFunction = completeRefs
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeSettings completes the last item of a key=value list.
func completeSettings(_ *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
	return sanitize.CompleteSettings(word), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeRefs offers the store's references for a word that can only
// begin one; otherwise the shell completes file names.
func completeRefs(_ *cobra.Command, _ []string, word string) ([]string, cobra.ShellCompDirective) {
	if refs, ok := store.CompleteRefs(word); ok {
		return refs, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveDefault
}
