package screen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fastPathPieces are the pieces the random inputs of TestFastPaths are
// made of: text in several scripts (wide, combining, invalid UTF-8),
// controls, and the sequences that move the cursor, change the pen and
// the modes the fast paths look at (IRM, DECAWM, the charsets), erase,
// insert, delete and repeat.
var fastPathPieces = []string{
	"abc", "hello world ", " ", "x", "é", "naïve", "ошибка", "終了", "处理", "नमस्ते", "e\u0301", "\u0301", "😀", "Ａ",
	"x \u0301y", "ab\u0301c", "a終b", "ab\u200bc",
	"\u200b", "\u202e", "\xff", "\xed\xa0\x80", "\xe2\x82", "\r", "\n", "\t", "\b", "\r\n", "\x0b",
	"\x1b[H", "\x1b[5G", "\x1b[2;3H", "\x1b[A", "\x1b[3C", "\x1b[2D", "\x1b[K", "\x1b[1K", "\x1b[2J", "\x1b[J",
	"\x1b[2@", "\x1b[3P", "\x1b[2X", "\x1b[L", "\x1b[M", "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h",
	"\x1b[3b", "\x1b[40b", "\x1b[999b", "\x1b[8m", "\x1b[0m", "\x1b[31;41m", "\x1b[38;5;1;48;5;1m", "\x1b[7m", "\x1b(0", "\x1b(B", "\x0e", "\x0f",
	"\x1b[?1049h", "\x1b[?1049l", "\x1b[2;4r", "\x1b[r", "\x1b7", "\x1b8", "\x1bD", "\x1bM", "\x1b#8", "\x1b[S", "\x1b[T",
	"\x1b]0;title\x07", "\x1b[20h", "\x1b[20l", "\x1bc",
	"終\x1b[40b", "😀\x1b[999b", resizeMark, resizeMark,
}

// resizeMark in an input of fastPathRun resizes the model after it
// (xterm's CSI 8 t, which the model ignores): a column wider or
// narrower, in turn, and a row more or less.
const resizeMark = "\x1b[8t"

// fastPathRun feeds in to a model of o in pieces of at most chunk bytes,
// taking the scrolled lines after each and resizing it at each
// resizeMark, and describes everything the model shows: the text and
// Segments taken and of the screen at the end, the cursor and the
// findings; and every cell of both screens.
func fastPathRun(t *testing.T, o Options, in []byte, chunk int, slow bool) (string, []Cell) {
	t.Helper()
	m, fast := pathModel(t, o, slow)
	defer fast()
	var text []byte
	var segs []Segment
	for i, piece := range strings.Split(string(in), resizeMark) {
		if i > 0 {
			m.Feed([]byte(resizeMark))
			if err := m.Resize(min(MaxSize, max(1, o.Cols+[4]int{1, 0, -1, 2}[i%4])), max(1, o.Rows+i%2)); err != nil {
				t.Fatal(err)
			}
		}
		for p := []byte(piece); len(p) > 0; {
			n := min(len(p), chunk)
			m.Feed(p[:n])
			p = p[n:]
			text, segs = m.TakeScrolled(text, segs)
		}
	}
	return described(m, text, segs)
}

// pathModel returns a model of o that draws cell by cell when slow
// (slowPath, until the returned func sets the fast paths back).
func pathModel(t *testing.T, o Options, slow bool) (*Model, func()) {
	t.Helper()
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	slowPath = slow
	return m, func() { slowPath = false }
}

// described ends the stream of m, whose scrolled lines were taken into text
// and segs, and describes everything the model shows: the text and
// Segments with the screen's, the cursor and the last character drawn,
// the findings (describe); and every cell of both screens.
func described(m *Model, text []byte, segs []Segment) (string, []Cell) {
	m.End()
	text, segs = m.AppendScreenText(text, segs)
	var b strings.Builder
	fmt.Fprintf(&b, "text %q\nsegments %v\n", text, segs)
	x, y := m.Cursor()
	fmt.Fprintf(&b, "cursor %d,%d last %q/%d/%d\n", x, y, m.last, m.lastW, m.lastFlag)
	cells := make([]Cell, 0, 2*m.rows*m.cols)
	for i := range m.grids {
		for y := range m.rows {
			cells = append(cells, m.grids[i].line(y, m.cols)...)
		}
	}
	b.WriteString(describe(m))
	return b.String(), cells
}

