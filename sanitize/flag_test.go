package sanitize

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestPolicyFlags parses a command line with the standard flag package
// into Options through Flag, and checks defaults, values and errors.
func TestPolicyFlags(t *testing.T) {
	parse := func(args ...string) (Options, error) {
		var o Options
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		for _, k := range PolicyKeys {
			fs.Var(o.Flag(k), k, "")
		}
		err := fs.Parse(args)
		return o, err
	}
	o, err := parse()
	if err != nil || o != (Options{}) {
		t.Errorf("no flags: %+v, %v", o, err)
	}
	o, err = parse("-cr", "overwrite", "-format-chars=keep", "-c1", "lone", "-apc-bel", "-max-payload", "10")
	if want := (Options{CR: CRScreen, FormatChars: FormatKeep, C1: C1Lone, APCBEL: true, MaxPayload: 10}); err != nil || o != want {
		t.Errorf("flags: %+v, %v; want %+v", o, err, want)
	}
	for _, bad := range [][]string{{"-cr", "sideways"}, {"-max-payload", "-1"}, {"-apc-bel=maybe"}} {
		if _, err := parse(bad...); err == nil || !strings.Contains(err.Error(), "invalid") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

func TestPolicyFlagValues(t *testing.T) {
	var o Options
	for _, tc := range []struct{ key, def, typ string }{
		{"cr", "lines", "string"}, {"bs", "drop", "string"}, {"links", "drop", "string"},
		{"format-chars", "strip", "string"}, {"c1", "introducers", "string"},
		{"apc-bel", "false", "bool"}, {"max-payload", "4096", "int64"},
	} {
		f := o.Flag(tc.key)
		if f.String() != tc.def || f.Type() != tc.typ || f.IsBoolFlag() != (tc.typ == "bool") {
			t.Errorf("%s: String %q Type %q IsBoolFlag %t; want %q %q", tc.key, f.String(), f.Type(), f.IsBoolFlag(), tc.def, tc.typ)
		}
	}
	if (PolicyFlag{}).String() != "" || o.Get("nope") != "" {
		t.Error("a zero PolicyFlag or an unknown key has a value")
	}
	// String and ParsePolicy are inverses.
	want := Options{CR: CRScreen, BS: BSOverstrike, Links: LinksAppend, FormatChars: FormatEscape, APCBEL: true, MaxPayload: 7}
	if got, err := ParsePolicy(want.String()); err != nil || got != want {
		t.Errorf("ParsePolicy(%q) = %+v, %v", want.String(), got, err)
	}
}

// TestCompleteSettings checks that the completions of a settings list
// keep its items before the last and offer each key's named values.
func TestCompleteSettings(t *testing.T) {
	got := CompleteSettings("cr=drop,li")
	if len(got) != 15 || got[0] != "cr=drop,cr=lines" || !slices.Contains(got, "cr=drop,links=append") || !slices.Contains(got, "cr=drop,apc-bel=true") {
		t.Errorf("CompleteSettings = %q", got)
	}
	for _, c := range got {
		if strings.Contains(c, "max-payload") || !strings.HasPrefix(c, "cr=drop,") {
			t.Errorf("completion %q", c)
		}
	}
	if got := CompleteSettings(""); got[0] != "cr=lines" {
		t.Errorf("first item: %q", got)
	}
}
