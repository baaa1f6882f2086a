package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/sanitize"
)

// comparePolicies are the B policies the compare safety test rotates
// through, one per input.
var comparePolicies = []string{"cr=overwrite", "format-chars=keep", "c1=lone,apc-bel=true", "bs=overstrike,links=append", "cr=drop,format-chars=escape"}

// policyPair returns compare options for the capture under settings.
func policyPair(t testing.TB, settings string) *Compare {
	o, err := sanitize.ParsePolicy(settings)
	if err != nil {
		t.Fatal(err)
	}
	return &Compare{Name: settings, Sanitize: o}
}

// compareTour is tour plus what compare mode adds: the difference keys
// in every pane, at the first size (each runs a search to its end).
func compareTour(d *driver, sizes [][2]int) {
	tour(d, sizes)
	d.send(tea.WindowSizeMsg{Width: sizes[0][0], Height: sizes[0][1]})
	d.press("<home>dddD<end>DDd<tab>jdD<tab>dddDDkk<tab><pgdown>d<pgup>D")
}

// TestCompareViewSafe drives the real model in compare mode through
// Update — policy pairs of the generated hostile inputs and of every
// corpus file, and pairs of different captures — walking every byte of
// the small inputs and every page of the large ones, and checks every
// View: only SGR, LF and graphic characters, exactly the terminal's
// height and width.
func TestCompareViewSafe(t *testing.T) {
	t.Parallel()
	inputs := safetyInputs(t)
	names := safetyNames(t, inputs)
	type pair struct {
		name string
		a    []byte
		cmp  *Compare
	}
	var pairs []pair
	for i, name := range names {
		pairs = append(pairs, pair{"policy/" + name, inputs[name], policyPair(t, comparePolicies[i%len(comparePolicies)])})
		b := inputs[names[(i+1)%len(names)]]
		if len(b) > 0 {
			pairs = append(pairs, pair{"captures/" + name, inputs[name], &Compare{Capture: load(t, b), Name: names[(i+1)%len(names)]}})
		}
	}
	for _, mode := range safetyModes {
		st := testStyles(mode.profile, mode.color)
		for _, p := range pairs {
			if !mode.color && strings.Contains(p.name, "corpus/") {
				continue // the text panes draw alike in mono: the corpus runs once
			}
			t.Run(mode.name+"/"+p.name, func(t *testing.T) {
				t.Parallel()
				o := mode.o
				o.Compare = p.cmp
				d := newDriver(t, load(t, p.a), o, st, 100, 30, checker(t, p.name))
				// Pages of text, then of bytes where there is none; the
				// rest of the longest inputs at once.
				d.walk(int64(len(p.a)), min(300, walkPages()), true)
				compareTour(d, tourSizes(p.name))
			})
		}
	}
}

// TestCompareDiffKeys checks where d and D land: on the starts of the
// lines whose input became different text on the other side, in order,
// and nowhere past the last; in the report pane, on differing rows.
func TestCompareDiffKeys(t *testing.T) {
	t.Parallel()
	progress, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "cr-progress.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		a      []byte
		cmp    *Compare
		script []string // keys, then the cursor they leave, alternately
	}{
		// "10%\r50%\r100%\ndone\n" under cr=lines gives the lines 10%,
		// 50%, 100%, done; under cr=drop the line 10%50%100%, done.
		// A's 10% (offset 0) and 50% (4) are nowhere in B; B's joined
		// line (0) is nowhere in A; 100% and done are on both sides.
		{"policy", progress, policyPair(t, "cr=drop"), []string{
			"d", "4", "d", "4", "<end>", "17", "D", "4", "D", "0", "D", "0", "<end>dd", "17",
		}},
		// Two captures, synchronized by offset: bravo (6) and delta (20)
		// differ; charlie (12) is the same bytes in both.
		{"captures", []byte("alpha\nbravo\ncharlie\ndelta\n"), &Compare{Capture: load(t, []byte("alpha\nBRAVO\ncharlie\ndelta!\n")), Name: "b"}, []string{
			"d", "6", "d", "20", "d", "20", "D", "6", "D", "6", "g13<enter>D", "6", "g13<enter>d", "20",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, load(t, tc.a), Options{Compare: tc.cmp}, testStyles(termenv.Ascii, false), 100, 20, nil)
			for i := 0; i < len(tc.script); i += 2 {
				d.press(tc.script[i])
				if got := itoa(d.m.sv().cursor); got != tc.script[i+1] {
					t.Fatalf("after %q: cursor %s, want %s", strings.Join(tc.script[:i+1], " "), got, tc.script[i+1])
				}
			}
			d.press("<end>d")
			if msg := d.m.msg.String(); msg != "no next difference found" {
				t.Errorf("d past the last difference: message %q", msg)
			}
		})
	}

	// In the report pane, d and D select differing rows: cr=drop changes
	// only the bytes out.
	d := newDriver(t, load(t, progress), Options{Compare: policyPair(t, "cr=drop")}, testStyles(termenv.Ascii, false), 100, 20, nil)
	d.press("<tab><tab>")
	if d.m.focus != paneDiff {
		t.Fatalf("focus %d after two tabs, want the compare report", d.m.focus)
	}
	var differing []string
	for _, r := range d.m.cmp.rows {
		if r.differs {
			differing = append(differing, r.name.String())
		}
	}
	if strings.Join(differing, " ") != "totals.bytes_out" {
		t.Errorf("differing rows %q, want totals.bytes_out only", differing)
	}
	d.press("d")
	if r := d.m.cmp.rows[d.m.cmp.sel]; r.name.String() != "totals.bytes_out" || r.a != "18" || r.b != "16" || r.d != "-2" {
		t.Errorf("d selected %q %s %s %s, want totals.bytes_out 18 16 -2", r.name, r.a, r.b, r.d)
	}
	d.press("d")
	if msg := d.m.msg.String(); msg != "no next differing row" {
		t.Errorf("d past the last differing row: message %q", msg)
	}
}

// TestCompareMarksWithoutColour checks that differing and equal lines can
// be told apart with colour off: a ! in the gutter, or a space.
func TestCompareMarksWithoutColour(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("10%\r50%\r100%\ndone\n")), Options{NoColor: true, Compare: policyPair(t, "cr=drop")}, testStyles(termenv.Ascii, false), 100, 20, nil)
	v := d.m.View()
	for _, want := range []string{"┃!10%  ", "┃!50%  ", "┃ 100%  ", "┃ done  ", "│!10%␤50%␤100%  ", "│ done  ", "│! totals.bytes_out", "│  totals.bytes_in"} {
		if !strings.Contains(v, want) {
			t.Errorf("View has no %q:\n%s", want, v)
		}
	}
	if bytes.Contains([]byte(v), []byte("\x1b[")) {
		t.Error("View has SGR with the Ascii profile")
	}
}
