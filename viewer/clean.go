package viewer

import (
	"bytes"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// maxGroundBack is how many blocks before the cursor the cleaned-text pane
// looks for a checkpoint in ground to start the sanitizer from.
const maxGroundBack = 64

// removedRun is a run of input bytes the sanitizer removed whole, at one
// position of its output.
type removedRun struct {
	out     int64 // output offset where the bytes would have been
	in, end int64 // input offsets [in, end), relative to the window
	class   render.Removal
}

// cleanWin is the cleaned text of a window of the input, [a, b), made by
// the sanitizer started from a checkpoint in ground at a.
type cleanWin struct {
	a, b  int64
	blk   int64 // the block of the offset the window was made for
	in    []byte
	text  []byte
	m     *sanitize.OffsetMap
	runs  []removedRun
	exact bool            // a is a checkpoint in ground; otherwise a guess
	lines map[string]bool // the lines of text, for holdsLine; built on first use
}

// cleanAround returns the cleaned text of a window around off, or nil with
// a note when none can be made near off.
func (sv *streamView) cleanAround(off int64, opts sanitize.Options) (*cleanWin, render.Safe, error) {
	blk := off / checkpointEvery
	b := min(sv.src.n, (blk+2)*checkpointEvery)
	// A window made for off's block is the one this call would make: its
	// start depends only on the block and the checkpoints, however far
	// back the last one in ground is (one of a long line's checkpoints may
	// fall inside a sequence). Rebuilding it on every frame the pass
	// reports would cost a window's sanitizing each time.
	if c := sv.clean; c != nil && c.blk == blk && c.b == b {
		return c, render.Safe{}, nil
	}
	a, exact := int64(-1), true
	first := max(0, blk-1)
	for j := first; j >= max(0, first-maxGroundBack); j-- {
		d, _, ok, err := sv.idx.decoderAt(j * checkpointEvery)
		if err != nil {
			return nil, render.Safe{}, err
		}
		if !ok {
			a, exact = max(0, off-checkpointEvery), false
			break
		}
		if d.InGround() {
			a = j * checkpointEvery
			break
		}
	}
	if a < 0 {
		return nil, render.TextString("(inside a control string: no text near here)"), nil
	}
	in, err := sv.src.read(a, b-a)
	if err != nil {
		return nil, render.Safe{}, err
	}
	sv.clean = newCleanWin(a, in, opts, exact)
	sv.clean.blk = blk
	return sv.clean, render.Safe{}, nil
}

// newCleanWin cleans in, the input bytes from stream offset a on, under
// opts.
func newCleanWin(a int64, in []byte, opts sanitize.Options, exact bool) *cleanWin {
	text, _, om := sanitize.Map(in, opts)
	c := &cleanWin{a: a, b: a + int64(len(in)), in: in, text: text, m: om, exact: exact}
	c.findRuns()
	return c
}

// lineSpan returns the input, in stream offsets [s, e), that became the
// cleaned line starting at output offset ls, its LF included.
func (c *cleanWin) lineSpan(ls int64) (s, e int64) {
	last := lineEnd(c.text, ls) // the LF
	if last == int64(len(c.text)) {
		last-- // a last line without LF
	}
	s, _ = c.m.ToInput(ls)
	_, e = c.m.ToInput(last)
	return c.a + s, c.a + e
}

// spanText returns the cleaned text that the input [s, e), in stream
// offsets, became in the window; false when the window does not hold all
// of it.
func (c *cleanWin) spanText(s, e int64) ([]byte, bool) {
	if s < c.a || e > c.b || s >= e {
		return nil, false
	}
	os, _ := c.m.ToOutput(s - c.a)
	_, oe := c.m.ToOutput(e - 1 - c.a)
	return c.text[os:max(os, oe)], true
}

// lineDiffers reports whether the cleaned line starting at ls is missing
// from the text its input became in other: the difference compare mode
// marks. The line must be there whole (from a line start to an LF or the
// end), so text that one side splits or joins differs, while a line that
// both sides make from the same bytes is equal even where the offset map
// lumps neighbouring lines into one span. A line whose input other does
// not hold differs; the empty line after a last LF does not. With
// content set (two captures, whose bytes need not line up) the line
// differs only when other's text nowhere holds it as a whole line: a
// link target 8 bytes shorter shifts every later offset, not the text.
func (c *cleanWin) lineDiffers(ls int64, other *cleanWin, content bool) bool {
	if ls >= int64(len(c.text)) {
		return false
	}
	le := min(int64(len(c.text)), lineEnd(c.text, ls)+1)
	if content {
		return !other.holdsLine(c.text[ls:le])
	}
	theirs, ok := other.spanText(c.lineSpan(ls))
	return !ok || !hasLine(theirs, c.text[ls:le])
}

// holdsLine reports whether the window's text holds line as a whole
// line, as hasLine does, from a set of its lines built once.
func (c *cleanWin) holdsLine(line []byte) bool {
	if c.lines == nil {
		c.lines = map[string]bool{}
		for ls := 0; ls < len(c.text); {
			le := bytes.IndexByte(c.text[ls:], '\n')
			if le < 0 {
				c.lines[string(c.text[ls:])] = true
				break
			}
			c.lines[string(c.text[ls:ls+le])] = true   // as an open last line
			c.lines[string(c.text[ls:ls+le+1])] = true // with its LF
			ls += le + 1
		}
	}
	return c.lines[string(line)]
}

// hasLine reports whether text holds line, which ends with its LF or is
// a last line without one, as a whole line.
func hasLine(text, line []byte) bool {
	open := len(line) == 0 || line[len(line)-1] != '\n'
	for i := 0; i+len(line) <= len(text); {
		j := bytes.Index(text[i:], line)
		if j < 0 {
			return false
		}
		p, q := i+j, i+j+len(line)
		if (p == 0 || text[p-1] == '\n') && (!open || q == len(text) || text[q] == '\n') {
			return true
		}
		i = p + 1
	}
	return false
}

// findRuns lists where the sanitizer removed input, leaving out runs of
// CR that only ended a line (CRLF).
func (c *cleanWin) findRuns() {
	in, out := c.m.In, c.m.Out
	for i := 0; i+1 < len(in); i++ {
		if out[i] != out[i+1] || in[i] == in[i+1] {
			continue
		}
		if n := len(c.runs); n > 0 && c.runs[n-1].out == out[i] && c.runs[n-1].end == in[i] {
			c.runs[n-1].end = in[i+1]
			continue
		}
		c.runs = append(c.runs, removedRun{out: out[i], in: in[i], end: in[i+1]})
	}
	kept := c.runs[:0]
	for _, r := range c.runs {
		onlyCR := len(bytes.Trim(c.in[r.in:r.end], "\r")) == 0
		if onlyCR && r.out < int64(len(c.text)) && c.text[r.out] == '\n' {
			continue
		}
		r.class = runClass(c.in[r.in:r.end])
		kept = append(kept, r)
	}
	c.runs = kept
}

// runClass returns the class of the most telling token of p, removed
// input: the class of the marker drawn where it was.
func runClass(p []byte) render.Removal {
	class := render.RemovalStyle
	for t := range decode.Tokens(p) {
		if t.Kind != decode.KindText {
			class = max(class, render.RemovalOf(&t))
		}
	}
	return class
}

// piece is a run of cells of the cleaned-text pane.
type piece struct {
	s     render.Safe
	st    cellState
	mark  bool // a removal mark, of class rm
	rm    render.Removal
	out   int64 // output offset of the piece's first byte
	width int
}

// textRow is one row of the cleaned-text pane.
type textRow struct {
	pieces []piece
	out    int64 // output offset where the row starts
	ok     bool  // the row holds text (rows past the window are blank)
	// differs marks, in compare mode, a row of a line whose input became
	// different text on the other side.
	differs bool
}

// highlight says what the cleaned-text pane highlights: output spans of
// the cursor's byte and token, or the removal run holding the cursor.
type highlight struct {
	cs, ce int64 // the cursor byte's output
	ts, te int64 // the cursor token's output
	run    int   // index in runs of the run holding the cursor, or -1
}

// cleanRows lays out the cleaned-text pane so that the row holding the
// cursor lines up with the cursor's row in the byte panes.
func (m *model) cleanRows() error {
	f, sv := &m.f, m.sv()
	if !m.lay.shown[paneText] {
		return nil
	}
	c, note, err := sv.cleanAround(sv.cursor, m.o.Sanitize)
	if err != nil || c == nil {
		f.textNote = note
		return err
	}
	if !c.exact {
		f.textNote = approxNote
	}
	want := len(f.rows)
	above, below := c.rowsAround(sv.cursor, f.cursorToken(), m.lay.inner[paneText], f.curRow, want-f.curRow, nil, false)
	f.text, f.textCur = stack(above, below, want, f.curRow), f.curRow
	return nil
}

// approxNote titles a cleaned-text pane made from a guessed start.
var approxNote = render.TextString("approximate until indexed")

// rowsAround lays out the cleaned text around cursor, wrapped at width
// cells: the rows above the row that holds the cursor, at least nAbove
// when the window has them, and the rows from it down, at least nBelow.
// tok, if not nil, is the token under the cursor, highlighted too. With
// other set (compare mode) each row says whether its line differs from
// other (lineDiffers, by content when content is set).
//
// Lines are laid out segment by segment (segStart), so the cost is the
// rows asked for, not the length of the line that holds them.
func (c *cleanWin) rowsAround(cursor int64, tok *decode.Token, width, nAbove, nBelow int, other *cleanWin, content bool) (above, below []textRow) {
	h := c.highlightFor(cursor, tok)
	anchor := h.cs
	if h.run >= 0 {
		anchor = c.runs[h.run].out
	}
	seg := func(s int64) []textRow {
		rows := c.segRows(s, c.segEnd(s), width, h)
		if other != nil && c.lineDiffers(int64(bytes.LastIndexByte(c.text[:s], '\n')+1), other, content) {
			for i := range rows {
				rows[i].differs = true
			}
		}
		return rows
	}
	ss := c.segStart(anchor)
	cur := seg(ss)
	ci := 0
	for i, r := range cur {
		if r.out <= anchor {
			ci = i
		}
	}
	above = append([]textRow(nil), cur[:ci]...)
	for start := ss; len(above) < nAbove && start > 0; {
		prev := c.segStart(start - 1)
		above = append(seg(prev), above...)
		start = prev
	}
	below = append([]textRow(nil), cur[ci:]...)
	for end := c.segEnd(ss); len(below) < nBelow && end < int64(len(c.text)); {
		next := end
		if c.text[end] == '\n' {
			next++
		}
		if next == int64(len(c.text)) {
			below = append(below, seg(next)...) // the empty line after a last LF
			break
		}
		below = append(below, seg(next)...)
		end = c.segEnd(next)
	}
	return above, below
}

// segLen is the length in bytes of cleaned text after which a long line
// begins a new segment: a line is laid out in segments of about segLen
// bytes, each starting a row, so that the rows around a place cost the
// same however long its line is.
const segLen = 4 << 10

// segStart returns the start of the segment holding output offset p:
// the start of p's line, or the last segment boundary after it at or
// before p. The boundaries are the first character starts at or after
// each multiple of segLen that fall inside a line (not on its LF); only
// the bytes back to the boundary before p are looked at.
func (c *cleanWin) segStart(p int64) int64 {
	for g := p - p%segLen; ; g -= segLen {
		start := int64(-1)
		if g == 0 {
			start = 0
		} else if b := c.boundary(g); b <= p && b < int64(len(c.text)) && c.text[b] != '\n' {
			start = b
		}
		if i := bytes.LastIndexByte(c.text[g:p], '\n'); i >= 0 {
			start = max(start, g+int64(i)+1)
		}
		if start >= 0 {
			return start
		}
	}
}

// segEnd returns the end of the segment starting at s: the LF that ends
// its line, the end of the text, or the next segment boundary.
func (c *cleanWin) segEnd(s int64) int64 {
	n := int64(len(c.text))
	g := s - s%segLen + segLen
	if i := bytes.IndexByte(c.text[s:min(n, g+utf8.UTFMax)], '\n'); i >= 0 {
		return s + int64(i)
	}
	if g >= n {
		return n
	}
	return c.boundary(g)
}

// boundary returns the first character start of the text at or after g.
func (c *cleanWin) boundary(g int64) int64 {
	for g < int64(len(c.text)) && !utf8.RuneStart(c.text[g]) {
		g++
	}
	return g
}

// stack returns want rows: the last of above just before row cur, below
// from row cur on, blank rows where they run out.
func stack(above, below []textRow, want, cur int) []textRow {
	rows := make([]textRow, want)
	for i := range rows {
		switch j := i - cur; {
		case j < 0 && len(above)+j >= 0:
			rows[i] = above[len(above)+j]
		case j >= 0 && j < len(below):
			rows[i] = below[j]
		}
	}
	return rows
}

// lineEnd returns the offset of the LF that ends the line starting at
// start, or the text's length.
func lineEnd(text []byte, start int64) int64 {
	if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
		return start + int64(i)
	}
	return int64(len(text))
}

