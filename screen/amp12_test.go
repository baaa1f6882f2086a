package screen

import (
	"strconv"
	"strings"
	"testing"
)

// keptAtMost fails t when a row of the screen shown keeps more than
// keep written cells, but for row except (-1: none).
func keptAtMost(t *testing.T, m *Model, keep int32, except int, what string) {
	t.Helper()
	g := &m.grids[m.screen()]
	for y := range m.rows {
		if e := g.ext[g.rows[y]]; e > keep && y != except {
			t.Fatalf("%s: row %d keeps %d written cells, want at most %d (the rest fill)", what, y, e, keep)
		}
	}
}

// TestAmp12WideREPCost: a REP of a wide character draws the rows it
// covers to the last column as fill cells that alternate the
// character's halves, as a REP of a narrow one does, leaving the last
// column as print does when the character has no room there (the row
// an odd number of cells from the cursor: autowrap goes on to the next
// row, or without autowrap the rest of the REP draws nothing). Each of
// its characters was drawn by print: 100 KB of 漢 CSI 65535 b on a
// 1000×1000 cast took more than 20 s in report --screen, 0.95 s in
// clean --cr screen. A row filled keeps at most the 4 cells print wrote
// (the character, and with findings the REP's first, which starts its
// finding); the REP's last row keeps its characters and one cell more. A REP over
// rows of wide fill cells fills them again (their cells hold no text).
// TestFastPaths holds the fill to the cell-by-cell REP.
func TestAmp12WideREPCost(t *testing.T) {
	const rows = 50
	for _, o := range []Options{
		{Cols: MaxSize, Rows: rows, NewlineCRLF: true, Scrollback: true, Segments: true},
		{Cols: MaxSize, Rows: rows, Findings: true},
	} {
		for _, cols := range []int{MaxSize, MaxSize - 1} {
			o.Cols = cols
			per := cols / 2 // the characters of a row
			for _, tc := range []struct {
				in   string
				text []string
			}{
				{"終\x1b[2999b", []string{strings.Repeat("終", per), strings.Repeat("終", per)}},
				{"\x1b[?7l終\x1b[65535b", []string{strings.Repeat("終", per), ""}},
				{"終\x1b[" + strconv.Itoa(6*per-1) + "b\x1b[H😀\x1b[" + strconv.Itoa(2*per-1) + "b", []string{strings.Repeat("😀", per), strings.Repeat("😀", per), strings.Repeat("終", per)}},
			} {
				m, err := New(o)
				if err != nil {
					t.Fatal(err)
				}
				m.Feed([]byte(tc.in))
				what := strconv.Quote(tc.in) + " on " + strconv.Itoa(cols) + " columns"
				_, cy := m.Cursor()
				last := -1
				if cy > 1 {
					last = cy // the REP's last row, drawn in part
				}
				keptAtMost(t, m, 4, last, what)
				for y, want := range tc.text {
					if got := strings.TrimRight(string(m.AppendLine(nil, y)), " "); got != want {
						t.Errorf("%s, options %+v: row %d is %q, want %q", what, o, y, got, want)
					}
				}
				if c := m.Cell(cols-1, 0); cols%2 == 1 && c.Rune != 0 {
					t.Errorf("%s: the last column of row 0 is %+v, want blank", what, c)
				}
			}
		}
	}
}

// TestAmp12ResizeFillCost: a resize that widens rows whose fill is not a
// new row's blank (an erase, DECALN, a REP) keeps them fill: the fill
// ends at the old width and the cells after it are a new row's blank
// (rowFill.end). Each such resize wrote the fill cells out, so 5,000
// asciicast "r" events alternating 999 and 1000 columns after ED 2 or
// DECALN on a 1000×1000 cast took more than 20 s in report --screen.
// TestFastPaths holds the fill to the resize that writes the cells out.
func TestAmp12ResizeFillCost(t *testing.T) {
	const rows = 50
	for _, o := range []Options{
		{Cols: MaxSize, Rows: rows, NewlineCRLF: true, Scrollback: true, Segments: true},
		{Cols: MaxSize, Rows: rows, Findings: true},
	} {
		for _, tc := range []struct{ in, row1 string }{
			{"\x1b[2J", ""},
			{"\x1b#8", strings.Repeat("E", MaxSize-1)},
			{"a\x1b[2999b", strings.Repeat("a", MaxSize-1)},
			{"終\x1b[2999b", strings.Repeat("終", MaxSize/2-1)}, // the last, cut in two, blanked
		} {
			m, err := New(o)
			if err != nil {
				t.Fatal(err)
			}
			m.Feed([]byte(tc.in))
			for i := range 100 {
				cols := MaxSize - 1 + i%2
				if err := m.Resize(cols, rows); err != nil {
					t.Fatal(err)
				}
				keptAtMost(t, m, 4, -1, tc.in)
			}
			if got := strings.TrimRight(string(m.AppendLine(nil, 1)), " "); got != tc.row1 {
				t.Errorf("%q, options %+v: row 1 is %q after the resizes, want %q", tc.in, o, got, tc.row1)
			}
			if c := m.Cell(MaxSize-1, 1); c != untouched {
				t.Errorf("%q, options %+v: the last column of row 1 is %+v after the resizes, want a new row's blank", tc.in, o, c)
			}
		}
	}
}
