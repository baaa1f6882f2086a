package command

import (
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
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

// PolicyFlags registers the policy flags named by keys (all of
// sanitize.PolicyKeys when none) on fs and returns the options they set:
// each flag is a sanitize.PolicyFlag, so a bad value is a flag error
// (exit 2) from sanitize.Options.Set, and the defaults are sanitize's.
func PolicyFlags(fs *pflag.FlagSet, keys ...string) *sanitize.Options {
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

// ApplyPolicy returns o with the key=value settings (comma- or
// line-separated, sanitize.Options.Apply) given by what (a flag or a
// file) applied; a bad setting is a usage error naming what.
func ApplyPolicy(o sanitize.Options, settings, what string) (sanitize.Options, error) {
	if err := o.Apply(settings); err != nil {
		return o, Usagef("%s: %v", what, err)
	}
	return o, nil
}

// FailOn is the --fail-on flag of report and clean.
type FailOn struct{ list string }

// FailOnFlag registers --fail-on on fs.
func FailOnFlag(fs *pflag.FlagSet) *FailOn {
	f := &FailOn{}
	fs.StringVar(&f.list, "fail-on", "", "exit 1, naming each occurrence with its offset, when the report has one of these comma-separated `CLASSES`: advisory flags, anomalies, kept non-ASCII blanks and malformed recorder annotations ("+strings.Join(sanitize.ReportClasses(), ", ")+"), or "+sanitize.ClassAny+" for all of them but "+sanitize.ClassNonASCIIBlanks+" (named only)")
	return f
}

// Classes returns the classes the flag names (sanitize.ParseClasses), or
// a usage error.
func (f *FailOn) Classes() ([]string, error) {
	cs, err := sanitize.ParseClasses(f.list)
	if err != nil {
		return nil, Usagef("--fail-on: %v", err)
	}
	return cs, nil
}

// Check names on w each occurrence in reps of a class the flag names
// (render.WriteGate), and returns ExitError{ExitFailure} when there was
// one.
func (f *FailOn) Check(w *render.Writer, reps []capture.StreamReport) error {
	classes, err := f.Classes()
	if err != nil || len(classes) == 0 {
		return err
	}
	failed := false
	for _, r := range reps {
		failed = render.WriteGate(w, r.Stream, &r.Report, r.LoaderAnomalies, classes) || failed
	}
	if err := w.Err(); err != nil {
		return err
	}
	if failed {
		return ExitError{ExitFailure}
	}
	return nil
}

// Screen holds the flags of the screen model, shared by screen and
// report --screen.
type Screen struct {
	// On is report's --screen.
	On bool
	// Size is --size COLSxROWS, "" for the capture's own or 80x24.
	Size string
	// HiddenText is --hidden-text: render.HiddenNone, HiddenPreview or
	// HiddenFull.
	HiddenText string
	// At and Frame are screen's --at OFFSET (decimal or 0x hex) and
	// --frame N (from 1): where in the stream the screen is shown.
	At    string
	Frame int
}

// Where returns the byte offset --at gives (-1 without it), or a usage
// error for a bad one or for --at with --frame.
func (sf *Screen) Where() (int64, error) {
	switch {
	case sf.At != "" && sf.Frame != 0:
		return 0, Usagef("--at and --frame are two ways to say where: give one")
	case sf.Frame < 0:
		return 0, Usagef("--frame wants a frame number from 1, not %d", sf.Frame)
	case sf.At == "":
		return -1, nil
	}
	at, err := strconv.ParseInt(sf.At, 0, 64)
	if err != nil || at < 0 {
		return 0, Usagef("--at wants a byte offset, such as 4096 or 0x1000, not %q", sf.At)
	}
	return at, nil
}

// AtText returns --at as the user typed it, with at, its value, after it
// in parentheses when the two differ ("0x1f00 (7936)"), for messages.
func (sf *Screen) AtText(at int64) string {
	if n := strconv.FormatInt(at, 10); n != sf.At {
		return sf.At + " (" + n + ")"
	}
	return sf.At
}

// ScreenSizeFlag registers --size on fs, setting sf.Size.
func ScreenSizeFlag(fs *pflag.FlagSet, sf *Screen) {
	fs.StringVar(&sf.Size, "size", "", "screen size COLSxROWS when the capture states none (default 80x24; at most 1000x1000)")
}

// ScreenFlags registers report's --screen, --hidden-text and --size.
func ScreenFlags(fs *pflag.FlagSet) *Screen {
	sf := &Screen{}
	fs.BoolVar(&sf.On, "screen", false, "model the terminal screen and add the hidden-text findings (JSON: display)")
	fs.StringVar(&sf.HiddenText, "hidden-text", render.HiddenPreview, "how findings show hidden text: none, preview (escaped, cut short) or full (escaped)")
	ScreenSizeFlag(fs, sf)
	return sf
}

// Check returns a usage error for a --hidden-text value that is none of
// its three, and for --size or --hidden-text without --screen.
func (sf *Screen) Check() error {
	switch sf.HiddenText {
	case render.HiddenNone, render.HiddenPreview, render.HiddenFull:
	default:
		return Usagef("--hidden-text must be none, preview or full, not %q", sf.HiddenText)
	}
	if !sf.On && (sf.Size != "" || sf.HiddenText != render.HiddenPreview) {
		return Usagef("--size and --hidden-text go with --screen")
	}
	return nil
}

// Options returns the options of capture.ModelScreen that the flags and
// policy set, or a usage error for a bad --size.
func (sf *Screen) Options(policy sanitize.Options, findings bool) (capture.ScreenOptions, error) {
	o := capture.ScreenOptions{Findings: findings, Policy: policy}
	if sf.Size != "" {
		var err error
		if o.Cols, o.Rows, err = screen.ParseSize(sf.Size); err != nil {
			return o, Usagef("--size: %v", err)
		}
	}
	return o, nil
}
