package screen

import (
	"strings"
	"testing"
)

// TestAmp11HiddenREPCost: a REP of a character drawn concealed (SGR 8) or
// in an invisible colour draws the rows it covers to the last column as
// fill cells, as a visible REP does, and its cells join one finding with
// the text before it: each of its cells was a finding of its own, so 10
// REPs of 65535 on a 1000×1000 screen took 0.65 s and gave 4,096
// one-character findings, and 100 KB of them would take 10 minutes. A
// row filled keeps at most the 3 cells print wrote (TestAttack11REPCost).
func TestAmp11HiddenREPCost(t *testing.T) {
	const rows = 50
	for _, tc := range []struct {
		pen   string
		cause Cause
	}{
		{"\x1b[8m", CauseConcealed},
		{"\x1b[31;41m", CauseInvisible},
	} {
		in := tc.pen + "ab\x1b[2999b\x1b[2000b"
		m, err := New(Options{Cols: MaxSize, Rows: rows, Findings: true})
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte(in))
		g := &m.grids[m.screen()]
		for y := range m.rows {
			if e := g.ext[g.rows[y]]; e > 3 {
				t.Errorf("%s: row %d keeps %d written cells, want at most 3 (the rest fill)", tc.cause, y, e)
			}
		}
		if got, want := strings.TrimRight(string(m.AppendLine(nil, 4)), " "), strings.Repeat("b", 1000); got != want {
			t.Errorf("%s: row 4 is %q, want %q", tc.cause, got, want)
		}
		f := m.Findings()
		if len(f) != 1 {
			t.Fatalf("%s: %d findings, want 1: %+v", tc.cause, len(f), f)
		}
		want := Finding{Off: int64(len(tc.pen)), Len: int64(len(in) - len(tc.pen)), Cause: tc.cause, Cells: 2 + 2999 + 2000,
			Text: "ab" + strings.Repeat("b", MaxText-2), TextCut: true}
		if got := f[0]; got.Off != want.Off || got.Len != want.Len || got.Cause != want.Cause || got.Cells != want.Cells || got.Text != want.Text || got.TextCut != want.TextCut {
			t.Errorf("%s: finding %+v, want %+v", tc.cause, got, want)
		}
	}
}

// TestAmp11InsertREPCost: in insert mode (IRM) a REP reaching the last
// column fills the rows it covers, as without IRM, since the cells it
// pushes past the margin hold nothing a finding takes; and a character
// inserted shifts only the cells the row keeps (insertRoom), not the
// row. Each of a REP's characters shifted the whole row: 100 KB of CSI
// 65535 b after CSI 4 h on a 1000×1000 cast shifted rows of 1000 cells
// 700 million times (report --screen killed after 20 s; clean --cr
// screen, REP capped at 1000, 11 s). A row filled keeps at most the 3
// cells print wrote; the REP's last row keeps its characters and one
// more.
func TestAmp11InsertREPCost(t *testing.T) {
	const rows = 50
	for _, o := range []Options{
		{Cols: MaxSize, Rows: rows, NewlineCRLF: true, Scrollback: true, Segments: true},
		{Cols: MaxSize, Rows: rows, Findings: true},
	} {
		m, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte("\x1b[4hab\x1b[2999b\x1b[3;500Hxy"))
		g := &m.grids[m.screen()]
		for y, want := range []string{"a" + strings.Repeat("b", 999), strings.Repeat("b", 1000), strings.Repeat("b", 499) + "xy" + strings.Repeat("b", 499), "b", ""} {
			keep := int32(3)
			if y == 2 {
				keep = 503
			}
			if e := g.ext[g.rows[y]]; e > keep {
				t.Errorf("options %+v: row %d keeps %d written cells, want at most %d", o, y, e, keep)
			}
			if got := strings.TrimRight(string(m.AppendLine(nil, y)), " "); got != want {
				t.Errorf("options %+v: row %d is %q, want %q", o, y, got, want)
			}
		}
	}
}

// TestAmp11ResizeCost: a resize (an asciicast "r" event) copies the
// cells each row keeps and writes them back into the same buffer, so
// that it costs O(rows + the cells the rows keep) and allocates no grid
// when the screen has had the size before: each resize to 1000×1000
// allocated and cleared a grid of a million cells and copied every cell
// of both screens, so 5,000 "r" events alternating 1x1 and 1000x1000
// with a character between them took more than 20 s in report --screen.
func TestAmp11ResizeCost(t *testing.T) {
	m, err := New(Options{Cols: MaxSize, Rows: 50, Findings: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Feed([]byte("ab\x1b[2;3Hcd"))
	buf := &m.grids[0].cells[0]
	for i := range 100 {
		cols, rows := 1, 1
		if i%2 == 1 {
			cols, rows = MaxSize, 50
		}
		if err := m.Resize(cols, rows); err != nil {
			t.Fatal(err)
		}
		if &m.grids[0].cells[0] != buf {
			t.Fatalf("resize %d to %dx%d allocated a new grid", i, cols, rows)
		}
		g := &m.grids[0]
		for y := range m.rows {
			if e := g.ext[g.rows[y]]; e > 3 {
				t.Fatalf("resize %d to %dx%d: row %d keeps %d written cells, want at most 3", i, cols, rows, y, e)
			}
		}
	}
	if got := strings.TrimRight(string(m.AppendLine(nil, 0)), " "); got != "a" {
		t.Errorf("row 0 is %q after the resizes, want %q", got, "a")
	}
}
