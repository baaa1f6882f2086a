package screen

import (
	"slices"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// token executes one decode token.
func (m *Model) token(t *decode.Token) {
	m.tok = t
	switch t.Kind {
	case decode.KindText:
		m.text(t)
		return
	case decode.KindInvalid:
		m.print('\uFFFD', 1, t.Off, uint32(t.Len), 0) // xterm shows U+FFFD
		return
	case decode.KindC0:
		m.c0(t.Final)
	case decode.KindC1:
		m.c1(t.Final)
	case decode.KindESC:
		if !t.Is(decode.FlagAborted) && !t.Is(decode.FlagUnterminated) {
			m.esc(t.Final)
		}
	case decode.KindNF:
		if !t.Is(decode.FlagAborted) && !t.Is(decode.FlagUnterminated) {
			m.nf(t)
		}
	case decode.KindCSI:
		if !t.Is(decode.FlagAborted) && !t.Is(decode.FlagUnterminated) && !t.Is(decode.FlagMalformed) {
			m.csi(t)
		}
	case decode.KindFormat:
		m.combine(0, t.Off, uint32(t.Len)) // zero width: part of the cell before
		return
	}
	// Control strings (titles, links, clipboard), DEL: nothing on screen.
	m.clip = false
}

// text draws a text token: graphic characters, TAB and LF.
func (m *Model) text(t *decode.Token) {
	i := t.Off - m.base
	if i < 0 || i+t.Len > int64(len(m.p)) {
		// One character completed across two Feed calls.
		if t.Rune != 0 {
			m.char(t.Rune, t.Off, uint32(t.Len))
		}
		return
	}
	p := m.p[i : i+t.Len]
	for j := 0; j < len(p); {
		b := p[j]
		if b >= 0x20 && b < 0x7F && m.cur.charset[m.cur.gl] == 'B' {
			// A run starts at ASCII (text in any script follows a space
			// or a digit), so that bytes of random input that draw one
			// character each do not set up a run each.
			if k := m.printRun(p[j:], t.Off+int64(j)); k > 0 {
				j += k
				continue
			}
		}
		switch {
		case b >= 0x20 && b < 0x7F:
			if m.cur.charset[m.cur.gl] == 'B' {
				m.print(rune(b), 1, t.Off+int64(j), 1, 0)
			} else {
				m.char(rune(b), t.Off+int64(j), 1)
			}
			j++
		case b == '\n':
			m.lineFeed(moveLF)
			j++
		case b == '\t':
			m.tab(1)
			j++
		case b < 0x80:
			j++ // not text; the decoder never puts it here
		default:
			r, n := utf8.DecodeRune(p[j:])
			m.char(r, t.Off+int64(j), uint32(n))
			j += n
		}
	}
}

// char draws the character r of n bytes at off through the charset in GL.
func (m *Model) char(r rune, off int64, n uint32) {
	if r >= 0x5F && r <= 0x7E && m.cur.charset[m.cur.gl] == '0' {
		m.print(decGraphics[r-0x5F], 1, off, n, cellRemapped)
		return
	}
	switch r {
	case '\n':
		m.lineFeed(moveLF)
		return
	case '\t':
		m.tab(1)
		return
	}
	w := m.widths.width(r)
	if w == 0 {
		m.combine(r, off, n)
		return
	}
	m.print(r, w, off, n, 0)
}

// decGraphics is the DEC Special Graphics character set for 0x5F–0x7E
// (VT100 User Guide, table 3-9), as xterm maps it to Unicode.
var decGraphics = [32]rune{
	'\u00A0', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

// combine adds a zero-width character to the span of the cell before the
// cursor; the first MaxMarks combining marks r are kept for display (a
// format character, r 0, takes no place among them).
func (m *Model) combine(r rune, off int64, n uint32) {
	x := m.cur.x
	if !m.cur.pending {
		x--
	}
	if x < 0 {
		return
	}
	row := m.lineTo(m.cur.y, x+1)
	c := &row[x]
	if c.WideTail() && x > 0 {
		c = &row[x-1]
	}
	if c.Rune != 0 && c.Off+int64(c.Len) == off {
		c.Len += n
		if i := slices.Index(c.Marks[:], 0); i >= 0 {
			c.Marks[i] = r
		}
	}
}

// print draws r, w cells wide, drawn by n bytes at off, at the cursor
// (xterm's dotext: pending wrap, insert mode, autowrap).
func (m *Model) print(r rune, w int, off int64, n uint32, flags uint8) {
	if m.cur.pending && m.autowrap {
		m.wrap()
	}
	if w == 2 && m.cur.x == m.cols-1 {
		if !m.autowrap || m.cols < 2 {
			return // no room: xterm draws nothing
		}
		m.wrap()
	}
	x := m.cur.x
	row := m.lineTo(m.cur.y, min(x+w+1, m.cols)) // clearCell reads the cell after
	if m.insert {
		row = m.insertRoom(x, w)
		m.shiftRight(row, x, w)
	}
	cause := causeOverwritten
	if m.clip && x == m.cols-w {
		cause = causeClipped
	}
	m.clearCell(row, x, cause, r)
	if w == 2 {
		m.clearCell(row, x+1, cause, 0)
	}
	c := &row[x]
	if c.hole != 0 {
		m.replaced(int(c.hole-1), r)
	}
	c.set(off, n, m.frame, r, m.cur.pen, uint8(w), flags)
	if w == 2 {
		if row[x+1].hole != 0 {
			m.replaced(int(row[x+1].hole-1), 0)
		}
		row[x+1] = wideTail(c)
	}
	m.last, m.lastW, m.lastFlag = r, uint8(w), flags
	if m.drawHidden || m.opts.Findings && (flags != 0 || r == ' ') {
		m.drawn(c, off, n)
	}
	m.via = moveNone
	if x+w >= m.cols {
		m.cur.x = m.cols - 1
		m.cur.pending = m.autowrap
		m.clip = !m.autowrap
		return
	}
	m.cur.x = x + w
	m.clip = false
}

// insertRoom returns the cells of the cursor's row that inserting w
// cells at x (IRM) shifts: the cells the row keeps, or up to x+1, and w
// fill cells after them (the row's end when that is nearer), the fill
// cells written; the shift pushes w fill cells past them, which leaves
// the cells after them fill, when the fill is one cell to the last
// column (else the whole row). So a character inserted in a row of a few
// cells on a wide screen moves those cells, not the row.
func (m *Model) insertRoom(x, w int) []Cell {
	g := &m.grids[m.screen()]
	i := g.rows[m.cur.y]
	if slowPath || !g.fill[i].uniform(m.cols) {
		return m.line(m.cur.y)
	}
	return m.lineTo(m.cur.y, min(max(int(g.ext[i]), x+1)+w, m.cols))
}

// wrap goes on to the start of the next line (autowrap), noting that the
// two rows are one line.
func (m *Model) wrap() {
	g := &m.grids[m.screen()]
	g.wrapped[g.rows[m.cur.y]] = true
	m.cur.x = 0
	m.index()
}

// newLine blanks row y as a new line of the screen.
func (m *Model) newLine(y int) {
	g := &m.grids[m.screen()]
	g.wrapped[g.rows[y]] = false
	g.setBlank(y, m.blankCell())
}

// printRun is print's fast path for a run of graphic characters at the
// start of p, drawn at off through an ASCII GL: it draws the characters
// that land before the last column, one or two cells wide, on cells that
// hold no wide character, with no pending wrap and no insert mode, and
// returns how many bytes it drew (print takes the rest). With findings
// the run is of ASCII only; without, a line of text in any script is one
// run.
func (m *Model) printRun(p []byte, off int64) int {
	if m.cur.pending || m.insert || m.clip || slowPath {
		return 0
	}
	x, y := m.cur.x, m.cur.y
	findings := m.opts.Findings
	// The run takes at most a cell a byte. The cells from fresh on are
	// fill cells not yet written: nothing on them to check or destroy;
	// those the run does not reach are cut back to fill at the end. With
	// findings, destroy reads the row, so every cell of the run, ASCII,
	// is written first.
	n := min(len(p), m.cols-1-x)
	g := &m.grids[m.screen()]
	var row []Cell
	var fresh int
	if findings {
		for k, b := range p[:n] {
			if b < 0x20 || b >= 0x7F {
				n = k
				break
			}
		}
		row = m.lineTo(y, x+n)
		fresh = len(row)
	} else {
		row, fresh = g.reserve(y, x, x+n, m.cols)
	}
	pen, frame, hidden := m.cur.pen, m.frame, m.drawHidden
	j, k := 0, 0 // cells and bytes drawn
	r, w := rune(0), 0
	for k < len(p) && j < n {
		if x+j >= fresh {
			// ASCII on fresh cells (findings off): nothing to check.
			k0 := k
			for ; k < len(p) && j < n && p[k] >= 0x20 && p[k] < 0x7F; j, k = j+1, k+1 {
				row[x+j].set(off+int64(k), 1, frame, rune(p[k]), pen, 1, 0)
			}
			if k > k0 {
				r, w = rune(p[k-1]), 1
				continue
			}
		}
		cr, size, cw := rune(p[k]), 1, 1
		if cr < utf8.RuneSelf {
			if cr < 0x20 || cr == 0x7F {
				break
			}
		} else {
			cr, size = utf8.DecodeRune(p[k:])
			cw = m.widths.width(cr)
			if cr == utf8.RuneError && size == 1 || cw == 0 || j+cw > n {
				break
			}
		}
		at := off + int64(k)
		c := &row[x+j]
		if x+j < fresh {
			if !narrow(c) || cw == 2 && x+j+1 < fresh && !narrow(&row[x+j+1]) {
				break
			}
			if findings {
				if c.Rune != 0 {
					m.destroy(c, causeOverwritten, cr)
				}
				if c.hole != 0 {
					m.replaced(int(c.hole-1), cr)
				}
			}
		}
		c.set(at, uint32(size), frame, cr, pen, uint8(cw), 0)
		if cw == 2 {
			row[x+j+1].set(at, uint32(size), frame, 0, pen, 0, cellWideTail)
		}
		if hidden || findings && cr == ' ' { // a space may go on with a finding, as in print
			m.drawn(c, at, uint32(size))
		}
		if findings {
			m.via = moveNone // after drawn, as print: a finding starts with the move before it
		}
		r, w = cr, cw
		j += cw
		k += size
	}
	if !findings && j < n && fresh < x+n {
		g.setExt(y, max(fresh, x+j))
	}
	if j > 0 {
		m.cur.x = x + j
		m.last, m.lastW, m.lastFlag = r, uint8(w), 0
	}
	return k
}

// narrow reports whether c is a cell that printRun may draw over: one
// cell wide, not half of a wide character.
func narrow(c *Cell) bool { return c.Width == 1 && c.flags&cellWideTail == 0 }

// set makes c the cell of character r, width w, drawn by the n bytes at
// off with pen in frame, flags set and no combining mark. It stores field
// by field: a Cell literal is built on the stack and copied in 16-byte
// moves that wait for the small stores that built it, which made the
// store the most costly line of the text path.
func (c *Cell) set(off int64, n uint32, frame int32, r rune, pen Pen, w, flags uint8) {
	c.Off, c.Len, c.Frame, c.Rune, c.Marks = off, n, frame, r, [MaxMarks]rune{}
	c.Pen, c.Width, c.flags, c.hole = pen, w, flags, 0
}

// clearCell empties row[x] before something is drawn on it, as a
// destruction of cause with replacement r; a wide character cut in half
// loses its other half.
func (m *Model) clearCell(row []Cell, x int, cause cause, r rune) {
	c := &row[x]
	if c.WideTail() && x > 0 {
		m.destroy(&row[x-1], cause, r)
		row[x-1] = parted(&row[x-1])
	} else if c.Width == 2 && x+1 < len(row) {
		row[x+1] = parted(c)
	}
	m.destroy(c, cause, r)
}

// parted is the half c of a wide character when its pair is parted: a
// blank cell with c's span, pen and frame.
func parted(c *Cell) Cell { return Cell{Off: c.Off, Len: c.Len, Width: 1, Pen: c.Pen, Frame: c.Frame} }

// shiftRight moves row[x:] right by n cells (IRM, ICH), losing what passes
// the right margin, and blanks the n cells at x.
func (m *Model) shiftRight(row []Cell, x, n int) {
	n = min(n, len(row)-x)
	for i := len(row) - n; i < len(row); i++ {
		m.destroy(&row[i], causeClipped, 0)
	}
	copy(row[x+n:], row[x:len(row)-n])
	m.blank(row[x : x+n])
	// The shift parts no pair before x-1: a character inserted in a long
	// row does not read the row again.
	from := max(x-1, 0)
	if slowPath {
		from = 0
	}
	m.fixWide(row, from)
}

// fixWide blanks wide-character halves of row[from:] left without their
// partner by a shift.
func (m *Model) fixWide(row []Cell, from int) {
	for i := from; i < len(row); i++ {
		c := &row[i]
		switch {
		case c.WideTail() && (i == 0 || row[i-1].Width != 2):
			*c = parted(c)
		case c.Width == 2 && (i+1 == len(row) || !row[i+1].WideTail()):
			m.destroy(c, causeClipped, 0)
			*c = parted(c)
		}
	}
}

// blankCell is a cell emptied with the pen's background (xterm's BCE) by
// the current token.
func (m *Model) blankCell() Cell {
	b := Cell{Off: -1, Frame: m.frame, Width: 1, Pen: Pen{Bg: m.cur.pen.Bg}}
	if m.tok != nil {
		b.Off, b.Len = m.tok.Off, uint32(m.tok.Len)
	}
	return b
}

// blank empties cells (blankCell).
func (m *Model) blank(cells []Cell) {
	b := m.blankCell()
	for i := range cells {
		cells[i] = b
	}
}

// erase destroys and blanks cells, recording cause. Erased text leaves a
// hole that remembers its finding, so what is drawn there next is what
// replaced it. It reports whether it left a hole.
func (m *Model) erase(cells []Cell, cause cause) (holes bool) {
	if !m.opts.Findings {
		m.blank(cells)
		return false
	}
	b := m.blankCell()
	for i := range cells {
		c := &cells[i]
		var h int32
		if c.Rune != 0 && m.destroy(c, cause, 0) && cause == causeErased {
			h = int32(m.pendDel) + 1
			holes = true
		}
		*c = b
		c.hole = h
	}
	return holes
}

// eraseRows erases rows from..to-1 of screen i whole (erase). A row that
// is blank already, or any row when findings are off, is only marked
// blank: its cells are written when something reads or draws on it.
// Only the cells a row keeps can hold text a finding takes (its fill
// cells are blank, DECALN's or a REP's), so only they are erased.
func (m *Model) eraseRows(i, from, to int, cause Cause) {
	g := &m.grids[i]
	b := m.blankCell()
	for y := from; y < to; y++ {
		if m.opts.Findings && !g.isBlank(g.rows[y]) {
			row := g.kept(y, m.cols)
			if slowPath {
				row = g.line(y, m.cols)
			}
			if m.erase(row, cause) {
				g.setFill(y, len(row), m.cols, uniformFill(b)) // the cells keep their holes
				continue
			}
		}
		g.setBlank(y, b)
	}
}

// lineFeed is LF, VT and FF: down one row, scrolling at the bottom margin;
// with LNM or Options.NewlineCRLF also back to the first column.
func (m *Model) lineFeed(mv move) {
	if m.lnm || m.opts.NewlineCRLF {
		m.cur.x = 0
	}
	m.index()
	m.via = mv
	m.clip = false
}

// index is IND: down one row, scrolling the region up at its bottom.
func (m *Model) index() {
	m.cur.pending = false
	switch {
	case m.cur.y == m.bot:
		m.scrollUp(m.top, m.bot, 1)
	case m.cur.y < m.rows-1:
		m.cur.y++
	}
}

// reverseIndex is RI: up one row, scrolling the region down at its top.
func (m *Model) reverseIndex() {
	m.cur.pending = false
	switch {
	case m.cur.y == m.top:
		m.scrollDown(m.top, m.bot, 1)
	case m.cur.y > 0:
		m.cur.y--
	}
	m.via = moveRI
}

// scrollUp moves rows top+n..bot up by n. Rows leaving the top of the
// whole main screen go to the scrollback; others are destroyed.
func (m *Model) scrollUp(top, bot, n int) {
	cause := causeScrolled
	if !m.alt && top == 0 && bot == m.rows-1 {
		m.stats.ScrolledOff += int64(min(n, bot-top+1))
		cause = causeNone
		if m.opts.Scrollback {
			for y := range min(n, m.rows) {
				m.scrolled = m.appendText(m.scrolled, y, m.segs(&m.scrolledSegs))
			}
		}
	}
	m.shiftUp(top, bot, n, cause)
}

// shiftUp destroys rows top..top+n-1 with cause (none: nothing is
// recorded), moves rows top+n..bot up by n and blanks the n rows at the
// bottom.
func (m *Model) shiftUp(top, bot, n int, cause Cause) {
	n = min(n, bot-top+1)
	if cause != causeNone {
		m.eraseRows(m.screen(), top, top+n, cause)
	}
	rotate(m.grids[m.screen()].rows[top:bot+1], n)
	for y := bot + 1 - n; y <= bot; y++ {
		m.newLine(y)
	}
}

// scrollDown moves rows top..bot-n down by n; rows leaving the bottom of
// the region are destroyed.
func (m *Model) scrollDown(top, bot, n int) {
	n = min(n, bot-top+1)
	m.eraseRows(m.screen(), bot+1-n, bot+1, causeScrolled)
	rows := m.grids[m.screen()].rows[top : bot+1]
	rotate(rows, len(rows)-n)
	for y := top; y < top+n; y++ {
		m.newLine(y)
	}
}

// rotate moves a[n:] to the front of a and a[:n] to its end.
func rotate(a []int32, n int) {
	if n == 1 { // a scroll by one line: the common case
		first := a[0]
		copy(a, a[1:])
		a[len(a)-1] = first
		return
	}
	slices.Reverse(a[:n])
	slices.Reverse(a[n:])
	slices.Reverse(a)
}

// eraseGrid destroys and blanks every row of screen i.
func (m *Model) eraseGrid(i int, cause Cause) {
	g := &m.grids[i]
	m.eraseRows(i, 0, m.rows, cause)
	clear(g.wrapped)
}

// tab is HT (n > 0) and CBT (n < 0): to the n-th next or previous tab
// stop, stopping at the margins. HT keeps a pending wrap, as in xterm.
func (m *Model) tab(n int) {
	if n < 0 {
		m.cur.pending = false
	}
	for ; n > 0 && m.cur.x < m.cols-1; n-- {
		m.cur.x++
		for m.cur.x < m.cols-1 && !m.isTab(m.cur.x) {
			m.cur.x++
		}
	}
	for ; n < 0 && m.cur.x > 0; n++ {
		m.cur.x--
		for m.cur.x > 0 && !m.isTab(m.cur.x) {
			m.cur.x--
		}
	}
	m.via = moveHT
	m.clip = false
}

func (m *Model) isTab(x int) bool { return m.tabs[x/64]&(1<<(x%64)) != 0 }

// c0 executes a C0 control (ECMA-48 8.3).
func (m *Model) c0(b byte) {
	switch b {
	case 0x08: // BS
		m.cur.pending = false
		if m.cur.x > 0 {
			m.cur.x--
		}
		m.via = moveBS
	case 0x0D: // CR
		m.cur.x, m.cur.pending = 0, false
		m.via = moveCR
	case 0x0B, 0x0C: // VT, FF
		m.lineFeed(moveLF)
	case 0x0E: // SO: G1 into GL
		m.cur.gl = 1
	case 0x0F: // SI: G0 into GL
		m.cur.gl = 0
	}
	m.clip = false
}

// c1 executes a C1 control that introduces nothing (ECMA-48 8.3).
func (m *Model) c1(b byte) {
	if !m.escFinal(b - 0x40) {
		m.stats.Unknown++
	}
}

// esc executes ESC F (ECMA-48 5.3, DEC private Fp).
func (m *Model) esc(f byte) {
	if !m.escFinal(f) {
		m.stats.Unknown++
	}
}

// escFinal executes the escape ESC f, or its C1 form; it reports whether
// the model knows it.
func (m *Model) escFinal(f byte) bool {
	switch f {
	case 'D': // IND
		m.index()
		m.via = moveLF
	case 'E': // NEL
		m.cur.x = 0
		m.index()
		m.via = moveLF
	case 'H': // HTS
		m.tabs[m.cur.x/64] |= 1 << (m.cur.x % 64)
	case 'M': // RI
		m.reverseIndex()
	case '7': // DECSC
		m.grids[m.screen()].saved = m.cur
	case '8': // DECRC
		m.restoreCursor()
	case 'c': // RIS
		m.eraseGrid(0, causeErased)
		m.eraseGrid(1, causeErased)
		m.reset()
	case 'n', 'o': // LS2, LS3
		m.cur.gl = f - 'n' + 2
	case '=', '>', '\\', 'N', 'O', 'P', 'X', '^', '_', 'Z': // keypad modes, ST, SS2, SS3, strings, DECID
	default:
		return false
	}
	m.clip = false
	return true
}

func (m *Model) restoreCursor() {
	s := m.grids[m.screen()].saved
	m.cur = s
	m.penChanged()
	m.clampCursor(&m.cur)
	m.cur.pending = s.pending && s.x == m.cur.x
	m.via = moveDECRC
}

// nf executes an nF escape: charset designation (ECMA-35: ESC ( F …) and
// ESC # 8 (DECALN).
func (m *Model) nf(t *decode.Token) {
	m.clip = false
	if t.NInter != 1 {
		m.stats.Unknown++
		return
	}
	switch i := t.Inter[0]; i {
	case '(', ')', '*', '+':
		cs := byte('B')
		if t.Final == '0' {
			cs = '0'
		}
		m.cur.charset[i-'('] = cs
	case '#':
		switch t.Final {
		case '8': // DECALN: fill with E, margins reset, cursor home
			m.top, m.bot = 0, m.rows-1
			m.cur.x, m.cur.y, m.cur.pending = 0, 0, false
			m.alignFill(t)
		default: // double-height and double-width lines: not modelled
			m.stats.Unknown++
		}
	default:
		m.stats.Unknown++
	}
}

// alignFill is DECALN's fill of the screen shown with E, drawn by t.
// Each row becomes fill cells (grid.setBlank), written when something
// reads or draws on it, so that a DECALN costs O(rows), not O(rows ×
// cols): three bytes filled a row of 1000 cells 50 times. Only the
// row's kept cells can hold text a finding takes: its fill cells are
// blank, another DECALN's or a REP's, which destroy passes over.
func (m *Model) alignFill(t *decode.Token) {
	e := Cell{Off: t.Off, Len: uint32(t.Len), Frame: m.frame, Rune: 'E', Width: 1, flags: cellFill}
	g := &m.grids[m.screen()]
	for y := range m.rows {
		row := g.kept(y, m.cols)
		if slowPath {
			row = g.line(y, m.cols)
		}
		for x := range row {
			m.destroy(&row[x], causeOverwritten, 'E')
			row[x] = e
		}
		if !slowPath {
			g.setBlank(y, e)
		}
	}
}

// param returns parameter i of t, or def when it is absent or 0.
func param(t *decode.Token, i int, def int) int {
	if i >= int(t.NParam) || t.Param[i] == 0 {
		return def
	}
	return int(t.Param[i])
}

// csiFunc is the implementation of one control function.
type csiFunc func(m *Model, t *decode.Token)

// csiTable holds the control functions of CSI sequences without private
// marker or intermediate, by final byte (ECMA-48 8.3; xterm ctlseqs).
var csiTable = [0x80]csiFunc{
	'@': func(m *Model, t *decode.Token) { m.insertChars(param(t, 0, 1)) },                     // ICH
	'A': func(m *Model, t *decode.Token) { m.moveRows(-param(t, 0, 1), moveCUU) },              // CUU
	'B': func(m *Model, t *decode.Token) { m.moveRows(param(t, 0, 1), moveCUD) },               // CUD
	'e': func(m *Model, t *decode.Token) { m.moveRows(param(t, 0, 1), moveCUD) },               // VPR
	'C': func(m *Model, t *decode.Token) { m.moveCols(param(t, 0, 1), moveCUF) },               // CUF
	'a': func(m *Model, t *decode.Token) { m.moveCols(param(t, 0, 1), moveCUF) },               // HPR
	'D': func(m *Model, t *decode.Token) { m.moveCols(-param(t, 0, 1), moveCUB) },              // CUB
	'E': func(m *Model, t *decode.Token) { m.moveRows(param(t, 0, 1), moveCUD); m.cur.x = 0 },  // CNL
	'F': func(m *Model, t *decode.Token) { m.moveRows(-param(t, 0, 1), moveCUU); m.cur.x = 0 }, // CPL
	'G': func(m *Model, t *decode.Token) { m.setCol(param(t, 0, 1) - 1) },                      // CHA
	'`': func(m *Model, t *decode.Token) { m.setCol(param(t, 0, 1) - 1) },                      // HPA
	'H': func(m *Model, t *decode.Token) { m.cup(param(t, 0, 1)-1, param(t, 1, 1)-1) },         // CUP
	'f': func(m *Model, t *decode.Token) { m.cup(param(t, 0, 1)-1, param(t, 1, 1)-1) },         // HVP
	'd': func(m *Model, t *decode.Token) { m.cup(param(t, 0, 1)-1, m.cur.x) },                  // VPA
	'I': func(m *Model, t *decode.Token) { m.tab(param(t, 0, 1)) },                             // CHT
	'Z': func(m *Model, t *decode.Token) { m.tab(-param(t, 0, 1)) },                            // CBT
	'J': func(m *Model, t *decode.Token) { m.eraseDisplay(param(t, 0, 0)) },                    // ED
	'K': func(m *Model, t *decode.Token) { m.eraseLine(param(t, 0, 0)) },                       // EL
	'L': func(m *Model, t *decode.Token) { m.insertLines(param(t, 0, 1)) },                     // IL
	'M': func(m *Model, t *decode.Token) { m.deleteLines(param(t, 0, 1)) },                     // DL
	'P': func(m *Model, t *decode.Token) { m.deleteChars(param(t, 0, 1)) },                     // DCH
	'S': func(m *Model, t *decode.Token) { m.scrollUp(m.top, m.bot, param(t, 0, 1)) },          // SU
	'T': func(m *Model, t *decode.Token) { // SD; with 5 parameters it is xterm's mouse tracking
		if t.NParam <= 1 {
			m.scrollDown(m.top, m.bot, param(t, 0, 1))
		}
	},
	'X': func(m *Model, t *decode.Token) { m.eraseChars(param(t, 0, 1)) },                          // ECH
	'b': func(m *Model, t *decode.Token) { m.repeat(param(t, 0, 1)) },                              // REP
	'g': func(m *Model, t *decode.Token) { m.clearTabs(param(t, 0, 0)) },                           // TBC
	'h': func(m *Model, t *decode.Token) { m.ansiModes(t, true) },                                  // SM
	'l': func(m *Model, t *decode.Token) { m.ansiModes(t, false) },                                 // RM
	'm': func(m *Model, t *decode.Token) { m.sgr(t) },                                              // SGR
	'r': func(m *Model, t *decode.Token) { m.setMargins(param(t, 0, 1)-1, param(t, 1, m.rows)-1) }, // DECSTBM
	's': func(m *Model, t *decode.Token) { m.grids[m.screen()].saved = m.cur },                     // SCOSC
	'u': func(m *Model, t *decode.Token) { m.restoreCursor() },                                     // SCORC
	'c': func(*Model, *decode.Token) {},                                                            // DA
	'n': func(*Model, *decode.Token) {},                                                            // DSR
	't': func(*Model, *decode.Token) {},                                                            // window operations
	'i': func(*Model, *decode.Token) {},                                                            // MC (printer)
	'x': func(*Model, *decode.Token) {},                                                            // DECREQTPARM
}

// csi executes a control sequence (ECMA-48 5.4).
func (m *Model) csi(t *decode.Token) {
	m.clip = false
	switch {
	case t.Private == 0 && t.NInter == 0 && t.Final < 0x80 && csiTable[t.Final] != nil:
		csiTable[t.Final](m, t)
	case t.Private == '?' && t.NInter == 0 && (t.Final == 'h' || t.Final == 'l'):
		m.decModes(t, t.Final == 'h')
	case t.Private == 0 && t.NInter == 1 && t.Inter[0] == '!' && t.Final == 'p': // DECSTR
		m.softReset()
	case t.Private == 0 && t.NInter == 1 && (t.Inter[0] == ' ' && t.Final == 'q' || t.Inter[0] == '"' && t.Final == 'q' || t.Inter[0] == '$' && t.Final == 'p'):
		// DECSCUSR cursor style, DECSCA, DECRQM: nothing on screen
	case t.Private == '?' && t.NInter == 1 && t.Inter[0] == '$' && t.Final == 'p': // DECRQM
	case t.Private == '>' || t.Private == '=' || t.Private == '<':
		// DA2, DA3, XTVERSION, modifyOtherKeys, kitty keyboard: nothing on screen
	default:
		m.stats.Unknown++
	}
}

func (m *Model) moveRows(n int, mv move) {
	y := m.cur.y + n
	lo, hi := 0, m.rows-1
	if m.cur.y >= m.top && m.cur.y <= m.bot {
		lo, hi = m.top, m.bot
	}
	m.cur.y = max(lo, min(hi, y))
	m.cur.pending = false
	m.via = mv
}

func (m *Model) moveCols(n int, mv move) {
	m.cur.x = max(0, min(m.cols-1, m.cur.x+n))
	m.cur.pending = false
	m.via = mv
}

func (m *Model) setCol(x int) {
	m.cur.x = max(0, min(m.cols-1, x))
	m.cur.pending = false
	m.via = moveCHA
}

// cup moves to row y, column x, relative to the scroll region in origin
// mode.
func (m *Model) cup(y, x int) {
	lo, hi := 0, m.rows-1
	if m.cur.origin {
		lo, hi = m.top, m.bot
	}
	m.cur.y = max(lo, min(hi, lo+y))
	m.cur.x = max(0, min(m.cols-1, x))
	m.cur.pending = false
	m.via = moveCUP
}

func (m *Model) setMargins(top, bot int) {
	bot = min(bot, m.rows-1)
	if top >= bot {
		return
	}
	m.top, m.bot = top, bot
	m.cup(0, 0)
}

func (m *Model) eraseDisplay(n int) {
	m.cur.pending = false
	switch n {
	case 0:
		m.eraseLine(0)
		m.eraseRows(m.screen(), m.cur.y+1, m.rows, causeErased)
	case 1:
		m.eraseRows(m.screen(), 0, m.cur.y, causeErased)
		m.eraseLine(1)
	case 2:
		m.eraseGrid(m.screen(), causeErased)
	case 3: // scrollback: none kept
	default:
		m.stats.Unknown++
	}
}

// fixWideAt blanks the other half of a wide character split by an erase
// boundary at cell index i of row.
func (m *Model) fixWideAt(row []Cell, i int) {
	if i <= 0 || i >= len(row) || !row[i].WideTail() {
		return
	}
	m.erase(row[i-1:i+1], causeErased)
}

func (m *Model) eraseLine(n int) {
	m.cur.pending = false
	from, to := m.cur.x, m.cols // EL 0: from the cursor
	switch n {
	case 0:
	case 1: // to the cursor
		from, to = 0, m.cur.x+1
	case 2:
		from = 0
	default:
		m.stats.Unknown++
		return
	}
	if from == 0 && to == m.cols {
		m.eraseRows(m.screen(), m.cur.y, m.cur.y+1, causeErased)
		return
	}
	if to == m.cols && !m.opts.Findings { // the cells from the cursor on become fill cells
		m.fixWideAt(m.lineTo(m.cur.y, from+1), from)
		m.grids[m.screen()].setFill(m.cur.y, from, m.cols, uniformFill(m.blankCell()))
		return
	}
	row := m.lineTo(m.cur.y, min(to+1, m.cols)) // fixWideAt reads the cells at from and to
	m.fixWideAt(row, from)
	m.fixWideAt(row, to)
	m.erase(row[from:to], causeErased)
}

func (m *Model) eraseChars(n int) {
	m.cur.pending = false
	end := min(m.cols, m.cur.x+n)
	row := m.lineTo(m.cur.y, min(end+1, m.cols)) // fixWideAt reads the cell at end
	m.fixWideAt(row, m.cur.x)
	m.fixWideAt(row, end)
	m.erase(row[m.cur.x:end], causeErased)
}

func (m *Model) insertChars(n int) {
	m.cur.pending = false
	m.shiftRight(m.Row(m.cur.y), m.cur.x, n)
}

func (m *Model) deleteChars(n int) {
	m.cur.pending = false
	row := m.Row(m.cur.y)
	x := m.cur.x
	n = min(n, m.cols-x)
	m.fixWideAt(row, x)
	m.fixWideAt(row, x+n)
	m.erase(row[x:x+n], causeErased)
	copy(row[x:], row[x+n:])
	m.blank(row[m.cols-n:])
}

func (m *Model) insertLines(n int) {
	m.cur.pending = false
	if m.cur.y < m.top || m.cur.y > m.bot {
		return
	}
	m.scrollDown(m.cur.y, m.bot, n)
	m.cur.x = 0
}

func (m *Model) deleteLines(n int) {
	m.cur.pending = false
	if m.cur.y < m.top || m.cur.y > m.bot {
		return
	}
	m.shiftUp(m.cur.y, m.bot, n, causeErased)
	m.cur.x = 0
}

// repeat is REP: the last graphic character n more times (xterm caps n at
// the screen size; Options.RepeatLimit caps it further).
func (m *Model) repeat(n int) {
	if m.last == 0 {
		return
	}
	n = min(n, m.cols*m.rows)
	if m.opts.RepeatLimit > 0 {
		n = min(n, m.opts.RepeatLimit)
	}
	t := m.tok
	c := Cell{Off: t.Off, Len: uint32(t.Len), Frame: m.frame, Rune: m.last, Pen: m.cur.pen, Width: m.lastW, flags: m.lastFlag | cellRepeated}
	for n > 0 {
		k, slow := m.repeatFill(n, c)
		n -= k
		for ; slow > 0 && n > 0; slow-- {
			m.print(c.Rune, int(c.Width), c.Off, c.Len, c.flags)
			n--
		}
	}
}

// repeatFill is REP's fast path: of the n characters c left to draw, it
// draws those from the cursor to the end of its row as the row's fill
// cells (grid.setFill), without writing them, and returns how many it
// drew; else 0 and how many print must draw before it may apply (1, or
// up to the last cell the row keeps that stops it, so that a row is read
// once, not once a character). Without autowrap the characters past the
// last column draw over it, or a wide one nothing (nor at the last
// column, where it has no room), so it draws all n. It
// applies where print would change nothing but the cells from the
// cursor on and the draw-time finding of the REP (repeated, or
// concealed or invisible when the pen hides it): the cursor's row has
// room for n, no wrap is pending, the cells the row keeps from the
// cursor on hold no text or hole (holdsText), the cursor's cell is not
// the right half of a wide character (print would part the pair), and
// the newest draw-time record of a character but a space is of c's cause
// and ends with the REP, as print leaves it (a space goes on with a
// record that ends where the REP starts, as print's first one does). In
// insert mode (IRM) the characters push the cells from the cursor on
// past the margin, cells that hold nothing a finding takes, and take
// their place: the same row. A wide c fills the row with its halves in turn; when the last
// column has no room for it, that column keeps what print leaves there
// (edgeCell). So a REP on a 1000×1000 screen costs O(rows + the cells
// the rows keep), not a million cells, or in insert mode a million
// shifts of a row.
func (m *Model) repeatFill(n int, c Cell) (drawn, slow int) {
	x, y := m.cur.x, m.cur.y
	w := int(c.Width)
	k := (m.cols - x) / w // the characters the row has room for
	if slowPath || m.cur.pending {
		return 0, 1
	}
	if w == 2 && x == m.cols-1 && (!m.autowrap || m.cols < 2) {
		return n, 0 // no room, and no wrap: print draws nothing
	}
	if k == 0 || k > n {
		return 0, 1
	}
	rec, cause := -1, causeNone
	if m.opts.Findings && c.Rune != ' ' {
		rec = m.pendDrw
		cause, _ = drawCause(&c)
		if rec < 0 || m.finds[rec].cause != cause || m.finds[rec].end != c.Off+int64(c.Len) || m.finds[rec].alt != m.alt {
			return 0, 1
		}
	}
	g := &m.grids[m.screen()]
	if kept := g.kept(y, m.cols); x < len(kept) {
		for i := len(kept) - 1; i >= x; i-- {
			if d := &kept[i]; d.holdsText() || d.hole != 0 {
				return 0, (i-x)/w + 1
			}
		}
	}
	if at := g.at(y, x, m.cols); at.WideTail() {
		return 0, 1
	}
	f := uniformFill(c)
	if w == 2 {
		f.odd = x&1 == 1
		if x+k*w < m.cols {
			f.edge, f.last = int32(m.cols-1), m.edgeCell(x)
		}
	}
	g.setFill(y, x, m.cols, f)
	full := x+k*w == m.cols // the last character reaches the last column
	drawn = k
	if !m.autowrap {
		if w == 1 {
			k = n
		}
		drawn = n
	}
	if m.opts.Findings && c.Rune == ' ' {
		// The first space goes on with a record that ends where the REP
		// starts, as print's does; the others share its bytes.
		m.drawn(&c, c.Off, c.Len)
	}
	if rec >= 0 {
		r := &m.finds[rec]
		r.cells += int64(k)
		r.based = false
		// Hidden text holds each character, as drawn adds them, until
		// it is cut at MaxText bytes.
		for i := 0; i < k && cause != CauseRepeated && !r.cut; i++ {
			m.addText(r, c.Rune)
		}
	}
	m.cur.x, m.cur.pending, m.clip, m.via = m.cols-1, m.autowrap && full, !m.autowrap && full, moveNone
	m.lastFlag = c.flags
	return drawn, 0
}

// edgeCell is what a REP of a wide character from column x of the
// cursor's row to the end leaves at the last column, where it has no
// room (cols-x odd): in insert mode the cell at x, pushed there, or
// else the cell there; a half of a wide character whose other half the
// REP draws over or pushes past the margin becomes blank (parted).
func (m *Model) edgeCell(x int) Cell {
	g := &m.grids[m.screen()]
	if m.insert {
		e := g.at(m.cur.y, x, m.cols)
		if e.Width == 2 {
			e = parted(&e)
		}
		return e
	}
	if e := g.at(m.cur.y, m.cols-2, m.cols); e.Width == 2 {
		return parted(&e)
	}
	return g.at(m.cur.y, m.cols-1, m.cols)
}

func (m *Model) clearTabs(n int) {
	switch n {
	case 0:
		m.tabs[m.cur.x/64] &^= 1 << (m.cur.x % 64)
	case 3:
		m.tabs = [len(m.tabs)]uint64{}
	}
}

// ansiModes is SM and RM: IRM (4) and LNM (20).
func (m *Model) ansiModes(t *decode.Token, set bool) {
	for _, p := range t.Params() {
		switch p {
		case 4:
			m.insert = set
		case 20:
			m.lnm = set
		default:
			m.stats.Unknown++
		}
	}
}

// decModes is DECSET and DECRST (CSI ? Pm h / l).
func (m *Model) decModes(t *decode.Token, set bool) {
	for _, p := range t.Params() {
		switch p {
		case 6: // DECOM
			m.cur.origin = set
			m.cup(0, 0)
		case 7: // DECAWM
			m.autowrap = set
			if !set {
				m.cur.pending = false
			}
		case 47, 1047:
			m.altScreen(set, false, p == 1047)
		case 1048:
			if set {
				m.grids[m.screen()].saved = m.cur
			} else {
				m.restoreCursor()
			}
		case 1049:
			m.altScreen(set, true, true)
		case 1, 3, 4, 5, 8, 9, 12, 25, 40, 45, 66, 67, 69, 95, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1015, 1016,
			1034, 1035, 1036, 1037, 1039, 1042, 1043, 1070, 2004, 2026, 2027, 2031, 7727:
			// keyboard, mouse, cursor, paste, focus and synchronized-output
			// modes: nothing on screen (3, DECCOLM, only when 40 allows it)
		default:
			m.stats.Unknown++
		}
	}
}

// altScreen switches to (set) or from the alternate screen; withCursor
// saves and restores the cursor (1049), clear clears the alternate screen
// on entry (1049) or exit (1047).
func (m *Model) altScreen(set, withCursor, clear bool) {
	if set == m.alt {
		return
	}
	if set {
		if withCursor {
			m.grids[0].saved = m.cur
		}
		m.alt = true
		if withCursor {
			m.eraseGrid(1, causeErased)
		}
		return
	}
	m.leaveAlt()
	if clear {
		m.eraseGrid(1, causeErased)
	}
	m.alt = false
	if withCursor {
		m.restoreCursor()
	}
}

func (m *Model) softReset() {
	m.autowrap, m.insert = true, false
	m.cur.origin, m.cur.pending = false, false
	m.cur.pen = Pen{}
	m.penChanged()
	m.cur.charset, m.cur.gl = [4]byte{'B', 'B', 'B', 'B'}, 0
	m.top, m.bot = 0, m.rows-1
	m.grids[m.screen()].saved = cursor{charset: m.cur.charset}
}

// sgr is SGR (ECMA-48 8.3.117, ITU T.416 colours in ';' and ':' forms).
func (m *Model) sgr(t *decode.Token) {
	m.sgrParams(t)
	m.penChanged()
}

// penChanged notes whether text drawn with the pen now is hidden.
func (m *Model) penChanged() {
	m.drawHidden = m.opts.Findings && (m.cur.pen.Attr&AttrConceal != 0 || invisible(m.cur.pen))
}

func (m *Model) sgrParams(t *decode.Token) {
	p := t.Params()
	if len(p) == 0 {
		m.cur.pen = Pen{}
		return
	}
	pen := &m.cur.pen
	for i := 0; i < len(p); i++ {
		switch v := p[i]; {
		case v == 0:
			*pen = Pen{}
		case v >= 1 && v <= 9:
			pen.Attr |= sgrAttr[v]
		case v == 21:
			pen.Attr |= AttrUnderline
		case v == 22:
			pen.Attr &^= AttrBold | AttrFaint
		case v >= 23 && v <= 29:
			pen.Attr &^= sgrAttr[v-20]
		case v >= 30 && v <= 37:
			pen.Fg = Palette(uint8(v - 30))
		case v >= 40 && v <= 47:
			pen.Bg = Palette(uint8(v - 40))
		case v >= 90 && v <= 97:
			pen.Fg = Palette(uint8(v - 90 + 8))
		case v >= 100 && v <= 107:
			pen.Bg = Palette(uint8(v - 100 + 8))
		case v == 39:
			pen.Fg = 0
		case v == 49:
			pen.Bg = 0
		case v == 53:
			pen.Attr |= AttrOverline
		case v == 55:
			pen.Attr &^= AttrOverline
		case v == 38, v == 48, v == 58:
			c, next := extColor(t, i)
			switch v {
			case 38:
				pen.Fg = c
			case 48:
				pen.Bg = c
			}
			i = next
		}
		// Sub-parameters of other attributes (4:3 curly underline) are
		// skipped with their attribute.
		for i+1 < len(p) && t.Sub&(1<<(i+1)) != 0 {
			i++
		}
	}
}

// sgrAttr maps SGR 1–9 to attributes; SGR 23–29 clear sgrAttr[v-20]
// (24 underline, 25 blink, 27 reverse, 28 conceal, 29 strike; 23 italic,
// 26 nothing).
var sgrAttr = [10]Attr{0, AttrBold, AttrFaint, AttrItalic, AttrUnderline, AttrBlink, AttrBlink, AttrReverse, AttrConceal, AttrStrike}

// extColor reads the colour of SGR 38/48/58 at parameter i: 5;n or 2;r;g;b,
// with ';' or ':' (2:cs:r:g:b with a colour space). It returns the colour
// (0 when malformed) and the index of the last parameter used.
func extColor(t *decode.Token, i int) (Color, int) {
	p := t.Params()
	subs := 0
	for j := i + 1; j < len(p) && t.Sub&(1<<j) != 0; j++ {
		subs++
	}
	if i+1 >= len(p) {
		return 0, i
	}
	switch p[i+1] {
	case 5:
		if i+2 < len(p) && p[i+2] < 256 {
			return Palette(uint8(p[i+2])), i + 2
		}
		return 0, min(i+2, len(p)-1)
	case 2:
		j := i + 2
		if subs >= 5 {
			j++ // 2:colourspace:r:g:b
		}
		if j+2 < len(p) {
			return RGB(uint8(min(p[j], 255)), uint8(min(p[j+1], 255)), uint8(min(p[j+2], 255))), j + 2
		}
		return 0, len(p) - 1
	}
	return 0, i + 1
}

// appendRune appends the UTF-8 encoding of r.
func appendRune(dst []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		return append(dst, byte(r))
	}
	return utf8.AppendRune(dst, r)
}
