package viewer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/screen"
)

// TestScreenPane: S puts the screen pane in the cleaned text's place; it
// shows the screen just after the byte under the cursor, escaped, every
// View safe; a click on a cell moves the cursor to the byte that drew it.
func TestScreenPane(t *testing.T) {
	in := []byte("rm -rf ~/ \r\x1b[Kreport.txt\n\x1b[8mhidden\x1b[0m\n" + string(hostile(3, 2000)))
	var last string
	ready := false
	d := newDriver(t, load(t, in), Options{}, testStyles(termenv.Ascii, false), 160, 40, func(m *model, view string) {
		if probs := viewProblems(view, 160, 40); ready && len(probs) > 0 {
			t.Fatalf("unsafe view: %q", probs)
		}
		last = view
	})
	ready = true
	d.press("S")
	if !d.m.lay.shown[paneScreen] || d.m.lay.shown[paneText] {
		t.Fatalf("S did not put the screen pane in the cleaned text's place")
	}
	if !strings.Contains(last, "screen 80x24 (default) cols 1-52, main, LF as CR LF") {
		t.Errorf("title missing:\n%s", last)
	}
	row0 := func() string {
		return strings.TrimRight(screenPane{}.lines(d.m, 40, 3)[0], " ")
	}
	// At offset 0 the screen shows the first byte only.
	if got := row0(); got != "r" {
		t.Errorf("screen at offset 0: %q, want \"r\"", got)
	}
	// After the erase and the rewrite, the hidden command is gone.
	d.m.jump(25)
	d.send(tea.KeyMsg{Type: tea.KeyRight})
	if got := row0(); got != "report.txt" {
		t.Errorf("screen after the rewrite: %q", got)
	}
	// A click on the "p" of report.txt (byte 16) moves the cursor there.
	l := &d.m.lay
	d.send(tea.MouseMsg{X: l.x[paneScreen] + l.borderLeft + 2, Y: l.y[paneScreen] + l.borderTop, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if got := d.m.sv().cursor; got != 16 {
		t.Errorf("click: cursor %d, want 16", got)
	}
	d.walk(int64(len(in)), 3, true)
	d.press("S")
	if d.m.lay.shown[paneScreen] || !d.m.lay.shown[paneText] {
		t.Errorf("second S did not bring the cleaned text back")
	}
}

// TestScreenFindings: with the screen pane shown, the background pass
// finds the command hidden behind CR and EL; its cells are marked before
// they are hidden; f and r jump to it; the status line names it, its text
// escaped.
func TestScreenFindings(t *testing.T) {
	in := []byte("files: a.txt\r\n\x1b[31mrm -rf ~/\x1b[0m\r\x1b[Kb.txt\r\nok \x1b[8mhid\x1b[m\r\n")
	d := newDriver(t, load(t, in), Options{}, testStyles(termenv.Ascii, false), 160, 40, nil)
	d.press("S")
	c := d.m.sv().scr
	if c == nil || !c.done {
		t.Fatalf("screen pass not done")
	}
	if !d.m.keys.NextFinding.Enabled() || !d.m.keys.NextRanked.Enabled() {
		t.Errorf("finding keys not enabled with the screen pane shown")
	}
	rm := int64(bytes.Index(in, []byte("rm -rf")))
	// Before the erase, the cells of "rm -rf ~/" are marked as hidden later.
	d.m.jump(rm + 8)
	d.send(tea.KeyMsg{Type: tea.KeyRight})
	sm, _ := d.m.screenModel()
	for x, want := range []screenLook{lookHidden, lookHidden} {
		if cell := sm.Cell(x, 1); screenLookOf(&cell, -1, -1, c.hidden) != want {
			got := screenLookOf(&cell, -1, -1, c.hidden)
			t.Errorf("cell %d,1: look %d, want %d", x, got, want)
		}
	}
	if cell := sm.Cell(0, 0); screenLookOf(&cell, -1, -1, c.hidden) != lookPlain {
		got := screenLookOf(&cell, -1, -1, c.hidden)
		t.Errorf("cell 0,0 (files:): look %d, want plain", got)
	}
	// f from the start goes to the first finding by offset: the command.
	d.press("<home>f")
	if got := d.m.sv().cursor; got != rm {
		t.Errorf("f: cursor %d, want %d", got, rm)
	}
	note, ok := d.m.findingNote()
	if !ok || !strings.Contains(note.String(), "erased, rank") || !strings.Contains(note.String(), "by EL") || !strings.Contains(note.String(), "text rm -rf ~/") {
		t.Errorf("status note %q", note.String())
	}
	if view := d.m.View(); !strings.Contains(view, "text rm -rf ~/") {
		t.Errorf("status line does not name the finding:\n%s", view)
	}
	// f again: the concealed text; F back to the command.
	d.press("f")
	if got, want := d.m.sv().cursor, int64(bytes.Index(in, []byte("hid"))); got != want {
		t.Errorf("second f: cursor %d, want %d", got, want)
	}
	d.press("F")
	if got := d.m.sv().cursor; got != rm {
		t.Errorf("F: cursor %d, want %d", got, rm)
	}
	// r from the start goes to the highest-ranked finding, R cycles back.
	d.press("<home>r")
	top := c.finds[c.rank[0]].Off
	if got := d.m.sv().cursor; got != top {
		t.Errorf("r: cursor %d, want %d", got, top)
	}
	if len(c.rank) > 1 {
		d.press("r")
		if got := d.m.sv().cursor; got != c.finds[c.rank[1]].Off {
			t.Errorf("second r: cursor %d, want %d", got, c.finds[c.rank[1]].Off)
		}
		d.press("R")
		if got := d.m.sv().cursor; got != top {
			t.Errorf("R: cursor %d, want %d", got, top)
		}
	}
}

// TestScreenRankStepsSharedOffset: r and R visit every finding in rank
// order, and the status line names the one stepped to, when two findings
// start at one offset (the demo's hunter2, concealed and then erased).
func TestScreenRankStepsSharedOffset(t *testing.T) {
	demo, err := Demo()
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, demo, Options{}, testStyles(termenv.Ascii, false), 160, 40, nil)
	d.press("S")
	c := d.m.sv().scr
	if c == nil || !c.done {
		t.Fatalf("screen pass not done")
	}
	shared := false
	for i := 1; i < len(c.finds); i++ {
		shared = shared || c.finds[i].Off == c.finds[i-1].Off
	}
	if !shared {
		t.Fatalf("no two demo findings start at one offset")
	}
	for _, dir := range []struct {
		key  string
		step int
	}{{"r", 1}, {"R", -1}} {
		d.press("<home>")
		j := map[bool]int{true: 0, false: len(c.rank) - 1}[dir.step > 0]
		for range len(c.rank) + 1 {
			d.press(dir.key)
			f := &c.finds[c.rank[j]]
			note, _ := d.m.findingNote()
			if got := d.m.sv().cursor; got != f.Off || !strings.HasPrefix(note.String(), fmt.Sprintf("finding %d of ", j+1)) {
				t.Fatalf("%s to place %d by rank: cursor %d, note %q; want offset %d", dir.key, j+1, got, note.String(), f.Off)
			}
			j = (j + dir.step + len(c.rank)) % len(c.rank)
		}
	}
}

// TestScreenCheckpointBudget: checkpoints stay under the memory budget
// by thinning, which keeps at least half of it in use.
func TestScreenCheckpointBudget(t *testing.T) {
	c := &screenCache{set: capture.ScreenSetup{Cols: 80, Rows: 24}, step: screenStep}
	m, _ := screen.New(screen.Options{})
	m.Feed(bytes.Repeat([]byte("a full screen of text "), 100))
	cp := m.Snapshot()
	n := int(2*screenBudget/cp.Bytes()) + 3
	for range n {
		c.addCheckpoint(cp)
	}
	if got := int64(len(c.cps)) * cp.Bytes(); got > screenBudget || got != c.cpBytes {
		t.Errorf("%d checkpoints take %d bytes (counted %d), over the budget %d", len(c.cps), got, c.cpBytes, screenBudget)
	}
	if c.cpBytes < screenBudget/2 {
		t.Errorf("thinning kept %d bytes of checkpoints, under half the budget", c.cpBytes)
	}
	if c.step <= screenStep {
		t.Errorf("step %d did not grow", c.step)
	}
}

// TestScreenBehind: past where the screen pass has been, the pane does
// not replay the capture on the UI goroutine; once the pass is there, the
// screen comes from its checkpoints.
func TestScreenBehind(t *testing.T) {
	line := []byte("2026-12-01 build step ok\r\n")
	st := &capture.Stream{Name: capture.StreamOutput, Data: repeated{line, screenChunk + 2048}, Len: screenChunk + 2048}
	c, err := newScreenCache(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.modelAt(st.Len); err != errScreenBehind {
		t.Fatalf("before the pass: err %v, want errScreenBehind", err)
	}
	if msg := c.passStep(0)().(screenMsg); msg.err != nil {
		t.Fatal(msg.err)
	}
	m, err := c.modelAt(st.Len)
	if err != nil {
		t.Fatalf("after a step of the pass: %v", err)
	}
	if got := m.Offset(); got != st.Len {
		t.Errorf("model at %d, want %d", got, st.Len)
	}
}

// TestScreenFindingsIncremental: findings show after each step of the
// screen pass, before it has read the whole stream; f jumps to one.
func TestScreenFindingsIncremental(t *testing.T) {
	head := []byte("files: a.txt\r\nrm -rf ~/\r\x1b[Kb.txt\r\n")
	data := append(head, bytes.Repeat([]byte("2026-12-01 build step ok\r\n"), 3*screenChunk/26)...)
	st := &capture.Stream{Name: capture.StreamOutput, Data: bytes.NewReader(data), Len: int64(len(data))}
	c, err := newScreenCache(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	if msg := c.passStep(0)().(screenMsg); msg.err != nil {
		t.Fatal(msg.err)
	}
	if c.done {
		t.Fatalf("pass done after one step of %d bytes over %d", screenChunk, len(data))
	}
	rm := int64(bytes.Index(head, []byte("rm -rf")))
	off, msg := c.stepTarget(0, 1, false)
	if msg != "" || off != rm {
		t.Errorf("first finding after one step: offset %d %q, want %d", off, msg, rm)
	}
	if i := c.findingAt(rm); i < 0 || c.finds[i].Cause != screen.CauseErased {
		t.Errorf("findingAt(%d) = %d, want the erased command", rm, i)
	}
}

// TestScreenPaneFollowsToken: a screen larger than the pane is shown
// around the cells the token under the cursor drew, and a click maps to
// the screen cell under it.
func TestScreenPaneFollowsToken(t *testing.T) {
	in := []byte("top\x1b[20;61HXYZ tail\x1b[1;1Hback")
	d := newDriver(t, load(t, in), Options{}, testStyles(termenv.Ascii, false), 160, 40, nil)
	d.press("S")
	at := func(off int64) []string {
		d.m.jump(off)
		d.send(tea.KeyMsg{Type: tea.KeyRight}) // the pane's model follows on the next update
		d.send(tea.KeyMsg{Type: tea.KeyLeft})
		return screenPane{}.lines(d.m, 40, 5)
	}
	if got := strings.TrimRight(at(0)[0], " "); got != "t" {
		t.Errorf("at offset 0 the pane shows %q, want the screen's corner \"t\"", got)
	}
	x := int64(strings.Index(string(in), "XYZ"))
	rows := at(x + 7) // the l of "tail": the screen drawn up to it
	found := -1
	for i, r := range rows {
		if strings.Contains(r, "X") {
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("the cell the token at %d drew (column 61, row 20) is not in the pane:\n%s", x, strings.Join(rows, "\n"))
	}
	col := strings.Index(rows[found], "X")
	l := &d.m.lay
	d.send(tea.MouseMsg{X: l.x[paneScreen] + l.borderLeft + col + 1, Y: l.y[paneScreen] + l.borderTop + found, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if got := d.m.sv().cursor; got != x+1 {
		t.Errorf("click on the Y: cursor %d, want %d", got, x+1)
	}
}

// TestScreenPaneTitleWindow: when the screen is larger than the pane, the
// title says which of its columns and rows the pane shows, and the window
// follows the token under the cursor; a screen that fits says nothing.
func TestScreenPaneTitleWindow(t *testing.T) {
	in := []byte("top\x1b[20;61HXYZ tail\x1b[1;1Hback")
	var last string
	d := newDriver(t, load(t, in), Options{}, testStyles(termenv.Ascii, false), 120, 16, func(m *model, view string) { last = view })
	d.press("S")
	at := func(off int64) string {
		d.m.jump(off)
		d.send(tea.KeyMsg{Type: tea.KeyRight})
		d.send(tea.KeyMsg{Type: tea.KeyLeft})
		return last
	}
	if w, h := d.m.lay.inner[paneScreen], d.m.lay.innerH[paneScreen]; w != 44 || h != 10 {
		t.Fatalf("screen pane %dx%d, want 44x10", w, h)
	}
	for _, c := range []struct {
		off  int64
		want string
	}{
		{0, "╭screen 80x24 (default) cols 1-44 rows 1-10, ╮"},
		// The pane is 44x10 and "X" at column 61, row 20 is a third of the
		// way in, as far as the screen goes.
		{int64(bytes.Index(in, []byte("XYZ"))) + 7, "╭screen 80x24 (default) cols 37-80 rows 15-24╮"},
	} {
		if v := at(c.off); !strings.Contains(v, c.want) {
			t.Errorf("at %d the title is not %q:\n%s", c.off, c.want, v)
		}
	}
	cast := `{"version": 2, "width": 20, "height": 5}` + "\n" + `[0.5, "o", "top\u001b[5;18HXYZ"]` + "\n"
	c, err := capture.Load(strings.NewReader(cast), int64(len(cast)), capture.OpenOptions{Format: "cast"})
	if err != nil {
		t.Fatal(err)
	}
	d = newDriver(t, c, Options{}, testStyles(termenv.Ascii, false), 120, 16, func(m *model, view string) { last = view })
	d.press("S")
	if v := at(0); !strings.Contains(v, "╭screen 20x5 (") || strings.Contains(v, "cols") || strings.Contains(v, "rows") {
		t.Errorf("a screen that fits the pane names no columns or rows:\n%s", v)
	}
}

// TestFindingKeysOpenScreen: f works before S (the README lists it among
// the viewer's keys) and opens the screen pane, whose pass finds the
// hidden text; in compare mode, which has no screen pane, the finding keys
// are off.
func TestFindingKeysOpenScreen(t *testing.T) {
	in := []byte("files: a.txt\r\n\x1b[31mrm -rf ~/\x1b[0m\r\x1b[Kb.txt\r\n")
	d := newDriver(t, load(t, in), Options{}, testStyles(termenv.Ascii, false), 160, 40, nil)
	if !d.m.keys.NextFinding.Enabled() || !d.m.keys.PrevRanked.Enabled() {
		t.Fatalf("finding keys off before S")
	}
	d.press("f") // starts the screen pass, and steps when it ends
	if got, want := d.m.sv().cursor, int64(bytes.Index(in, []byte("rm -rf"))); got != want {
		t.Errorf("f before S: cursor %d, want %d", got, want)
	}
	if !d.m.lay.shown[paneScreen] {
		t.Errorf("f did not open the screen pane")
	}
	k := newKeyMap(false)
	k.setContext(keyContext{compare: true})
	if k.NextFinding.Enabled() || k.NextRanked.Enabled() {
		t.Errorf("finding keys on in compare mode")
	}
}
