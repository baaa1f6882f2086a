package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
)

// sizes are the terminal sizes the safety tests resize through, odd and
// tiny ones included.
var sizes = [][2]int{{80, 24}, {132, 43}, {200, 60}, {60, 16}, {40, 10}, {20, 5}, {7, 3}, {1, 1}}

// safetyInputs returns the inputs the safety tests drive the viewer
// through: the demo, generated hostile inputs, and the hostile corpus.
func safetyInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{
		"demo":     demo,
		"hostile1": hostile(1, 3000),
		"hostile2": hostile(2, 150<<10),
		// A payload longer than a checkpoint block, and a run of identical
		// rows longer than a scan chunk.
		"long-osc": append(append([]byte("before\x1b]52;c;"), bytes.Repeat([]byte("QUJD"), 50<<10)...), "\x07after\r\n"...),
		"zeros":    append(append([]byte("head\x1b[31m"), make([]byte, zerosLen())...), "\x1b[0mtail"...),
		"empty":    {},
		"one-esc":  []byte("\x1b"),
	}
	for _, f := range corpus(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in["corpus/"+filepath.Base(f)] = b
	}
	return in
}

// zerosLen is the length of the run of NUL bytes in the "zeros" input:
// 3 MiB under CI, just over a scan chunk otherwise (every NUL is a token,
// and a tour searches them all).
func zerosLen() int {
	if exhaustive() {
		return 3 << 20
	}
	return scanChunk + 64<<10
}

// checker returns an each-callback for a driver that fails t on the first
// unsafe or misshapen View.
func checker(t *testing.T, name string) func(*model, string) {
	failed := false
	return func(m *model, v string) {
		if failed || m.w <= 0 || m.h <= 0 {
			return
		}
		if probs := viewProblems(v, m.w, m.h); len(probs) > 0 {
			failed = true
			t.Errorf("%s at %dx%d, cursor %d: unsafe or misshapen View:\n%s", name, m.w, m.h, m.sv().cursor, probs)
		}
	}
}

// tour drives the model through every feature at each of sizes:
// resizes, focus, help, goto, searches, sequence and class jumps, marks,
// the mouse.
func tour(d *driver, sizes [][2]int) {
	for _, sz := range sizes {
		d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		d.press("<home>jjjjj<end>kkk<pgup><pgup><pgdown>l<left>h")
		d.press("<tab>jj<tab><down><up><tab>jjjjjjjjkk]][[<tab><tab><stab>??")
		d.press("g50%<enter>g+16<enter>g-16<enter>g0x10<enter>gzz<enter>g<esc>")
		d.press("/text<enter>/<enter>/TEXT<enter>x1b 5b<enter>xzz<enter>x<enter>")
		d.press("nnnNN<end>N<home>n")
		d.press("ma<pgdown>'a'bm1")
		for y := 0; y < sz[1]; y += 3 {
			for x := 0; x < sz[0]; x += 9 {
				d.send(tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
			}
			d.send(tea.MouseMsg{X: 1, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
		}
		d.send(tea.MouseMsg{X: 1, Y: 1, Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	}
}

// safetyModes are the two ways the safety tests draw: in colour, and
// with attributes only, payloads hidden and ASCII glyphs.
var safetyModes = []struct {
	name    string
	profile termenv.Profile
	color   bool
	o       Options
}{
	{"color", termenv.ANSI256, true, Options{}},
	{"mono", termenv.ANSI, false, Options{HidePayloads: true, ASCII: true, NoColor: true}},
}

// safetyNames returns the names of the safety inputs a run drives the
// viewer through: every generated input, and the corpus files sample
// picks (all of them under CI).
func safetyNames(t *testing.T, inputs map[string][]byte) []string {
	var gen, files []string
	for name := range inputs {
		if strings.HasPrefix(name, "corpus/") {
			files = append(files, name)
		} else {
			gen = append(gen, name)
		}
	}
	slices.Sort(gen)
	return append(gen, sample(t, files, 12)...)
}

// tourSizes returns the sizes a tour of input name resizes through:
// every size for the generated inputs under CI, one otherwise (the
// corpus is many small files), three of them with -short.
func tourSizes(name string) [][2]int {
	switch {
	case strings.HasPrefix(name, "corpus/"):
		return sizes[:1]
	case exhaustive():
		return sizes
	case testing.Short():
		return [][2]int{sizes[0], sizes[5], sizes[7]}
	}
	return [][2]int{sizes[0], sizes[3], sizes[5], sizes[6], sizes[7]}
}

// TestViewSafe drives the real model through Update over the demo,
// generated hostile inputs and the hostile corpus, at many sizes, in
// colour and without, walking every byte of the small inputs and every
// page of the large ones, and checks every View: only SGR, LF and graphic
// characters, exactly the terminal's height and width. Under CI it runs
// over every corpus file and size; elsewhere over a sample.
func TestViewSafe(t *testing.T) {
	t.Parallel()
	inputs := safetyInputs(t)
	names := safetyNames(t, inputs)
	for _, mode := range safetyModes {
		st := testStyles(mode.profile, mode.color)
		for _, name := range names {
			data := inputs[name]
			t.Run(mode.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				d := newDriver(t, load(t, data), mode.o, st, 100, 30, checker(t, name))
				d.walk(int64(len(data)), walkPages(), !exhaustive())
				tour(d, tourSizes(name))
			})
		}
	}
}

// walkPages is how many pages a walk through a large input goes:
// every page under CI, a sample of them otherwise (the rest at once).
func walkPages() int {
	switch {
	case exhaustive():
		return 10000
	case testing.Short():
		return 20
	}
	return 100
}

// canary is a deliberately unsafe model: its View adds a capture payload
// raw, as a viewer without render would.
type canary struct {
	*model
	raw []byte
}

func (c canary) View() string { return c.model.View() + string(c.raw) }

// TestCheckerCatchesCanary checks that the checker the safety tests rely
// on catches a View that passes capture bytes through.
func TestCheckerCatchesCanary(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.ANSI256, true), 80, 24, nil)
	if probs := viewProblems(d.m.View(), 80, 24); len(probs) > 0 {
		t.Fatalf("the real model fails the checker: %q", probs)
	}
	for _, raw := range []string{
		"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07", "\x1b]0;pwn\x1b\\", "\x07", "\x9b31m", "\xc2\x9b31m",
		"\u202e", "\u200b", "\x7f", "\x1b[2J", "\x1b[?1049l", "\xff", "\r", "\t", "\x1bP$qm\x1b\\", "\x1b^pm\x1b\\",
		"\x1b_apc\x1b\\", "\x1bXsos\x1b\\", "\x1bkt\x1b\\", "\x1b7", "\x1b[31;?m",
	} {
		c := canary{d.m, []byte(raw)}
		if probs := viewProblems(c.View(), 80, 24); len(probs) == 0 {
			t.Errorf("checker passed a View with %q appended", raw)
		}
	}
}

// TestViewNoCR checks the View has no CR for bubbletea to trip on, and is
// fixed height before the first resize too.
func TestViewNoCR(t *testing.T) {
	t.Parallel()
	m := newModel(load(t, demo), Options{}, testStyles(termenv.Ascii, false))
	if v := m.View(); v != "" {
		t.Errorf("View before the first WindowSizeMsg = %q, want empty", v)
	}
	d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.Ascii, false), 90, 25, nil)
	if v := d.m.View(); bytes.ContainsRune([]byte(v), '\r') {
		t.Error("View holds a CR")
	}
}
