package screen

// Text of the screen as lines, for a reader of lines rather than of a
// screen: the sanitizer's screen policy. A row that autowrap continued on
// the next row is one line with it.

// appendText appends the text of row y as a line: with LF when it ends
// there, whole and without LF when autowrap continued it on the next row.
func (m *Model) appendText(dst []byte, y int) []byte {
	g := &m.grids[m.screen()]
	row := g.line(y, m.cols)
	if g.wrapped[g.rows[y]] && y+1 < m.rows {
		return appendCells(dst, row, true, false)
	}
	return append(appendCells(dst, row, true, true), '\n')
}

// TakeScrolled appends to dst the lines that scrolled off the top of the
// main screen since the last call (Options.Scrollback), as a person saw
// them: concealed and invisible text blank, trailing blanks trimmed, each
// ending in LF unless autowrap continued it; the model forgets them.
func (m *Model) TakeScrolled(dst []byte) []byte {
	dst = append(dst, m.scrolled...)
	m.scrolled = m.scrolled[:0]
	return dst
}

// AppendScreenText appends the rows of the screen shown as lines, as
// TakeScrolled gives them, up to the last row that shows anything.
func (m *Model) AppendScreenText(dst []byte) []byte {
	last := -1
	for y := range m.rows {
		if m.lineBuf = m.AppendSeen(m.lineBuf[:0], y); len(m.lineBuf) > 0 {
			last = y
		}
	}
	for y := 0; y <= last; y++ {
		dst = m.appendText(dst, y)
	}
	return dst
}
