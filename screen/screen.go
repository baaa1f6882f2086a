// Package screen is a terminal screen model driven by decode tokens: what
// an xterm-compatible terminal of a given size would show after each byte
// of a capture, and which text it never showed, or showed only for an
// instant.
//
// A [Model] keeps a main and an alternate screen of [Cell]s, a cursor with
// xterm's pending-wrap state, tab stops, a scroll region (DECSTBM), origin
// mode (DECOM), autowrap (DECAWM), insert mode (IRM), the G0–G3 character
// sets with DEC special graphics, and the SGR pen (intensity, italic,
// underline, blink, reverse, conceal, strike, 16, 256 and direct colours).
// It implements the erase functions (ED, EL, ECH), insert and delete (ICH,
// DCH, IL, DL), scrolling (SU, SD, IND, RI, NEL), cursor save and restore
// (DECSC, DECRC, SCOSC, SCORC, mode 1048), REP, tabulation (HT, HTS, TBC,
// CHT, CBT), the alternate screen (modes 47, 1047, 1049), soft and full
// reset (DECSTR, RIS) and DECALN. Everything else — queries, titles,
// mouse and keyboard modes, control strings — changes nothing on the
// screen; sequences the model does not know are counted in
// [Stats.Unknown].
//
// Each cell records the byte span (offset and length in bytes from the
// start of the stream) of the character that drew it, or of the erase that
// blanked it, and the frame it was drawn in. Combining marks extend the
// span of the cell before them; the model keeps the first of them.
//
// With [Options.Findings] the model records every destruction of visible
// text (overwritten, erased, alternate screen left, scrolled away, clipped
// at the margin) and every piece of text drawn in a way that misleads
// (concealed, invisible colours, DEC graphics letters, REP), merged into
// [Finding]s and ranked by [Model.Findings]; past [MaxFindings] those of
// lowest rank are dropped and counted ([Model.Omitted]).
//
// Memory is the two grids (at most [MaxSize]×[MaxSize] cells each), plus
// at most 2×[MaxFindings] finding records and one time per frame: nothing
// else grows with the input. Feed does not allocate in steady state.
package screen

