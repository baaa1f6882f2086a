package screen

import (
	"strings"
	"testing"
)

// TestAttack11DECALNCost: ESC # 8 (DECALN), three bytes, writes no cell:
// each row of the screen becomes fill cells, the E of the DECALN, so that
// a DECALN costs O(rows), not O(rows × cols). Written cell by cell, 100
// KB of ESC # 8 under the sanitizer's CRScreen (1000×50) wrote 1.7
// billion cells: 21 s for bytelens clean --cr screen, hours for the 64
// MiB a bytelens run stream may hold. TestFastPaths holds the fill to
// the cell-by-cell DECALN (slowPath).
func TestAttack11DECALNCost(t *testing.T) {
	for _, o := range []Options{
		{Cols: MaxSize, Rows: 50, NewlineCRLF: true, Scrollback: true, Segments: true, RepeatLimit: MaxSize},
		{Cols: MaxSize, Rows: 50, Findings: true},
	} {
		m, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte("text on the first row\x1b[3;5Hand on the third\x1b#8\x1b#8"))
		g := &m.grids[m.screen()]
		for y := range m.rows {
			if e := g.ext[g.rows[y]]; e != 0 {
				t.Fatalf("options %+v: after DECALN row %d keeps %d written cells, want 0 (fill)", o, y, e)
			}
			if got := string(m.AppendLine(nil, y)); got != strings.Repeat("E", m.cols) {
				t.Fatalf("options %+v: after DECALN row %d is %q, want %d E", o, y, got, m.cols)
			}
		}
	}
}

// TestAttack11ErasedRowsKept: with findings, erasing a row (ED, EL 2,
// scrolling out of a region) and leaving the alternate screen read and
// write only the cells the row keeps, not the whole row: a character on
// each row of a 1000×1000 screen then ED cost a million cells, so 100 KB
// of them took 1.9 s in bytelens report --screen --size 1000x1000. (The
// cursor's row is read whole once per sequence that hides text.)
func TestAttack11ErasedRowsKept(t *testing.T) {
	const rows = 50
	for _, in := range []string{
		strings.Repeat("x\r\n", rows-1) + "x\x1b[2J",
		"\x1b[?1049h" + strings.Repeat("x\r\n", rows-1) + "x\x1b[?1049l",
	} {
		m, err := New(Options{Cols: MaxSize, Rows: rows, Findings: true})
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte(in))
		_, cy := m.Cursor()
		for i := range m.grids {
			g := &m.grids[i]
			for y := range m.rows {
				// destroy reads the cursor's row to judge progress displays.
				if e := g.ext[g.rows[y]]; e > 1 && y != cy {
					t.Fatalf("input %q: screen %d row %d keeps %d written cells, want at most the 1 drawn", in, i, y, e)
				}
			}
		}
		if n := len(m.finds); n != rows {
			t.Errorf("input %q: %d findings, want %d", in, n, rows)
		}
	}
}

// TestAttack11REPCost: CSI Ps b (REP) draws the rows it covers to the
// last column as fill cells, the REP's, so that a REP costs O(rows +
// the cells the rows keep + one row), not O(Ps): drawn cell by cell, 100
// KB of CSI 65535 b after an asciicast header of a 1000×1000 terminal
// drew 800 million cells, 25 s for bytelens report --screen. A row
// filled keeps at most the 3 cells print wrote (the first of the REP's
// characters and the cell after it, which clearCell reads); the REP's
// last row, which it does not fill to the end, is drawn cell by cell, as
// is a row whose cells hold text. TestFastPaths holds the fill to the
// cell-by-cell REP.
func TestAttack11REPCost(t *testing.T) {
	const rows = 50
	sanitizer := Options{Cols: MaxSize, Rows: rows, NewlineCRLF: true, Scrollback: true, Segments: true}
	findings := Options{Cols: MaxSize, Rows: rows, Findings: true}
	row := func(s string, n int) string { return s + strings.Repeat(s[len(s)-1:], n-len(s)) }
	for _, tc := range []struct {
		name    string
		o       Options
		in      string
		text    []string // the rows of the screen
		slow    int      // a row drawn cell by cell over its text, or -1
		repeats int      // the cells of the REP's finding (Findings)
	}{
		{"sanitizer", sanitizer, "ab\x1b[2999b", []string{row("ab", 1000), row("b", 1000), row("b", 1000), "b"}, -1, 0},
		{"findings", findings, "ab\x1b[2999b", []string{row("ab", 1000), row("b", 1000), row("b", 1000), "b"}, -1, 2999},
		{"findings, two REPs", findings, "x\x1b[999bab\x1b[1500b", []string{row("x", 1000), row("ab", 1000), row("b", 502)}, -1, 1500},
		{"no autowrap", findings, "\x1b[?7lab\x1b[65535b", []string{row("ab", 1000)}, -1, rows * MaxSize},
		{"spaces", findings, "a \x1b[1999b", []string{"a", "", ""}, -1, 0},
		{"over a row of text", findings, strings.Repeat("t", 1000) + "\x1b[Hab\x1b[2000b", []string{row("ab", 1000), row("b", 1000), "bb"}, 0, 2000},
	} {
		m, err := New(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte(tc.in))
		g := &m.grids[m.screen()]
		for y := range m.rows {
			want, keep := "", int32(3)
			if y < len(tc.text) {
				want = tc.text[y]
			}
			if y == len(tc.text)-1 {
				keep = max(keep, int32(len(want))+1)
			}
			if e := g.ext[g.rows[y]]; e > keep && y != tc.slow {
				t.Errorf("%s: row %d keeps %d written cells, want at most %d (the rest fill)", tc.name, y, e, keep)
			}
			if got := string(m.AppendLine(nil, y)); strings.TrimRight(got, " ") != want {
				t.Errorf("%s: row %d is %q, want %q", tc.name, y, got, want)
			}
		}
		var cells int
		for _, f := range m.Findings() {
			if f.Cause == CauseRepeated && f.Off == int64(strings.LastIndex(tc.in, "\x1b[")) {
				cells = f.Cells
			}
		}
		if cells != tc.repeats {
			t.Errorf("%s: the REP's finding has %d cells, want %d", tc.name, cells, tc.repeats)
		}
	}
}
