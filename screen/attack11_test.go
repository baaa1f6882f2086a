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
