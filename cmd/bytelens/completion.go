package main

import (
	"os"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// flagValues lists, per flag name, the values shell completion offers
// (cobra's completion command: bytelens completion bash|zsh|fish|powershell).
var flagValues = map[string]func() []string{
	"cr":           func() []string { return sanitize.PolicyValues("cr") },
	"bs":           func() []string { return sanitize.PolicyValues("bs") },
	"links":        func() []string { return sanitize.PolicyValues("links") },
	"format-chars": func() []string { return sanitize.PolicyValues("format-chars") },
	"c1":           func() []string { return sanitize.PolicyValues("c1") },
	"format":       capture.FormatList,
	"stream": func() []string {
		return []string{capture.StreamOutput, capture.StreamInput, capture.StreamStdout, capture.StreamStderr}
	},
	"as": func() []string { return []string{"hex", "text"} },
}

// settingsFlags take a comma-separated list of policy key=value settings.
var settingsFlags = []string{"a-policy", "b-policy", "compare-policy"}

// registerCompletions adds value completion to every flag of the tree
// that flagValues or settingsFlags names, and completion of
// restricted:sha256: references from the store to every command whose
// arguments take a FILE or REF.
func registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, values := range flagValues {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fixedCompletion(values))
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

func fixedCompletion(values func() []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values(), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSettings completes the last item of a key=value list.
func completeSettings(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	prefix := toComplete[:strings.LastIndexByte(toComplete, ',')+1]
	var out []string
	for _, k := range sanitize.PolicyKeys {
		for _, v := range sanitize.PolicyValues(k) {
			out = append(out, prefix+k+"="+v)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeRefs offers the store's references when the word typed is at
// least "rest" of "restricted:"; otherwise the shell completes file names.
// It never creates the store.
func completeRefs(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if !strings.HasPrefix(toComplete, store.RefPrefix) && (len(toComplete) < 4 || !strings.HasPrefix(store.RefPrefix, toComplete)) {
		return nil, cobra.ShellCompDirectiveDefault
	}
	dir, err := store.DefaultDir()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	st, err := store.Open(dir)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	entries, err := st.List()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, e := range entries {
		if e.Kind == store.KindRaw {
			out = append(out, e.Ref.String())
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
