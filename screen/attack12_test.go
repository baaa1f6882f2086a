package screen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAttack12RepeatedSpaceGoesOn: a REP of a space right after concealed
// or invisible text goes on with its finding, as print's first space
// does (drawn), when repeatFill draws it as fill. The fast path drew a
// REP of a space that reached the last column without that, so
// "ESC[8m ab SP ESC[77b cd" on 80 columns was two concealed findings,
// "ab " and "cd", the REP's bytes in neither, where the cell-by-cell
// path has one, "ab  cd".
func TestAttack12RepeatedSpaceGoesOn(t *testing.T) {
	for _, in := range []string{
		"\x1b[8mab \x1b[7bcd",
		"\x1b[8mab \x1b[7b\ncd",
		"\x1b[30;40mab \x1b[7b\x1b[Hcd",
		"\x1b[?7l\x1b[8mab \x1b[20bcd",
		"\x1b[8mab \x1b[7b\x1b[7b\x1b[Kcd",
	} {
		for _, chunk := range []int{len(in), 5, 1} {
			checkFastPaths(t, []byte(in), 10, 3, chunk)
		}
	}
}

// TestAttack12RandomREPs holds REP's fast path (repeatFill) to the
// cell-by-cell path on random inputs whose REP counts, from 0 to twice
// the width of a narrow screen, often reach the last column exactly,
// mixed with the pens, modes and moves repeatFill looks at.
func TestAttack12RandomREPs(t *testing.T) {
	pieces := []string{"a", " ", "b", "é", "終", "\u0301", "\u202e", "\x1b[8m", "\x1b[0m", "\x1b[30;40m", "\x1b[4h", "\x1b[4l",
		"\x1b[?7l", "\x1b[?7h", "\x1b(0", "\x1b(B", "q", "\r", "\n", "\x1b[H", "\x1b[3G", "\x1b[K", "\x1b[2@", "\x1b[P",
		"\x1b[?1049h", "\x1b[?1049l", "\x1b[2J", "\b"}
	rng := rand.New(rand.NewPCG(12, 34))
	rounds := 3000
	if testing.Short() {
		rounds = 1000
	}
	for range rounds {
		cols := 1 + rng.IntN(8)
		var in []byte
		for range 1 + rng.IntN(20) {
			if rng.IntN(3) == 0 {
				in = fmt.Appendf(in, "\x1b[%db", rng.IntN(2*cols+2))
				continue
			}
			in = append(in, pieces[rng.IntN(len(pieces))]...)
		}
		checkFastPaths(t, in, cols, 1+rng.IntN(3), 1+rng.IntN(len(in)))
	}
}

// TestAttack12ResizePartsWideCharacter: a resize that cuts a row between
// the halves of a wide character blanks the half it keeps, as print
// draws no wide character in the last column, so that no row holds a
// wide character without its other half. Resize kept the first half
// alone; an insertion later in the row (IRM, ICH) blanked it in the
// cell-by-cell path, which reads the whole row again after a shift
// (fixWide), but not in the fast path, which reads from the cursor on:
// "終" on 6 columns, resized to 1 and to 4, then CSI 4 h and a character
// at column 4 showed "終  x" or "   x".
func TestAttack12ResizePartsWideCharacter(t *testing.T) {
	run := func(o Options, slow bool) (string, []Cell) {
		slowPath = slow
		defer func() { slowPath = false }()
		m, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		m.Feed([]byte("終"))
		if err := m.Resize(1, 5); err != nil {
			t.Fatal(err)
		}
		if got := string(m.AppendLine(nil, 0)); got != "" {
			t.Errorf("options %+v: after resizing to 1 column row 0 is %q, want the half of 終 blank", o, got)
		}
		m.Resize(4, 5)
		m.Feed([]byte("\x1b[4h\x1b[4Gx\x1b[H\x1b[@"))
		cells := m.Row(0)
		return describe(m), cells
	}
	for _, o := range []Options{{Cols: 6, Rows: 4}, {Cols: 6, Rows: 4, Findings: true}} {
		want, wantCells := run(o, true)
		got, gotCells := run(o, false)
		if got != want || !slices.Equal(gotCells, wantCells) {
			t.Errorf("options %+v: fast paths give\n%s\ncell by cell\n%s", o, got, want)
		}
	}
}
