package main

import (
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// policyFlags are the sanitizer policy flags shared by clean, report, run,
// view and diff.
type policyFlags struct {
	cr, bs, links, formatChars, c1 string
	apcBEL                         bool
	maxPayload                     int64
}

// addPolicyFlags registers the policy flags on fs with their defaults.
func addPolicyFlags(fs *pflag.FlagSet) *policyFlags {
	p := &policyFlags{}
	fs.StringVar(&p.cr, "cr", "lines", "carriage returns: lines, overwrite, drop or screen (each line as the terminal screen finally showed it)")
	fs.StringVar(&p.bs, "bs", "drop", "backspaces: drop or overstrike")
	fs.StringVar(&p.links, "links", "drop", "OSC 8 hyperlinks: drop (keep the label) or append (label <URI>)")
	fs.StringVar(&p.formatChars, "format-chars", "strip", "bidi, zero-width and tag characters: strip, keep or escape")
	fs.StringVar(&p.c1, "c1", "introducers", "raw 8-bit C1 bytes: introducers or lone")
	fs.BoolVar(&p.apcBEL, "apc-bel", false, "BEL ends APC strings")
	fs.Int64Var(&p.maxPayload, "max-payload", 4096, "control strings longer than this many payload bytes are reported overlong")
	return p
}

// options returns the sanitizer options the flags select, or a usage
// error naming the bad value.
func (p *policyFlags) options() (sanitize.Options, error) {
	var o sanitize.Options
	for _, kv := range [][2]string{{"cr", p.cr}, {"bs", p.bs}, {"links", p.links}, {"format-chars", p.formatChars}, {"c1", p.c1}} {
		if err := o.Set(kv[0], kv[1]); err != nil {
			return o, usageError{err}
		}
	}
	o.APCBEL = p.apcBEL
	if p.maxPayload < 0 {
		return o, usagef("--max-payload must be a byte count, not %d", p.maxPayload)
	}
	o.MaxPayload = p.maxPayload
	return o, nil
}
