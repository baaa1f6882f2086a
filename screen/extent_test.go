package screen

import (
	"slices"
	"testing"
)

// TestDrawnCells: a row keeps only the cells drawn on it (grid.cells),
// and reading the screen from them gives what reading every cell does:
// the same text and Segments from AppendScreenText as a clone whose rows
// were all written out by Row, on a 1000-column screen as CRScreen uses
// and on 80x24. A line of text touches only the cells it reaches.
func TestDrawnCells(t *testing.T) {
	inputs := map[string]string{
		"lines":         "first line\nsecond \x1b[31mred\x1b[m line\n",
		"el mid-row":    "abcdef\x1b[3D\x1b[K\nxyz\x1b[1;2H\x1b[K",
		"ech past end":  "ab\x1b[5X\x1b[10Cc\x1b[3X",
		"wide at edge":  "\x1b[1;10H語\x1b[1;999H語x\n",
		"combining":     "e\u0301 नमस्ते\n",
		"concealed":     "a\x1b[8mhidden\x1b[28m b\n",
		"repaint":       "one\ntwo\n\x1b[2Aup\x1b[K\n\n",
		"cr erase":      "abcdef\r\x1b[Kxy\n",
		"insert delete": "abcdef\x1b[1;3H\x1b[2@\x1b[1P\x1b[4h zz\x1b[4l\n",
	}
	for _, r := range recordings(t) {
		inputs[r.name] = string(r.data)
	}
	for name, in := range inputs {
		for _, cols := range []int{MaxSize, 10, DefaultCols} {
			m, _ := New(Options{Cols: cols, Rows: 24, NewlineCRLF: true, Scrollback: true, Segments: true})
			m.Feed([]byte(in))
			full := m.Clone()
			for y := range full.rows {
				full.Row(y)
			}
			got, gotSegs := m.AppendScreenText(nil, nil)
			want, wantSegs := full.AppendScreenText(nil, nil)
			if string(got) != string(want) || !slices.Equal(gotSegs, wantSegs) {
				t.Errorf("%s at %d columns: text %q %v, from every cell %q %v", name, cols, got, gotSegs, want, wantSegs)
			}
		}
	}
	m, _ := New(Options{Cols: MaxSize, Rows: 50})
	m.Feed([]byte("a line of text\r\n\x1b[31mred\x1b[K"))
	for y, want := range []int{14, 3} {
		if n := len(m.grids[0].drawn(y, MaxSize)); n != want {
			t.Errorf("row %d holds %d cells, want %d", y, n, want)
		}
	}
	if c := m.Cell(500, 1); c.Off != 24 || c.Len != 3 || c.Rune != 0 {
		t.Errorf("cell 500 of the erased row %+v, want blank drawn by the EL at 24", c)
	}
}