// highlightFor maps the cursor and its token, if tok is not nil, into the
// window's output.
func (c *cleanWin) highlightFor(cursor int64, tok *decode.Token) highlight {
	h := highlight{run: -1}
	rel := cursor - c.a
	h.cs, h.ce = c.m.ToOutput(rel)
	h.ts, h.te = h.cs, h.ce
	if tok != nil {
		ts, _ := c.m.ToOutput(max(0, tok.Off-c.a))
		_, te := c.m.ToOutput(min(c.b-c.a-1, tok.End()-1-c.a))
		if ts <= h.cs && te >= h.ce {
			h.ts, h.te = ts, te
		}
	}
	// The cursor's byte may map into a character of several bytes: the
	// whole character is highlighted, never a part of it shown as hex.
	h.cs, h.ce = c.charSpan(h.cs, h.ce)
	h.ts, h.te = c.charSpan(h.ts, h.te)
	if h.cs == h.ce {
		for i, r := range c.runs {
			if rel >= r.in && rel < r.end {
				h.run = i
				break
			}
		}
	}
	return h
}

// charSpan widens the output span [s, e) to whole UTF-8 characters of
// the cleaned text; an empty span stays empty.
func (c *cleanWin) charSpan(s, e int64) (int64, int64) {
	if s >= e {
		return s, e
	}
	for s > 0 && s < int64(len(c.text)) && !utf8.RuneStart(c.text[s]) {
		s--
	}
	for e < int64(len(c.text)) && !utf8.RuneStart(c.text[e]) {
		e++
	}
	return s, e
}

