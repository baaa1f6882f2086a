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
