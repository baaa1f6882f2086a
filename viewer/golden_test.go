package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/internal/golden"
)

// TestGolden compares View() of the real model, driven through Update at a
// fixed size with the colour profile pinned, with testdata/NAME.golden.
// go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	t.Parallel()
	progress, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "cr-progress.bin"))
	if err != nil {
		t.Fatal(err)
	}
	overwrite := func() *Compare { return policyPair(t, "cr=overwrite") }
	// demoB is the demo with two lines changed in place (same length).
	demoB := bytes.Replace(bytes.Replace(demo, []byte("rm -rf ~"), []byte("rm -rf /"), 1), []byte("BS hiding"), []byte("BS HIDING"), 1)
	captures := func() *Compare { return &Compare{Capture: load(t, demoB), Name: "demo-b"} }
	for _, tc := range []struct {
		name    string
		data    []byte
		profile termenv.Profile
		o       Options
		w, h    int
		keys    string
	}{
		{"demo-start", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, ""},
		{"demo-sequences", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "nnnnnnnn"},
		{"demo-text-focus", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "g0x1c0<enter><tab><tab>jj"},
		{"demo-report-jump", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "<stab>jjjjjjjj]]"},
		{"demo-end", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "<end>"},
		{"demo-help", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "?"},
		{"demo-search", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "/gpj<enter>"},
		{"demo-prompt", demo, termenv.ANSI256, Options{Name: "demo"}, 120, 36, "x1b 5d<left>\u202e"},
		{"demo-mono", demo, termenv.Ascii, Options{Name: "demo", NoColor: true}, 120, 36, "g0x200<enter>"},
		{"demo-attributes", demo, termenv.ANSI, Options{Name: "demo", NoColor: true}, 120, 36, "g0x200<enter>"},
		{"demo-hidden-ascii", demo, termenv.ANSI256, Options{Name: "demo", HidePayloads: true, ASCII: true}, 100, 30, "g0x210<enter>"},
		{"demo-narrow", demo, termenv.ANSI256, Options{Name: "demo"}, 60, 20, "g0x2c0<enter>"},
		{"hostile", hostile(11, 4000), termenv.ANSI256, Options{Name: "hostile"}, 120, 36, "g50%<enter>"},
		{"zeros-squeezed", append(append([]byte("head\x1b[31m"), make([]byte, 3<<20)...), "\x1b[0mtail"...), termenv.ANSI256, Options{Name: "zeros"}, 100, 20, "jj"},
		{"tiny", demo, termenv.ANSI256, Options{Name: "demo"}, 30, 6, ""},
		{"compare-policy", progress, termenv.ANSI256, Options{Name: "cr-progress.bin", Compare: overwrite()}, 120, 16, ""},
		{"compare-policy-mono", progress, termenv.Ascii, Options{Name: "cr-progress.bin", NoColor: true, Compare: overwrite()}, 120, 16, "j"},
		{"compare-captures", demo, termenv.ANSI256, Options{Name: "demo", Compare: captures()}, 140, 30, "d"},
		{"compare-captures-mono", demo, termenv.Ascii, Options{Name: "demo", NoColor: true, Compare: captures()}, 140, 30, "dd<tab><tab>d"},
		{"compare-captures-help", demo, termenv.ANSI256, Options{Name: "demo", Compare: captures()}, 140, 30, "?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDriver(t, load(t, tc.data), tc.o, testStyles(tc.profile, !tc.o.NoColor), tc.w, tc.h, nil)
			d.press(tc.keys)
			got := d.m.View()
			if probs := viewProblems(got, tc.w, tc.h); len(probs) > 0 {
				t.Errorf("unsafe or misshapen View: %q", probs)
			}
			golden.Check(t, filepath.Join("testdata", tc.name+".golden"), []byte(got+"\n"))
		})
	}
}
