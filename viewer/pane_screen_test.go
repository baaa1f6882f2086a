package viewer

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
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
	if !strings.Contains(last, "screen 80x24 (default), main, LF as CR LF") {
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
