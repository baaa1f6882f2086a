package command

import (
	"errors"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// TestCompare checks the combinations of --compare and --compare-policy:
// the usage errors, B under the same policy, and settings on top of it.
func TestCompare(t *testing.T) {
	base := sanitize.Options{CR: sanitize.CRScreen}
	for _, tc := range []struct {
		flags, args []string
		name        string // B's name; "-" for no comparison
		err         string
	}{
		{nil, nil, "-", ""},
		{[]string{"--compare", "b.cast"}, nil, "", ""},
		{[]string{"--compare-policy", "format-chars=keep"}, nil, "format-chars=keep", ""},
		{[]string{"--compare", "b", "--compare-policy", "cr=drop"}, nil, "", "--compare and --compare-policy cannot be used together: compare two captures, or one capture under two policies"},
		{[]string{"--compare", ""}, nil, "", "--compare needs a capture to compare with"},
		{[]string{"--compare", "-"}, []string{"-"}, "", "stdin can be only one of FILE and --compare"},
		{[]string{"--compare-policy", " "}, nil, "", "--compare-policy needs settings"},
		{[]string{"--compare-policy", "cr"}, nil, "", "--compare-policy: "},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		c := CompareFlags(fs)
		fs.Parse(tc.flags)
		cmp, err := c.Options(base, tc.args)
		var ue UsageError
		switch {
		case tc.err != "":
			if err == nil || !errors.As(err, &ue) || len(err.Error()) < len(tc.err) || err.Error()[:len(tc.err)] != tc.err {
				t.Errorf("%q: %v, want usage error %q", tc.flags, err, tc.err)
			}
		case err != nil || (cmp == nil) != (tc.name == "-"):
			t.Errorf("%q: %+v, %v", tc.flags, cmp, err)
		case cmp != nil && (cmp.Name != tc.name || cmp.Sanitize.CR != sanitize.CRScreen || tc.name != "" && cmp.Sanitize.FormatChars != sanitize.FormatKeep):
			t.Errorf("%q: %+v, want B named %q on top of the base policy", tc.flags, cmp, tc.name)
		}
	}
}
