package viewer

import (
	"bytes"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// maxGroundBack is how many blocks before the cursor the cleaned-text pane
// looks for a checkpoint in ground to start the sanitizer from.
const maxGroundBack = 64

// removedMark is drawn in the cleaned text where the sanitizer removed
// something, so that sequence boundaries show in that pane too.
var removedMark = render.TextString("⋄")

// removedRun is a run of input bytes the sanitizer removed whole, at one
// position of its output.
type removedRun struct {
	out     int64 // output offset where the bytes would have been
	in, end int64 // input offsets [in, end), relative to the window
}

// cleanWin is the cleaned text of a window of the input, [a, b), made by
// the sanitizer started from a checkpoint in ground at a.
type cleanWin struct {
	a, b  int64
	in    []byte
	text  []byte
	m     *sanitize.OffsetMap
	runs  []removedRun
	exact bool // a is a checkpoint in ground; otherwise a guess
}

// cleanAround returns the cleaned text of a window around off, or nil with
// a note when none can be made near off.
func (sv *streamView) cleanAround(off int64, opts sanitize.Options) (*cleanWin, render.Safe, error) {
	blk := off / checkpointEvery
	b := min(sv.src.n, (blk+2)*checkpointEvery)
	if c := sv.clean; c != nil && off >= c.a && c.b == b && off-c.a < 2*checkpointEvery {
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
	text, _, om := sanitize.Map(in, opts)
	c := &cleanWin{a: a, b: b, in: in, text: text, m: om, exact: exact}
	c.findRuns()
	sv.clean = c
	return c, render.Safe{}, nil
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
		kept = append(kept, r)
	}
	c.runs = kept
}

// piece is a run of cells of the cleaned-text pane.
type piece struct {
	s     render.Safe
	st    cellState
	mark  bool  // a removal mark
	out   int64 // output offset of the piece's first byte
	width int
}

// textRow is one row of the cleaned-text pane.
type textRow struct {
	pieces []piece
	out    int64 // output offset where the row starts
	ok     bool  // the row holds text (rows past the window are blank)
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
		f.textNote = render.TextString("approximate until indexed")
	}
	h := c.highlightFor(sv.cursor, f)
	anchor := h.cs
	if h.run >= 0 {
		anchor = c.runs[h.run].out
	}
	width := m.lay.inner[paneText]
	ls := int64(bytes.LastIndexByte(c.text[:anchor], '\n') + 1)
	cur := c.lineRows(ls, width, h)
	ci := 0
	for i, r := range cur {
		if r.out <= anchor {
			ci = i
		}
	}
	want := len(f.rows)
	above := append([]textRow(nil), cur[:ci]...)
	for start := ls; len(above) < f.curRow && start > 0; {
		prev := int64(bytes.LastIndexByte(c.text[:start-1], '\n') + 1)
		above = append(c.lineRows(prev, width, h), above...)
		start = prev
	}
	below := append([]textRow(nil), cur[ci:]...)
	for end := lineEnd(c.text, ls); len(below) < want-f.curRow && end < int64(len(c.text)); {
		below = append(below, c.lineRows(end+1, width, h)...)
		end = lineEnd(c.text, end+1)
	}
	rows := make([]textRow, want)
	for i := range rows {
		switch j := i - f.curRow; {
		case j < 0 && len(above)+j >= 0:
			rows[i] = above[len(above)+j]
		case j >= 0 && j < len(below):
			rows[i] = below[j]
		}
	}
	f.text = rows
	return nil
}

// lineEnd returns the offset of the LF that ends the line starting at
// start, or the text's length.
func lineEnd(text []byte, start int64) int64 {
	if i := bytes.IndexByte(text[start:], '\n'); i >= 0 {
		return start + int64(i)
	}
	return int64(len(text))
}

// highlightFor maps the cursor and its token into the window's output.
func (c *cleanWin) highlightFor(cursor int64, f *frame) highlight {
	h := highlight{run: -1}
	rel := cursor - c.a
	h.cs, h.ce = c.m.ToOutput(rel)
	h.ts, h.te = h.cs, h.ce
	if f.tokOK {
		ts, _ := c.m.ToOutput(max(0, f.tok.Off-c.a))
		_, te := c.m.ToOutput(min(c.b-c.a-1, f.tok.End()-1-c.a))
		if ts <= h.cs && te >= h.ce {
			h.ts, h.te = ts, te
		}
	}
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

// lineRows returns the rows of the cleaned line that starts at ls,
// wrapped at width cells, with removal marks and the highlight.
func (c *cleanWin) lineRows(ls int64, width int, h highlight) []textRow {
	le := lineEnd(c.text, ls)
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
		if r.out < ls || r.out > le {
			continue
		}
		add(p, r.out)
		st := stNormal
		if i == h.run {
			st = stCursor
		}
		pieces = append(pieces, piece{s: removedMark, st: st, mark: true, out: r.out, width: 1})
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