// segRows returns the rows of the segment [ls, le) of the cleaned text
// (segStart, segEnd), wrapped at width cells, with removal marks and the
// highlight. A removal at le is drawn here when le ends the line.
func (c *cleanWin) segRows(ls, le int64, width int, h highlight) []textRow {
	lineEnds := le == int64(len(c.text)) || c.text[le] == '\n'
	var pieces []piece
	add := func(from, to int64) {
		for from < to {
			st, next := stNormal, to
			switch {
			case from >= h.cs && from < h.ce:
				st, next = stCursor, min(to, h.ce)
			case from >= h.ts && from < h.te:
				st, next = stToken, min(to, h.te)
				if h.cs > from && h.cs < next {
					next = h.cs
				}
			default:
				for _, b := range []int64{h.cs, h.ts} {
					if b > from && b < next {
						next = b
					}
				}
			}
			s := render.Line(c.text[from:next])
			pieces = append(pieces, piece{s: s, st: st, out: from, width: s.Width()})
			from = next
		}
	}
	p := ls
	for i, r := range c.runs {
		if r.out < ls || r.out > le || r.out == le && !lineEnds {
			continue
		}
		add(p, r.out)
		st := stNormal
		if i == h.run {
			st = stCursor
		}
		pieces = append(pieces, piece{s: r.class.Mark(false), st: st, mark: true, rm: r.class, out: r.out, width: 1})
		p = r.out
	}
	add(p, le)
	if le < int64(len(c.text)) && h.cs <= le && h.ce > le { // the cursor is on the LF
		pieces = append(pieces, piece{s: render.Spaces(1), st: stCursor, out: le, width: 1})
	}
	return wrap(pieces, ls, width)
}

// wrap lays pieces out in rows of width cells.
func wrap(pieces []piece, start int64, width int) []textRow {
	rows := []textRow{{out: start, ok: true}}
	col := 0
	for _, pc := range pieces {
		for from := 0; from < pc.width; {
			if col == width {
				rows = append(rows, textRow{out: pc.out, ok: true})
				col = 0
			}
			take := min(pc.width-from, width-col)
			part := pc
			if take < pc.width {
				part.s, part.width = pc.s.Slice(from, take), take
			}
			r := &rows[len(rows)-1]
			if len(r.pieces) == 0 {
				r.out = pc.out
			}
			r.pieces = append(r.pieces, part)
			col += take
			from += take
		}
	}
	return rows
}
