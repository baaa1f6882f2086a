package sanitize

import (
	"bytes"
	"sort"

	"github.com/bytelens/bytelens/screen"
)

// The CRScreen policy: the tokens are cleaned and reported as under
// CRLines, but the text written is what package screen's model shows.

// Size of the CRScreen model: wide, so that lines of text are not cut by
// autowrap; high enough for the cursor-up repaints of progress displays.
// A REP draws at most one line (screen.Options.RepeatLimit): with the
// screen's own cap, Cols × Rows, a REP of nine bytes wrote 50,000
// characters of output (TestScreenRepeatBounded).
const screenCols, screenRows = screen.MaxSize, 50

// newScreen returns the model of CRScreen, or nil for other policies. It
// records the input that drew each line (screen.Options.Segments), for
// Map and Writer.LineInput.
func newScreen(o Options) *screen.Model {
	if o.CR != CRScreen {
		return nil
	}
	m, _ := screen.New(screen.Options{Cols: screenCols, Rows: screenRows, NewlineCRLF: true, Scrollback: true,
		Segments: true, LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL, RepeatLimit: screenCols}) // the size is valid
	return m
}

// mapScreen prepares Map's cleaner for CRScreen: the offset map is the
// screen's (screenMap), not a point per token.
func (c *cleaner) mapScreen() {
	if c.scr != nil {
		c.mapEach, c.m.scr = false, &screenMap{}
	}
}

// screenPiece is how much input, in bytes, CRScreen feeds the model
// before taking the lines that scrolled off, so that the model's buffer
// of them stays small.
const screenPiece = 16 << 10

// screenFeed replaces the text the tokens of p wrote after out[:held] by
// the lines that scrolled off the screen. It is called under CRScreen only.
func (c *cleaner) screenFeed(p []byte, held int) {
	c.scrLines = c.scrLines[:0]
	c.out = c.screenText(held, p, false)
}

// screenText feeds p to the screen, screenPiece bytes at a time, and
// returns out[:held] and the lines that scrolled off, and at the end of
// the stream the screen's text; under Map it adds their segments to the
// offset map, otherwise it notes where each line's input begins.
func (c *cleaner) screenText(held int, p []byte, end bool) []byte {
	segs := c.scrScrap[:0]
	if c.m != nil {
		segs = c.m.scr.segs
	}
	out := c.out[:held]
	for first := true; first || len(p) > 0; first = false {
		n := min(len(p), screenPiece)
		c.scr.Feed(p[:n])
		p = p[n:]
		out, segs = c.scr.TakeScrolled(out, segs)
	}
	if end {
		out, segs = c.scr.AppendScreenText(out, segs)
	}
	if c.m != nil {
		c.m.scr.segs = segs
		return out
	}
	c.scrScrap = segs
	c.noteLines(out, held, segs)
	return out
}

// screenEnd writes the rest of the screen at the end of the stream.
func (c *cleaner) screenEnd(held int) {
	if c.scr == nil {
		return
	}
	c.scr.End()
	c.scrLines = c.scrLines[:0]
	c.out = c.screenText(held, nil, true)
	if c.m == nil {
		return
	}
	sm := c.m.scr // Map never drains out: segment offsets are output offsets
	sm.index(c.out, c.scr.Offset())
	*c.m = OffsetMap{scr: sm}
	c.m.add(0, 0)
}

// lineInput is where the input of a line of CRScreen's output begins.
type lineInput struct{ out, in int64 }

// noteLines notes, for each line that begins in out[held:] (at held and
// after each LF), the first input byte that drew a character shown on it,
// from segs, the segments of out[held:].
func (c *cleaner) noteLines(out []byte, held int, segs []screen.Segment) {
	k := 0
	for at := held; at < len(out); {
		end := len(out)
		if i := bytes.IndexByte(out[at:], '\n'); i >= 0 {
			end = at + i + 1
		}
		in := int64(-1)
		for ; k < len(segs) && segs[k].Out < end; k++ {
			if g := segs[k]; g.Off >= 0 && (in < 0 || g.Off < in) {
				in = g.Off
			}
		}
		if in >= 0 {
			c.scrLines = append(c.scrLines, lineInput{c.flushed + int64(at), in})
		}
		at = end
	}
}

// LineInput returns, under CRScreen, the stream offset of the first input
// byte that drew a character shown on the line of cleaned text that
// begins at output offset out (counted from the stream's start), for a
// line the Writer is writing to the underlying writer: it answers from
// within that writer's Write, until the Writer's Write or Close returns.
// Lines come out of the screen in its order, not the input's, so these
// offsets need not increase. It returns false under other policies, for
// a line no input drew a character on, and for any other offset.
func (w *Writer) LineInput(out int64) (int64, bool) {
	lines := w.c.scrLines
	i := sort.Search(len(lines), func(i int) bool { return lines[i].out >= out })
	if i < len(lines) && lines[i].out == out {
		return lines[i].in, true
	}
	return 0, false
}
