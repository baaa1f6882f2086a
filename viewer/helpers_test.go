package viewer

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
)

// viewProblems checks a View() string: exactly h lines of exactly w cells,
// and nothing in it but SGR control sequences, LF and graphic characters
// (no other C0, no C1 in either spelling, no DEL, no Unicode format
// characters, valid UTF-8). It returns what is wrong, escaped.
func viewProblems(s string, w, h int) []string {
	var probs []string
	bad := func(format string, a ...any) {
		if len(probs) < 10 {
			probs = append(probs, fmt.Sprintf(format, a...))
		}
	}
	p := []byte(s)
	for t := range decode.Tokens(p) {
		seq := p[t.Off:t.End()]
		switch {
		case t.Kind == decode.KindText:
			for _, r := range string(seq) {
				if r >= 0x20 && r < 0x7F {
					continue
				}
				if r != '\n' && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp)) {
					bad("rune %U in text %q", r, seq)
				}
			}
		case t.Kind == decode.KindCSI && t.Intro == decode.Intro7Bit && t.Final == 'm' && t.Private == 0 &&
			t.NInter == 0 && t.Flags == 0 && sgrParams(seq[2:len(seq)-1]):
		default:
			bad("%s token %q at %d", t.Kind, seq, t.Off)
		}
	}
	if !utf8.Valid(p) {
		bad("invalid UTF-8")
	}
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		bad("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if cw := cells(l); cw != w {
			bad("line %d is %d cells wide, want %d: %q", i, cw, w, l)
		}
	}
	return probs
}

// sgrParams reports whether p holds only SGR parameter bytes.
func sgrParams(p []byte) bool {
	for _, b := range p {
		if (b < '0' || b > '9') && b != ';' && b != ':' {
			return false
		}
	}
	return true
}

// cells returns the display width of a line of View output as the viewer
// measures it: render.Safe.Width of the text without SGR.
func cells(line string) int {
	var b strings.Builder
	for {
		i := strings.Index(line, "\x1b[")
		if i < 0 {
			b.WriteString(line)
			break
		}
		b.WriteString(line[:i])
		j := strings.IndexByte(line[i:], 'm')
		if j < 0 {
			return -1
		}
		line = line[i+j+1:]
	}
	return render.Width(b.String())
}

// testStyles returns the viewer's styles from a renderer of its own with
// colour profile p, so that tests with different profiles run in
// parallel; nothing touches lipgloss's global renderer.
func testStyles(p termenv.Profile, color bool) Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	return NewStyles(r, color)
}

// exhaustive reports whether the long tours run over every input, size
// and byte: under CI (CI=true, as .ci/run sets it) unless -short.
// Otherwise they run over a sample.
func exhaustive() bool { return !testing.Short() && os.Getenv("CI") == "true" }