// checkFastPaths holds the fast paths to the cell-by-cell path on in,
// under the options of the sanitizer's CRScreen and small screens with
// and without findings.
func checkFastPaths(t *testing.T, in []byte, cols, rows, chunk int) {
	t.Helper()
	for _, o := range []Options{
		{Cols: cols, Rows: rows, NewlineCRLF: true, Scrollback: true, Segments: true, RepeatLimit: cols},
		{Cols: cols, Rows: rows, Findings: true},
		{Cols: 1000, Rows: 5, NewlineCRLF: true, Scrollback: true, Segments: true, RepeatLimit: 1000},
	} {
		want, wantCells := fastPathRun(t, o, in, chunk, true)
		got, gotCells := fastPathRun(t, o, in, chunk, false)
		for i := range wantCells {
			if gotCells[i] != wantCells[i] {
				t.Fatalf("input %q, options %+v, chunks of %d: cell %d of row %d: fast paths give %+v, cell by cell %+v", in, o, chunk, i%o.Cols, i/o.Cols, gotCells[i], wantCells[i])
			}
		}
		if got != want {
			g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
			i := 0
			for i < min(len(g), len(w)) && g[i] == w[i] {
				i++
			}
			g, w = append(g, ""), append(w, "")
			t.Fatalf("input %q, options %+v, chunks of %d: line %d differs: fast paths give\n%s\ncell by cell:\n%s", in, o, chunk, i, g[i], w[i])
		}
	}
}

// fillCases are inputs on the edges of the fills of wide characters
// and of resized rows, which TestFastPaths gives screens 5 to 9 columns
// wide: a wide REP in insert mode pushing DECALN's E to the last
// column; a REP from the right half of a wide character (print parts
// the pair); a wide REP without autowrap from the last column; a
// character inserted into a row of wide fill cells, or into a row
// widened by a resize after DECALN or a REP.
var fillCases = []string{
	"\x1b#8\x1b[1;7H\x1b[K\x1b[H\x1b[4h終\x1b[9b",
	"\x1b#8\x1b[1;6H\x1b[K\x1b[H終\x1b[9b",
	"終\x1b[9ba\x1b[1;4H\x1b[9b",
	"終\x1b[9b\x1b[H\x1b[4hx",
	"\x1b#8" + resizeMark + resizeMark + resizeMark + "\x1b[H\x1b[4hx",
	"\x1b[?7l終\x1b[9b終\x1b[9b",
	"x終\x1b[99b" + resizeMark + resizeMark + resizeMark + "\x1b[Ha終\x1b[99b",
}

// TestFastPaths holds printRun and appendRun to the cell-by-cell path
// on fillCases, random inputs of fastPathPieces and random bytes, and on
// the recordings and the deception corpus.
func TestFastPaths(t *testing.T) {
	for _, in := range fillCases {
		for cols := 5; cols <= 9; cols++ {
			checkFastPaths(t, []byte(in), cols, 3, len(in))
		}
	}
	rng := rand.New(rand.NewPCG(8, 8))
	rounds := 150
	if testing.Short() {
		rounds = 40
	}
	for range rounds {
		var in []byte
		for range 1 + rng.IntN(60) {
			if rng.IntN(8) == 0 {
				in = append(in, byte(rng.IntN(256)))
				continue
			}
			in = append(in, fastPathPieces[rng.IntN(len(fastPathPieces))]...)
		}
		checkFastPaths(t, in, 1+rng.IntN(20), 1+rng.IntN(6), 1+rng.IntN(len(in)))
	}
	files, _ := filepath.Glob("testdata/deception/*.bin")
	recs, _ := filepath.Glob("testdata/recordings/*.typescript")
	for _, p := range append(files, recs...) {
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkFastPaths(t, in, 80, 24, 4096)
	}
}

// FuzzFastPaths is TestFastPaths on any input; seeds in
// testdata/fuzz/FuzzFastPaths.
func FuzzFastPaths(f *testing.F) {
	for _, p := range fastPathPieces {
		f.Add([]byte("ab"+p+"終é"+p+"cd\n"), uint8(6), uint8(3), uint8(5))
	}
	f.Fuzz(func(t *testing.T, in []byte, cols, rows, chunk uint8) {
		if len(in) > 4096 {
			return
		}
		checkFastPaths(t, in, int(cols%40)+1, int(rows%12)+1, int(chunk)+1)
	})
}

// TestRunAllocs: drawing lines of text in several scripts through the
// fast paths and taking them as they scroll off allocates nothing in
// steady state, under the sanitizer's options.
func TestRunAllocs(t *testing.T) {
	m, _ := New(Options{Cols: 1000, Rows: 50, NewlineCRLF: true, Scrollback: true, Segments: true, RepeatLimit: 1000})
	p := []byte("2026-11-29T12:00:00.000Z INFO ошибка 終了 naïve नमस्ते café status=200\n")
	var text []byte
	var segs []Segment
	feed := func() {
		m.Feed(p)
		text, segs = m.TakeScrolled(text[:0], segs[:0])
	}
	for range 100 {
		feed()
	}
	if n := testing.AllocsPerRun(100, feed); n != 0 {
		t.Errorf("Feed and TakeScrolled allocate %v times per line", n)
	}
}
