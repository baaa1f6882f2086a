package command

import (
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/viewer"
	"github.com/spf13/pflag"
)

// Compare holds view's --compare B and --compare-policy SETTINGS.
type Compare struct {
	File, Policy string
	fs           *pflag.FlagSet
}

// CompareFlags registers --compare and --compare-policy on fs.
func CompareFlags(fs *pflag.FlagSet) *Compare {
	c := &Compare{fs: fs}
	fs.StringVar(&c.File, "compare", "", "compare with capture `B` under the same policy")
	fs.StringVar(&c.Policy, "compare-policy", "", "compare with the same capture under these `SETTINGS` on top of the policy flags, e.g. cr=overwrite")
	return c
}

// Options returns what the flags ask for, nil for neither, or a usage
// error: both flags, an empty B or settings, or stdin ("-") as both
// args's FILE and B. base is the policy of the policy flags; B's capture
// is opened later.
func (c *Compare) Options(base sanitize.Options, args []string) (*viewer.Compare, error) {
	byFile, byPolicy := c.fs.Changed("compare"), c.fs.Changed("compare-policy")
	switch {
	case byFile && byPolicy:
		return nil, Usagef("--compare and --compare-policy cannot be used together: compare two captures, or one capture under two policies")
	case byFile && c.File == "":
		return nil, Usagef("--compare needs a capture to compare with")
	case byFile && c.File == "-" && len(args) > 0 && args[0] == "-":
		return nil, Usagef("stdin can be only one of FILE and --compare")
	case byFile:
		return &viewer.Compare{Sanitize: base}, nil
	case byPolicy && strings.TrimSpace(c.Policy) == "":
		return nil, render.HintError{Err: Usagef("--compare-policy needs settings"), Tip: "for example --compare-policy cr=overwrite,format-chars=keep"}
	case byPolicy:
		o, err := ApplyPolicy(base, c.Policy, "--compare-policy")
		if err != nil {
			return nil, err
		}
		return &viewer.Compare{Name: c.Policy, Sanitize: o}, nil
	}
	return nil, nil
}
