package screen

// Text of the screen as lines, for a reader of lines rather than of a
// screen: the sanitizer's screen policy. A row that autowrap continued on
// the next row is one line with it.

// Segment ties a piece of the text that TakeScrolled and AppendScreenText
// give (with Options.Segments) to the input that drew it: the text from
// byte Out of the dst it was appended to, up to the next Segment's Out
// (or the end of the text), was drawn by the stream's bytes [Off,
// Off+Len). Off is -1 for text that no input drew: blank cells (never
// drawn, erased, or drawn concealed or invisible, which shows blank) and
// line feeds. Characters drawn one after another by bytes that follow
// one another, each copied as it is, are one Segment, so the text of a
// line written in one go is one Segment and its bytes map one to one.
type Segment struct {
	Out int
	Off int64
	Len int64
}

// addSegment adds to segs the n bytes of text at out, drawn by the input
// [off, off+size) (off -1: by none), merging them into the last Segment
// when it goes on there: blanks after blanks, the same cell span again
// (the cells of a REP), or text copied byte for byte after such text.
func addSegment(segs *[]Segment, out, n int, off, size int64) {
	if k := len(*segs); k > 0 {
		last := &(*segs)[k-1]
		switch {
		case off < 0 && last.Off < 0, off >= 0 && off == last.Off && size == last.Len:
			return
		case off >= 0 && off == last.Off+last.Len && int64(n) == size && int64(out-last.Out) == last.Len:
			last.Len += size
			return
		}
	}
	*segs = append(*segs, Segment{Out: out, Off: off, Len: size})
}

// segs returns p when the model records Segments, else nil.
func (m *Model) segs(p *[]Segment) *[]Segment {
	if !m.opts.Segments {
		return nil
	}
	return p
}

// appendText appends the text of row y as a line: with LF when it ends
// there, whole and without LF when autowrap continued it on the next row.
// When segs is not nil, the Segments of what it appends are added to it.
func (m *Model) appendText(dst []byte, y int, segs *[]Segment) []byte {
	g := &m.grids[m.screen()]
	row := g.drawn(y, m.cols)
	if g.wrapped[g.rows[y]] && y+1 < m.rows {
		return appendCells(dst, row, m.cols-len(row), true, false, segs)
	}
	dst = appendCells(dst, row, 0, true, true, segs)
	if segs != nil {
		addSegment(segs, len(dst), 1, -1, 0)
	}
	return append(dst, '\n')
}

// TakeScrolled appends to dst the lines that scrolled off the top of the
// main screen since the last call (Options.Scrollback), as a person saw
// them: concealed and invisible text blank, trailing blanks trimmed, each
// ending in LF unless autowrap continued it; the model forgets them. With
// Options.Segments it appends their Segments to segs, Out counted from
// the start of dst; otherwise it returns segs as it is.
func (m *Model) TakeScrolled(dst []byte, segs []Segment) ([]byte, []Segment) {
	for _, s := range m.scrolledSegs {
		s.Out += len(dst)
		segs = append(segs, s)
	}
	dst = append(dst, m.scrolled...)
	m.scrolled, m.scrolledSegs = m.scrolled[:0], m.scrolledSegs[:0]
	return dst, segs
}

// AppendScreenText appends the rows of the screen shown as lines, as
// TakeScrolled gives them, up to the last row that shows anything, and
// with Options.Segments their Segments to segs.
func (m *Model) AppendScreenText(dst []byte, segs []Segment) ([]byte, []Segment) {
	last := -1
	for y := range m.rows {
		if m.lineBuf = m.AppendSeen(m.lineBuf[:0], y); len(m.lineBuf) > 0 {
			last = y
		}
	}
	for y := 0; y <= last; y++ {
		dst = m.appendText(dst, y, m.segs(&segs))
	}
	return dst, segs
}
