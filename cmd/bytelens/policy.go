package main

import (
	"strings"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// policyHelp describes each sanitizer policy key for its flag; the values
// and the default come from sanitize (PolicyValues, PolicyFlag), and every
// value, from a flag or from a key=value list, is parsed by
// sanitize.Options.Set.
var policyHelp = map[string]string{
	"cr":           "carriage returns (screen, or its alias overwrite: each line as the terminal screen finally showed it, erases and cursor moves applied)",
	"bs":           "backspaces (overstrike: x BS y keeps y, like col -b)",
	"links":        "OSC 8 hyperlinks (drop keeps the label; append adds the URI in angle brackets)",
	"format-chars": "bidi, zero-width and tag characters",
	"c1":           "raw 8-bit C1 bytes (introducers: 9B opens a CSI; lone: each is one control, for CP1252 text)",
	"apc-bel":      "BEL ends APC strings",
	"max-payload":  "control strings longer than this many payload bytes are reported overlong",
}

// addPolicyFlags registers the policy flags named by keys (all of
// sanitize.PolicyKeys when none) on fs and returns the options they set:
// each flag is a sanitize.PolicyFlag, so a bad value is a flag error
// (exit 2) from sanitize.Options.Set, and the defaults are sanitize's.
func addPolicyFlags(fs *pflag.FlagSet, keys ...string) *sanitize.Options {
	if len(keys) == 0 {
		keys = sanitize.PolicyKeys
	}
	o := &sanitize.Options{}
	for _, k := range keys {
		v, usage := o.Flag(k), policyHelp[k]
		if v.Type() == "string" {
			usage += ": " + strings.Join(sanitize.PolicyValues(k), ", ")
		}
		if f := fs.VarPF(v, k, "", usage); v.IsBoolFlag() {
			f.NoOptDefVal = "true"
		}
	}
	return o
}

// applyPolicy applies key=value settings (comma- or line-separated) given
// by what (a flag or a file) to o.
func applyPolicy(o sanitize.Options, settings, what string) (sanitize.Options, error) {
	if err := o.Apply(settings); err != nil {
		return o, usagef("%s: %v", what, err)
	}
	return o, nil
}