// sample returns names when the tours are exhaustive, else k of them
// (fewer with -short) chosen by the run's seed, which it logs:
// BYTELENS_TEST_SEED=N repeats a run's choice. Over many runs every
// input gets its turn.
func sample(t *testing.T, names []string, k int) []string {
	names = slices.Clone(names)
	slices.Sort(names)
	if exhaustive() || len(names) <= k {
		return names
	}
	if testing.Short() {
		k = max(1, k/3)
	}
	seed, err := strconv.ParseUint(os.Getenv("BYTELENS_TEST_SEED"), 10, 64)
	if err != nil {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("sampled %d of %d inputs with BYTELENS_TEST_SEED=%d (CI=true runs them all)", k, len(names), seed)
	r := rand.New(rand.NewPCG(seed, 0))
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	out := names[:k]
	slices.Sort(out)
	return out
}

// keys turns a script into key messages: words in angle brackets name
// special keys (<down>, <pgdown>, <enter>, <tab>), anything else is typed
// rune by rune.
func keys(script string) []tea.KeyMsg {
	special := map[string]tea.KeyType{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "stab": tea.KeyShiftTab,
		"bs": tea.KeyBackspace, "ctrlc": tea.KeyCtrlC,
	}
	var out []tea.KeyMsg
	for len(script) > 0 {
		if script[0] == '<' {
			if end := strings.IndexByte(script, '>'); end > 1 {
				if k, ok := special[script[1:end]]; ok {
					out = append(out, tea.KeyMsg{Type: k})
					script = script[end+1:]
					continue
				}
			}
		}
		r, n := utf8.DecodeRuneInString(script)
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		script = script[n:]
	}
	return out
}

// driver runs the real model the way bubbletea does, without a terminal:
// messages go through Update, and the commands Update returns (background
// index steps, search steps) run synchronously.
type driver struct {
	t    testing.TB
	m    *model
	quit bool
	// each is called with the model and its View after every update.
	each func(m *model, view string)
}

// newDriver returns a driver of a model of c at w×h, its index built.
func newDriver(t testing.TB, c *capture.Capture, o Options, st Styles, w, h int, each func(*model, string)) *driver {
	d := &driver{t: t, m: newModel(c, o, st), each: each}
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// walk moves the cursor through all n bytes: a byte at a time for small
// inputs (4 KiB under CI, 512 bytes otherwise), else up to pages
// page-downs and, when end is set, End for the rest. It fails the test
// when the cursor does not reach the last byte.
func (d *driver) walk(n int64, pages int, end bool) {
	d.t.Helper()
	small := int64(512)
	if exhaustive() {
		small = 4096
	}
	switch {
	case n == 0:
		return
	case n <= small:
		for i := int64(1); i < n; i++ {
			d.press("l")
		}
	default:
		for i := 0; i < pages && d.m.sv().cursor < n-1; i++ {
			d.press("<pgdown>")
		}
		if end {
			d.press("<end>")
		}
	}
	if d.m.sv().cursor != n-1 {
		d.t.Errorf("walk ended at %d, want %d", d.m.sv().cursor, n-1)
	}
}

// send delivers msg and runs what it returns.
func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	if d.m.err != nil {
		d.t.Fatalf("model failed: %v", d.m.err)
	}
	if d.each != nil {
		d.each(d.m, d.m.View())
	}
	d.run(cmd)
}

// run runs cmd and the commands that follow from it.
func (d *driver) run(cmd tea.Cmd) {
	drive(cmd, func(msg tea.Msg) tea.Cmd {
		if _, ok := msg.(tea.QuitMsg); ok {
			d.quit = true
			return nil
		}
		_, next := d.m.Update(msg)
		if d.m.err != nil {
			d.t.Fatalf("model failed: %v", d.m.err)
		}
		if d.each != nil {
			d.each(d.m, d.m.View())
		}
		return next
	})
}

// drive runs cmd and every command that the messages it leads to return,
// one at a time, as bubbletea delivers them: a batch is unpacked, and
// each other message goes to deliver, which returns the next command.
func drive(cmd tea.Cmd, deliver func(tea.Msg) tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			queue = append(queue, deliver(msg))
		}
	}
}

// press types a key script.
func (d *driver) press(script string) {
	for _, k := range keys(script) {
		d.send(k)
	}
}

// load returns a raw capture of data.
func load(t testing.TB, data []byte) *capture.Capture {
	t.Helper()
	c, err := capture.Load(bytes.NewReader(data), int64(len(data)), capture.OpenOptions{Format: "raw"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hostileFragments are pieces that hostile inputs are made of. The
// canary words inside the PM and the OSC 52 must never reach the screen
// with payloads hidden.
var hostileFragments = [][]byte{
	[]byte("plain text "), []byte("\r\n"), []byte("\r"), []byte("\b\b"), []byte("\t"),
	[]byte("\x1b[31m"), []byte("\x1b[0m"), []byte("\x1b[2J\x1b[H"), []byte("\x1b[?1049h"), []byte("\x1b[6n"),
	[]byte("\x1b]0;EVILTITLE\x07"), []byte("\x1b]2;EVILTITLE\x1b\\"), []byte("\x1b]52;c;" + "Q0xJUFBZQ0FOQVJZ" + "\x07"),
	[]byte("\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\"), []byte("\x1b^PMQUIETCANARY words\x1b\\"),
	[]byte("\x1bP$qm\x1b\\"), []byte("\x1bPtmux;\x1b\x1b]52;c;WFhY\x07\x1b\\"), []byte("\x1b_Gf=100;AAAA\x1b\\"),
	[]byte("\x1bXsos\x1b\\"), []byte("\x1bkscreen\x1b\\"), []byte("\x9b31m"), []byte("\x9d0;c1title\x9c"),
	[]byte("\xc2\x9b32m"), []byte("\xc2\x85"), []byte("\x00\x07\x7f\x0e\x1a\x18"), []byte("\xff\xfe\xe6\x9b\xc0\xaf"),
	[]byte("\u202e\u2066\u200b\u2060\ufeff\U000E0041"), []byte("\u200d\u00ad\ufe0f"), []byte("终端 देवनागरी مرحبا "),
	[]byte("\x1b"), []byte("\x1b["), []byte("\x1b]"), []byte("\x1b[1;2$3m"), []byte("\x1b[31\x18"),
}

// hostile returns n bytes of shuffled hostile fragments.
func hostile(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var b []byte
	for len(b) < n {
		b = append(b, hostileFragments[r.IntN(len(hostileFragments))]...)
	}
	return b[:n]
}

// corpus returns the hostile corpus files, by name.
func corpus(t testing.TB) []string {
	files, err := filepath.Glob("../testdata/corpus/*.bin")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}
