package command

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// TestPolicyFlags checks that the policy flags start from sanitize's
// defaults, set the options they return, and that key=value settings
// apply on top through the same parser.
func TestPolicyFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	o := PolicyFlags(fs)
	for _, k := range sanitize.PolicyKeys {
		if f := fs.Lookup(k); f == nil || f.DefValue != (sanitize.Options{}).Get(k) || f.Usage == "" {
			t.Errorf("flag %s: %+v", k, f)
		}
	}
	if want := ": " + strings.Join(sanitize.PolicyValues("cr"), ", "); !strings.HasSuffix(fs.Lookup("cr").Usage, want) {
		t.Errorf("--cr usage %q does not list the values", fs.Lookup("cr").Usage)
	}
	if err := fs.Parse([]string{"--cr", "screen", "--apc-bel"}); err != nil {
		t.Fatal(err)
	}
	if o.CR != sanitize.CRScreen || !o.APCBEL {
		t.Errorf("options %v", o)
	}
	if err := fs.Parse([]string{"--links", "sideways"}); err == nil {
		t.Error("bad --links value accepted")
	}
	b, err := ApplyPolicy(*o, "format-chars=keep", "--b-policy")
	if err != nil || b.CR != sanitize.CRScreen || b.FormatChars != sanitize.FormatKeep {
		t.Errorf("ApplyPolicy = %v, %v", b, err)
	}
	var ue UsageError
	if _, err := ApplyPolicy(*o, "cr", "--b-policy"); !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "--b-policy: ") {
		t.Errorf("bad setting: %v, want a usage error naming --b-policy", err)
	}
	some := pflag.NewFlagSet("t", pflag.ContinueOnError)
	PolicyFlags(some, "c1", "apc-bel")
	if some.Lookup("cr") != nil || some.Lookup("c1") == nil {
		t.Error("PolicyFlags with keys registered others")
	}
}

// TestFailOn checks --fail-on: an unknown class is a usage error, a class
// that occurs fails with each occurrence named, one that does not passes.
func TestFailOn(t *testing.T) {
	var rep sanitize.Report
	sw := sanitize.NewWriter(&bytes.Buffer{}, sanitize.Options{})
	sw.Write([]byte("a\x1b]52;c;eA==\x07b"))
	sw.Close()
	rep = sw.Report()
	reps := []capture.StreamReport{{Stream: render.LineString("output"), Report: rep}}
	for _, tc := range []struct {
		list   string
		code   int // -1: no error
		usage  bool
		stderr string
	}{
		{"", -1, false, ""},
		{"title", -1, false, ""},
		{"clipboard", ExitFailure, false, "bytelens: fail-on: stream output: clipboard at offset 0x1"},
		{"any", ExitFailure, false, "clipboard"},
		{"clipbaord", 0, true, "unknown class"},
	} {
		t.Run(tc.list, func(t *testing.T) {
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			f := FailOnFlag(fs)
			fs.Parse([]string{"--fail-on=" + tc.list})
			var b bytes.Buffer
			err := f.Check(render.NewWriter(&b), reps)
			var ue UsageError
			var ee ExitError
			switch {
			case tc.usage:
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.stderr) {
					t.Errorf("err %v, want a usage error", err)
				}
			case tc.code < 0 && err != nil, tc.code >= 0 && (!errors.As(err, &ee) || ee.Code != tc.code):
				t.Errorf("err %v, want exit %d", err, tc.code)
			case !strings.Contains(b.String(), tc.stderr):
				t.Errorf("stderr %q lacks %q", b.String(), tc.stderr)
			}
		})
	}
}

func TestScreenFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string // "" when Check passes
	}{
		{nil, ""},
		{[]string{"--screen", "--hidden-text", "full", "--size", "100x30"}, ""},
		{[]string{"--screen", "--hidden-text", "all"}, `--hidden-text must be none, preview or full, not "all"`},
		{[]string{"--size", "100x30"}, "--size and --hidden-text go with --screen"},
		{[]string{"--hidden-text", "none"}, "--size and --hidden-text go with --screen"},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		sf := ScreenFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := sf.Check()
		var ue UsageError
		if tc.msg == "" && err != nil || tc.msg != "" && (!errors.As(err, &ue) || err.Error() != tc.msg) {
			t.Errorf("%q: Check = %v, want %q", tc.args, err, tc.msg)
		}
	}
	sf := &Screen{Size: "100x30"}
	if o, err := sf.Options(sanitize.Options{APCBEL: true}, true); err != nil || o.Cols != 100 || o.Rows != 30 || !o.Findings || !o.Policy.APCBEL {
		t.Errorf("Options = %+v, %v", o, err)
	}
	sf.Size = "0x0"
	if _, err := sf.Options(sanitize.Options{}, false); err == nil || !strings.HasPrefix(err.Error(), "--size: ") {
		t.Errorf("bad size: %v", err)
	}
}

func TestScreenWhere(t *testing.T) {
	for _, tc := range []struct {
		sf  Screen
		at  int64
		msg string
	}{
		{Screen{}, -1, ""},
		{Screen{At: "4096"}, 4096, ""},
		{Screen{At: "0x1000"}, 4096, ""},
		{Screen{Frame: 3}, -1, ""},
		{Screen{At: "1", Frame: 1}, 0, "--at and --frame are two ways to say where: give one"},
		{Screen{Frame: -2}, 0, "--frame wants a frame number from 1, not -2"},
		{Screen{At: "-5"}, 0, `--at wants a byte offset, such as 4096 or 0x1000, not "-5"`},
		{Screen{At: "end"}, 0, `--at wants a byte offset, such as 4096 or 0x1000, not "end"`},
	} {
		at, err := tc.sf.Where()
		if tc.msg == "" && (err != nil || at != tc.at) || tc.msg != "" && (err == nil || err.Error() != tc.msg) {
			t.Errorf("%+v: Where = %d, %v; want %d, %q", tc.sf, at, err, tc.at, tc.msg)
		}
	}
}

// TestScreenAtText checks that messages echo --at as typed, with its
// decimal value after a hex one.
func TestScreenAtText(t *testing.T) {
	for at, want := range map[string]string{"9999": "9999", "0x1f00": "0x1f00 (7936)", "010": "010 (8)"} {
		sf := Screen{At: at}
		n, err := sf.Where()
		if got := sf.AtText(n); err != nil || got != want {
			t.Errorf("AtText(%q) = %q, %v; want %q", at, got, err, want)
		}
	}
}