import (
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// Size limits of a screen, in cells.
const (
	// MaxSize is the largest width or height New and Resize accept.
	MaxSize = 1000
	// DefaultCols and DefaultRows are the size to use when the capture
	// states none: 80×24, the VT100's.
	DefaultCols = 80
	DefaultRows = 24
)

// ErrSize is returned by New, Resize and ParseSize for a size outside
// 1..MaxSize in either dimension.
var ErrSize = errors.New("screen size out of range")

// Color is an SGR colour: 0 is the terminal's default, 1–256 are palette
// entries 0–255 plus one, and values with the Direct bit are 24-bit RGB in
// the low bits (0xRRGGBB).
type Color uint32

// Direct marks a Color as a 24-bit RGB value.
const Direct Color = 1 << 24

// Palette returns the Color of palette entry i (0–255).
func Palette(i uint8) Color { return Color(i) + 1 }

// RGB returns the direct Color r, g, b.
func RGB(r, g, b uint8) Color { return Direct | Color(r)<<16 | Color(g)<<8 | Color(b) }

// Attr is a set of SGR attributes.
type Attr uint16

// SGR attributes (ECMA-48 8.3.117).
const (
	AttrBold      Attr = 1 << iota // SGR 1
	AttrFaint                      // SGR 2
	AttrItalic                     // SGR 3
	AttrUnderline                  // SGR 4, 21 (double)
	AttrBlink                      // SGR 5, 6
	AttrReverse                    // SGR 7
	AttrConceal                    // SGR 8
	AttrStrike                     // SGR 9
	AttrOverline                   // SGR 53
)

// Pen is the SGR state text is drawn with.
type Pen struct {
	Fg, Bg Color
	Attr   Attr
}

// Cell flags.
const (
	cellWideTail uint8 = 1 << iota // right half of a wide character
	cellRemapped                   // drawn through DEC special graphics
	cellRepeated                   // drawn by REP
	cellReported                   // its text is already in a destruction finding
	cellFill                       // drawn by DECALN, not by text of the stream
)

// Cell is one character cell of a screen.
type Cell struct {
	// Off and Len are the byte span of what drew the cell: the character
	// (with its combining marks), the REP that repeated it, or the erase
	// that blanked it. Off is -1 for a cell nothing has touched.
	Off int64
	Len uint32
	// Frame is the frame the cell was drawn in (see Model.Frame).
	Frame int32
	// Rune is the character shown, 0 for a blank cell. The right half of a
	// wide character has Rune 0 and Width 0.
	Rune rune
	// Marks are the first MaxMarks combining marks drawn on Rune, 0 where
	// there are fewer; later ones only extend the span.
	Marks [MaxMarks]rune
	// Pen is the SGR state the cell was drawn or erased with.
	Pen   Pen
	Width uint8
	flags uint8
	// hole is 1 + the index of the erase finding whose text this blank
	// cell held, until something is drawn on it.
	hole int32
}

// MaxMarks is how many combining marks a cell keeps on its character:
// two, as xterm does by default (its combiningChars resource), enough for
// a Thai vowel and tone mark on one consonant ("ที่") or a Vietnamese
// vowel's two accents written decomposed.
const MaxMarks = 2

// AppendText appends the cell's character and its combining marks to dst
// as UTF-8; a blank cell appends nothing.
func (c *Cell) AppendText(dst []byte) []byte {
	if c.Rune == 0 {
		return dst
	}
	dst = appendRune(dst, c.Rune)
	for _, r := range c.Marks {
		if r == 0 {
			break
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// Blank reports whether the cell shows nothing (never drawn, erased, or
// the right half of a wide character).
func (c *Cell) Blank() bool { return c.Rune == 0 }

// WideTail reports whether the cell is the right half of a wide character.
func (c *Cell) WideTail() bool { return c.flags&cellWideTail != 0 }

// Remapped reports whether the cell was drawn through DEC special
// graphics, so that Rune differs from the byte that drew it.
func (c *Cell) Remapped() bool { return c.flags&cellRemapped != 0 }

// Options configure a Model. The zero value is an 80×24 terminal in
// pseudo-terminal mode without findings.
type Options struct {
	// Cols and Rows are the screen size in cells; 0 means DefaultCols or
	// DefaultRows.
	Cols, Rows int
	// NewlineCRLF treats LF (and VT, FF) as CR LF, as a tty's ONLCR does
	// for output written to a pipe or file and replayed raw. Captures
	// recorded from a pseudo-terminal (asciicast, ttyrec, script) already
	// hold the CR and need it false.
	NewlineCRLF bool
	// Findings records hidden-text findings (Model.Findings).
	Findings bool
	// Scrollback keeps the text of lines that scroll off the top of the
	// main screen until Model.TakeScrolled takes them.
	Scrollback bool
	// Segments records, for the text TakeScrolled and AppendScreenText
	// give, the input bytes that drew it (Segment).
	Segments bool
	// Timed says that the times given to Model.Frame are meaningful, so
	// findings can say how long text was visible in milliseconds.
	Timed bool
	// LoneC1 and APCBEL select the decode grammar alternatives of the same
	// names; they must match the sanitizer's options for offsets to agree.
	LoneC1, APCBEL bool
	// RepeatLimit is the most characters one REP (CSI Ps b, ECMA-48
	// 8.3.103) draws; 0 means the screen's cells (Cols × Rows), where xterm
	// caps it. With Scrollback a REP that wraps draws lines that scroll
	// off, so that nine bytes of input could give Cols × Rows cells of
	// output text: a model whose scrolled lines are its output caps REP
	// at one line (Cols) or less.
	RepeatLimit int
}

// cursor is the cursor and the state DECSC saves with it.
type cursor struct {
	x, y    int
	pending bool // xterm's pending wrap: the last column was just written
	pen     Pen
	origin  bool    // DECOM
	charset [4]byte // G0–G3 designations: 'B' ASCII, '0' DEC special graphics
	gl      uint8   // which of G0–G3 is invoked into GL
}

// grid is one screen's cells. Rows are stored in any order: rows[y] is
// the physical row holding screen row y, so scrolling moves indices, not
// cells.
type grid struct {
	// cells holds the rows of cells, physical row i at i*cols; nil until
	// a cell is first written. Only the first ext[i] cells of row i are
	// kept: every cell after them is fill[i]'s, whatever cells holds
	// there. A row with ext 0 (a blank row: new, or erased whole; or
	// filled by DECALN) is all fill[i], so that erasing a blank row again
	// (a program clearing the screen over and over) or a DECALN costs
	// nothing per cell, and a line of text on a wide screen writes,
	// erases and reads only the cells it reaches. A REP drawing to the
	// last column makes its character the fill of the cells it covers
	// (Model.repeatFill).
	cells []Cell
	ext   []int32
	fill  []rowFill
	rows  []int32
	// wrapped[i] is set when autowrap went on from physical row i to the
	// row below it, so that the two are one line of text.
	wrapped []bool
	saved   cursor // DECSC of this screen
}

// rowFill is what the cells of a row after those it keeps show: the
// cell c at the columns before end, and from end on the blank of a new
// row (untouched), which a resize widening the row adds. A wide fill (c
// two cells wide: a REP of a wide character) alternates c, at the
// columns of the parity odd gives, and its right half (wideTail); the
// column edge, where c has no room (the last column, for a REP), shows
// last instead, what the REP left there.
type rowFill struct {
	c, last Cell
	end     int32 // the first column untouched; MaxSize when none is
	edge    int32 // the column that shows last, or -1
	odd     bool  // a wide fill's c is at the odd columns, not the even
}

// uniformFill is the fill of b in every cell (a blank, DECALN's E, a
// REP's character one cell wide).
func uniformFill(b Cell) rowFill { return rowFill{c: b, end: MaxSize, edge: -1} }

// uniform reports whether each of the fill's cells before column n is c.
func (f *rowFill) uniform(n int) bool { return f.c.Width != 2 && n <= int(f.end) }

// at returns the fill's cell at column j.
func (f *rowFill) at(j int) Cell {
	switch {
	case j >= int(f.end):
		return untouched
	case f.c.Width != 2:
		return f.c
	case j == int(f.edge):
		return f.last
	case (j&1 == 1) == f.odd:
		return f.c
	}
	return wideTail(&f.c)
}

// wideTail is the right half of the wide character c, as print draws it.
func wideTail(c *Cell) Cell {
	return Cell{Off: c.Off, Len: c.Len, Frame: c.Frame, Pen: c.Pen, flags: c.flags | cellWideTail}
}

// row returns the first n cells of physical row i of g, cols wide.
func (g *grid) row(i int32, n, cols int) []Cell {
	if g.cells == nil {
		g.cells = make([]Cell, cols*len(g.rows))
	}
	a := int(i) * cols
	return g.cells[a : a+n : a+cols]
}

// line returns the cells of row y of g, cols wide, writing the fill
// cells first.
func (g *grid) line(y, cols int) []Cell { return g.lineTo(y, cols, cols) }

// lineTo returns the cells of row y of g, cols wide, of which the caller
// reads or writes only the first n: at least n cells, writing the fill
// cells up to n.
func (g *grid) lineTo(y, n, cols int) []Cell {
	i := g.rows[y]
	e := int(g.ext[i])
	if e >= n {
		return g.row(i, e, cols)
	}
	row := g.row(i, n, cols)
	if f := &g.fill[i]; f.uniform(n) {
		for j := e; j < n; j++ {
			row[j] = f.c
		}
	} else {
		for j := e; j < n; j++ {
			row[j] = f.at(j)
		}
	}
	g.ext[i] = int32(n)
	return row
}

// at returns the cell at column j of row y of g, cols wide, without
// writing the row's fill cells.
func (g *grid) at(y, j, cols int) Cell {
	i := g.rows[y]
	if j < int(g.ext[i]) {
		return g.row(i, int(g.ext[i]), cols)[j]
	}
	return g.fill[i].at(j)
}

// reserve returns the cells of row y of g, cols wide, for a caller that
// writes cells x to n-1: at least n cells, the fill cells written up to x
// only, or up to n for a wide fill (the caller's characters may part its
// pairs). The cells from fresh on are not written, narrow blank cells
// holding no text: the caller writes them all, or cuts the row back to
// fresh (setExt).
func (g *grid) reserve(y, x, n, cols int) (row []Cell, fresh int) {
	if g.fill[g.rows[y]].c.Width == 2 {
		x = n
	}
	row = g.lineTo(y, x, cols)
	fresh = len(row)
	if fresh < n {
		i := g.rows[y]
		row, g.ext[i] = g.row(i, n, cols), int32(n)
	}
	return row, fresh
}

// setExt keeps the first n cells of row y of g: the rest are fill.
func (g *grid) setExt(y, n int) { g.ext[g.rows[y]] = int32(n) }

// drawn returns the cells of row y of g, cols wide, that show anything:
// the cells it keeps, the cells after them being blank fill cells, or
// the whole row when its fill is not blank (DECALN's E, a REP's
// character).
func (g *grid) drawn(y, cols int) []Cell {
	if g.fill[g.rows[y]].c.Rune != 0 {
		return g.line(y, cols)
	}
	return g.kept(y, cols)
}

// kept returns the cells of row y of g, cols wide, that differ from its
// fill: at most the whole row; the cells after them are its fill.
func (g *grid) kept(y, cols int) []Cell {
	i := g.rows[y]
	if g.ext[i] == 0 {
		return nil
	}
	return g.row(i, int(g.ext[i]), cols)
}

// isBlank reports whether every cell of physical row i is its fill.
func (g *grid) isBlank(i int32) bool { return g.ext[i] == 0 }

// setBlank makes every cell of row y of g the fill cell b (a blank, or
// DECALN's E), without writing its cells.
func (g *grid) setBlank(y int, b Cell) {
	i := g.rows[y]
	g.ext[i], g.fill[i] = 0, uniformFill(b)
}

// setFill makes the cells of row y of g, cols wide, from x on the cells
// of f (a blank, or a REP's character), without writing them; the cells
// before x are kept.
func (g *grid) setFill(y, x, cols int, f rowFill) {
	g.lineTo(y, x, cols)
	i := g.rows[y]
	g.ext[i], g.fill[i] = int32(x), f
}

// Stats counts what the model did not act on.
type Stats struct {
	// Unknown counts escapes, control sequences and modes the model does
	// not implement; each changed nothing.
	Unknown int64
	// ScrolledOff counts lines that scrolled off the top of the full main
	// screen into where xterm keeps its scrollback.
	ScrolledOff int64
	// Frames is the number of frames marked with Model.Frame.
	Frames int
}

// Model is a terminal screen fed with a byte stream. Build one with New;
// Clone takes a checkpoint.
type Model struct {
	opts       Options
	cols, rows int
	dec        decode.Decoder

	grids [2]grid
	alt   bool // the alternate screen is shown
	cur   cursor

	top, bot int // scroll region, 0-based inclusive rows
	autowrap bool
	insert   bool
	lnm      bool // SM 20: LF also returns the carriage
	tabs     [MaxSize/64 + 1]uint64

	last     rune  // last graphic character, for REP
	lastW    uint8 // its width
	lastFlag uint8
	widths   widthCache
	clip     bool // the last character was written at the margin with autowrap off
	// drawHidden: findings are on and the pen draws concealed or
	// invisible text.
	drawHidden bool

	// The token being executed, for findings.
	tok   *decode.Token
	via   move  // the last cursor movement since text was drawn
	frame int32 // current frame
	times []time.Duration
	stats Stats
	finds []record
	// Findings dropped by compact, by cause.
	omitted [numCauses]int
	// Arenas of the findings' text: destruction and draw-time records.
	delText, drawText []byte
	pendDel           int // index of the destruction finding that may still grow, or -1
	pendDrw           int // same for draw-time findings
	spare             spare
	// keep is Resize's scratch: the counts and fills of the rows it
	// keeps (their cells are not held between resizes).
	keep [2]keptRows

	lineBuf  []byte // scratch for a row's text
	scrolled []byte // text of lines scrolled off, with Options.Scrollback
	// scrolledSegs are the Segments of scrolled, with Options.Segments.
	scrolledSegs []Segment

	// The last destroying token's name and row, so one token that hides
	// many runs is named and its row read once.
	names       []string // names of the tokens that made findings; the last is the current one
	nameTok     int64
	nameCause   Cause
	nameRow     int32
	rowProgress bool

	// Feed's current chunk, for text tokens.
	p    []byte
	base int64
	emit func(*decode.Token)
}

// New returns a Model with the size and modes of opts: cursor at home,
// autowrap on, tab stops every 8 columns. It fails with ErrSize when a
// dimension exceeds MaxSize or is negative.
func New(opts Options) (*Model, error) {
	if opts.Cols == 0 {
		opts.Cols = DefaultCols
	}
	if opts.Rows == 0 {
		opts.Rows = DefaultRows
	}
	if err := checkSize(opts.Cols, opts.Rows); err != nil {
		return nil, err
	}
	m := &Model{opts: opts, pendDel: -1, pendDrw: -1, times: []time.Duration{0}, nameTok: -1, nameRow: -1}
	m.dec.LoneC1, m.dec.APCBEL = opts.LoneC1, opts.APCBEL
	m.emit = m.token
	m.setSize(opts.Cols, opts.Rows)
	m.reset()
	return m, nil
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > MaxSize || rows > MaxSize {
		return fmt.Errorf("%w: %dx%d (each of columns and rows must be 1 to %d)", ErrSize, cols, rows, MaxSize)
	}
	return nil
}

// ParseSize parses "COLSxROWS" (such as "80x24") and checks it against
// MaxSize.
func ParseSize(s string) (cols, rows int, err error) {
	if _, err := fmt.Sscanf(s, "%dx%d", &cols, &rows); err != nil || fmt.Sprintf("%dx%d", cols, rows) != s {
		return 0, 0, fmt.Errorf("size %q is not COLSxROWS, such as 80x24", s)
	}
	return cols, rows, checkSize(cols, rows)
}

// untouched is the cell of a new screen, which nothing has touched.
var untouched = Cell{Off: -1, Width: 1}

// setSize makes the grids blank grids of cols×rows without cells, in
// the row arrays they have when those are large enough.
func (m *Model) setSize(cols, rows int) {
	m.cols, m.rows = cols, rows
	for i := range m.grids {
		g := &m.grids[i]
		g.cells = nil
		g.ext, g.rows, g.fill = sized(g.ext, rows), sized(g.rows, rows), sized(g.fill, rows)
		g.wrapped = sized(g.wrapped, rows)
		clear(g.wrapped)
		for y := range g.rows {
			g.rows[y] = int32(y)
			g.setBlank(y, untouched)
		}
	}
}

// sized returns s with length n, in a new array when s has not the
// capacity; its elements are not cleared.
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// reset puts modes, cursor, margins, charsets and tab stops in their
// power-on state (RIS without clearing).
func (m *Model) reset() {
	m.alt = false
	m.cur = cursor{charset: [4]byte{'B', 'B', 'B', 'B'}}
	m.grids[0].saved, m.grids[1].saved = m.cur, m.cur
	m.top, m.bot = 0, m.rows-1
	m.autowrap, m.insert, m.lnm = true, false, false
	m.resetTabs()
}

func (m *Model) resetTabs() {
	m.tabs = [len(m.tabs)]uint64{}
	for x := 8; x < m.cols; x += 8 {
		m.tabs[x/64] |= 1 << (x % 64)
	}
}

// Clone returns an independent copy of m: a checkpoint from which feeding
// the rest of the stream gives what feeding m would.
func (m *Model) Clone() *Model {
	c := *m
	for i := range c.grids {
		c.grids[i].cells = slices.Clone(m.grids[i].cells)
		c.grids[i].ext = slices.Clone(m.grids[i].ext)
		c.grids[i].rows = append([]int32(nil), m.grids[i].rows...)
		c.grids[i].wrapped = append([]bool(nil), m.grids[i].wrapped...)
		c.grids[i].fill = append([]rowFill(nil), m.grids[i].fill...)
	}
	c.times = append([]time.Duration(nil), m.times...)
	c.finds = append([]record(nil), m.finds...)
	c.delText = append([]byte(nil), m.delText...)
	c.drawText = append([]byte(nil), m.drawText...)
	c.names = slices.Clip(m.names)
	c.spare, c.keep = spare{}, [2]keptRows{}
	c.p, c.tok, c.lineBuf = nil, nil, nil
	c.scrolled = append([]byte(nil), m.scrolled...)
	c.scrolledSegs = slices.Clone(m.scrolledSegs)
	c.emit = c.token
	return &c
}

// Feed executes p, which continues the stream. It never fails.
func (m *Model) Feed(p []byte) {
	m.p, m.base = p, m.dec.Offset()
	m.dec.Feed(p, m.emit)
	m.p = nil
}

// Skip decodes p, which continues the stream, without executing it: for
// bytes a recorder added that no terminal was sent (the script(1) header
// and footer lines). Offsets stay those of the stream.
func (m *Model) Skip(p []byte) {
	m.dec.Feed(p, func(*decode.Token) {})
}

// Write is Feed as an io.Writer: it returns len(p), nil.
func (m *Model) Write(p []byte) (int, error) {
	m.Feed(p)
	return len(p), nil
}

// End ends the stream: a sequence left open changes nothing, and pending
// findings are closed.
func (m *Model) End() {
	m.dec.End(m.emit)
	m.pendDel, m.pendDrw = -1, -1
}

// Offset returns the stream offset in bytes of the next byte to be fed.
func (m *Model) Offset() int64 { return m.dec.Offset() }

// Frame starts a new frame at the current offset, recorded at time t from
// the start of the recording (zero when the capture has no timing).
// Cells remember the frame that drew them, so findings can say whether
// text was ever on screen between two frames.
func (m *Model) Frame(t time.Duration) {
	m.frame++
	m.times = append(m.times, t)
	m.stats.Frames++
}

// Resize changes the screen size to cols×rows as a terminal window resize
// does: the top-left part of each screen is kept, the cursor is clamped,
// the scroll region is reset to the whole screen and tab stops to every 8
// columns. It fails with ErrSize and changes nothing for a size outside
// 1..MaxSize.
func (m *Model) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return err
	}
	if cols == m.cols && rows == m.rows {
		return nil
	}
	old, oc, or := m.grids, m.cols, m.rows
	// What each row keeps is taken out first, so that the cells can be
	// written back into the same buffer: a resize allocates and clears
	// cells only when the screen grows past every size it had.
	keep := &m.keep
	for i := range old {
		keep[i] = keptRows{n: keep[i].n[:0], fill: keep[i].fill[:0]}
		for y := range min(rows, or) {
			keep[i].add(&old[i], y, oc, cols)
		}
	}
	m.setSize(cols, rows)
	for i := range m.grids {
		g := &m.grids[i]
		if cap(old[i].cells) >= cols*rows {
			g.cells = old[i].cells[:cols*rows]
		}
		at := 0
		for y, n := range keep[i].n {
			if n > 0 {
				copy(g.row(int32(y), int(n), cols), keep[i].cells[at:at+int(n)])
				at += int(n)
			}
			g.ext[y], g.fill[y] = n, keep[i].fill[y]
		}
		keep[i].cells = nil
		g.saved = old[i].saved
		m.clampCursor(&m.grids[i].saved)
	}
	m.clampCursor(&m.cur)
	m.top, m.bot = 0, rows-1
	m.resetTabs()
	return nil
}

// keptRows holds the rows of a screen a resize keeps, row after row: the
// first n[y] cells of row y, one after the other in cells, and its fill.
type keptRows struct {
	cells []Cell
	n     []int32
	fill  []rowFill
}

// add takes row y of g, oc wide, cut or padded with blank cells to cols
// as a resize does: the cells g keeps of it and its fill, which ends at
// oc when the row widens (the cells after it are a new row's blank), so
// that a resize costs O(rows + the cells the rows keep), not O(rows ×
// cols), whatever fills the rows (an erase, DECALN, a REP). A wide character
// that the cut parts from its second half is blanked, as print draws none
// in the last column: no row holds a half without the other (fixWide).
func (k *keptRows) add(g *grid, y, oc, cols int) {
	src, fill := g.kept(y, oc), g.fill[g.rows[y]]
	if cols > oc {
		if slowPath {
			src, fill = g.line(y, oc), uniformFill(untouched)
		}
		fill.end = min(fill.end, int32(oc))
	}
	n := min(len(src), cols)
	k.cells = append(k.cells, src[:n]...)
	if n < len(src) && src[n-1].Width == 2 {
		last := &k.cells[len(k.cells)-1]
		*last = parted(last)
	}
	if c := fill.at(cols - 1); n < cols && cols < oc && c.Width == 2 {
		// The cut parts a wide fill's pair at the last column.
		fill.edge, fill.last = int32(cols-1), parted(&c)
	}
	k.n = append(k.n, int32(n))
	k.fill = append(k.fill, fill)
}

func (m *Model) clampCursor(c *cursor) {
	c.x, c.y = min(c.x, m.cols-1), min(c.y, m.rows-1)
	c.pending = false
}

// Size returns the screen width and height in cells.
func (m *Model) Size() (cols, rows int) { return m.cols, m.rows }

// Alternate reports whether the alternate screen is shown.
func (m *Model) Alternate() bool { return m.alt }

// Cursor returns the cursor's column and row (0-based).
func (m *Model) Cursor() (x, y int) { return m.cur.x, m.cur.y }

// Stats returns what the model counted so far.
func (m *Model) Stats() Stats { return m.stats }

// Cell returns the cell at column x, row y of the screen shown.
func (m *Model) Cell(x, y int) Cell { return m.line(y)[x] }

// Row returns the cells of row y of the screen shown. The slice belongs to
// the model and changes with the next Feed.
func (m *Model) Row(y int) []Cell {
	return m.line(y)
}

// line returns the cells of row y of the screen shown.
func (m *Model) line(y int) []Cell { return m.grids[m.screen()].line(y, m.cols) }

// lineTo returns the cells of row y of the screen shown, of which the
// caller reads or writes only the first n (grid.lineTo).
func (m *Model) lineTo(y, n int) []Cell { return m.grids[m.screen()].lineTo(y, n, m.cols) }

// AppendLine appends the text of row y of the screen shown: each cell's
// character (with its combining mark), a space for each blank cell,
// trailing blanks trimmed. Concealed text is included. The text comes
// from the capture: escape it before display.
func (m *Model) AppendLine(dst []byte, y int) []byte {
	return appendCells(dst, m.grids[m.screen()].drawn(y, m.cols), 0, false, true, nil)
}

// AppendSeen is AppendLine as a person saw the row: text drawn concealed
// (SGR 8) or in a foreground equal or near equal to its background shows
// as blank.
func (m *Model) AppendSeen(dst []byte, y int) []byte {
	return appendCells(dst, m.grids[m.screen()].drawn(y, m.cols), 0, true, true, nil)
}

// appendCells appends the characters of row and of pad blank cells after
// it, blanks as spaces, trailing blanks trimmed when trim is set; wide
// tails add nothing. With seen, cells drawn concealed or invisible count
// as blank. When segs is not nil, the Segments of what it appends are
// added to it.
func appendCells(dst []byte, row []Cell, pad int, seen, trim bool, segs *[]Segment) []byte {
	hidden := func(c *Cell) bool {
		return c.Rune == 0 || c.Rune == ' ' || seen && (c.Pen.Attr&AttrConceal != 0 || invisible(c.Pen))
	}
	end := len(row)
	for trim && end > 0 && hidden(&row[end-1]) && !row[end-1].WideTail() {
		end--
	}
	for i := 0; i < end; i++ {
		c := &row[i]
		at, drawn := len(dst), false
		switch {
		case c.WideTail():
			if i > 0 && hidden(&row[i-1]) && row[i-1].Rune != 0 {
				dst = append(dst, ' ')
			}
		case hidden(c):
			dst = append(dst, ' ')
			drawn = c.Rune == ' ' && c.Off >= 0 // a space the input wrote, not a blank
		default:
			dst = c.AppendText(dst)
			drawn = c.Off >= 0
		}
		if segs != nil && len(dst) > at {
			if drawn {
				addSegment(segs, at, len(dst)-at, c.Off, int64(c.Len))
			} else {
				addSegment(segs, at, len(dst)-at, -1, 0)
			}
		}
		if drawn && len(dst)-at == int(c.Len) && !slowPath {
			// The cells after c that the bytes after its own drew, each
			// a character copied as it is, as addSegment merges them one
			// by one: a run of text written in one go.
			var last *Segment
			if segs != nil {
				if last = &(*segs)[len(*segs)-1]; last.Off+last.Len != c.Off+int64(c.Len) || last.Out+int(last.Len) != len(dst) {
					continue
				}
			}
			var j int
			n := len(dst)
			dst, j = appendRun(dst, row[:end], i, seen)
			if last != nil {
				last.Len += int64(len(dst) - n)
			}
			i = j - 1
		}
	}
	if trim || pad == 0 {
		return dst
	}
	if segs != nil {
		addSegment(segs, len(dst), pad, -1, 0)
	}
	for range pad {
		dst = append(dst, ' ')
	}
	return dst
}

// appendRun appends the run of cells after row[i] that appendCells
// copies as the bytes that drew them, one Segment with row[i], and
// returns where the run ends: each a graphic character, with its
// combining mark (none on a space, which appends as a blank), that
// appends as many bytes as drew it, drawn by the
// bytes after those that drew the cell before it, or the right half of a
// wide character that is in the run; with seen, none concealed or
// invisible but spaces.
func appendRun(dst []byte, row []Cell, i int, seen bool) ([]byte, int) {
	var pen Pen
	shown := false // whether text drawn with pen is shown
	next := row[i].Off + int64(row[i].Len)
	for j := i + 1; j < len(row); j++ {
		d := &row[j]
		if d.Off != next {
			if d.flags&cellWideTail != 0 && row[j-1].Width == 2 {
				continue
			}
			return dst, j
		}
		if seen && d.Rune != ' ' && (!shown || d.Pen != pen) {
			pen, shown = d.Pen, d.Pen.Attr&AttrConceal == 0 && !invisible(d.Pen)
			if !shown {
				return dst, j
			}
		}
		if d.Len == 1 && d.Marks[0] == 0 && uint32(d.Rune-' ') < 0x7F-' ' {
			dst = append(dst, byte(d.Rune))
			next++
			continue
		}
		if d.Rune <= ' ' || d.Rune >= 0x7F && d.Rune < 0xA0 || d.flags&cellWideTail != 0 {
			return dst, j // a blank, a control, a space with a mark, a wide tail drawn apart
		}
		at := len(dst)
		dst = d.AppendText(dst)
		if n := len(dst) - at; n != int(d.Len) {
			return dst[:at], j
		}
		next += int64(d.Len)
	}
	return dst, len(row)
}

func (m *Model) screen() int {
	if m.alt {
		return 1
	}
	return 0
}
