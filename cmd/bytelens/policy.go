package main

import (
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// policyHelp describes each sanitizer policy key for its flag; the values
// and the default come from sanitize (PolicyValues), and every value,
// from a flag or from a key=value list, is parsed by sanitize.Options.Set.
var policyHelp = map[string]string{
	"cr":           "carriage returns (screen: each line as the terminal screen finally showed it)",
	"bs":           "backspaces (overstrike: x BS y keeps y, like col -b)",
	"links":        "OSC 8 hyperlinks (drop keeps the label; append adds the URI in angle brackets)",
	"format-chars": "bidi, zero-width and tag characters",
	"c1":           "raw 8-bit C1 bytes (introducers: 9B opens a CSI; lone: each is one control, for CP1252 text)",
	"apc-bel":      "BEL ends APC strings",
	"max-payload":  "control strings longer than this many payload bytes are reported overlong",
}

// policyFlags are sanitizer policy flags, one per sanitize.PolicyKeys key.
type policyFlags struct {
	keys   []string
	values map[string]*string
	apcBEL bool
	maxPay int64
}

// addPolicyFlags registers the policy flags named by keys (all of
// sanitize.PolicyKeys when none) on fs, with sanitize's defaults.
func addPolicyFlags(fs *pflag.FlagSet, keys ...string) *policyFlags {
	if len(keys) == 0 {
		keys = sanitize.PolicyKeys
	}
	p := &policyFlags{keys: keys, values: map[string]*string{}}
	for _, k := range keys {
		switch k {
		case "apc-bel":
			fs.BoolVar(&p.apcBEL, k, false, policyHelp[k])
		case "max-payload":
			fs.Int64Var(&p.maxPay, k, sanitize.DefaultMaxPayload, policyHelp[k])
		default:
			vals := sanitize.PolicyValues(k)
			p.values[k] = fs.String(k, vals[0], policyHelp[k]+": "+strings.Join(vals, ", "))
		}
	}
	return p
}

// options returns the sanitizer options the flags select, or a usage
// error naming the bad value.
func (p *policyFlags) options() (sanitize.Options, error) {
	var o sanitize.Options
	for _, k := range p.keys {
		var v string
		switch k {
		case "apc-bel":
			v = strconv.FormatBool(p.apcBEL)
		case "max-payload":
			v = strconv.FormatInt(p.maxPay, 10)
		default:
			v = *p.values[k]
		}
		if err := o.Set(k, v); err != nil {
			return o, usagef("--%s: %v", k, err)
		}
	}
	return o, nil
}

// applyPolicy applies key=value settings (comma- or line-separated) given
// by what (a flag or a file) to o.
func applyPolicy(o sanitize.Options, settings, what string) (sanitize.Options, error) {
	if err := o.Apply(settings); err != nil {
		return o, usagef("%s: %v", what, err)
	}
	return o, nil
}
