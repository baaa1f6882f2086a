package sanitize

import "github.com/bytelens/bytelens/screen"

// The CRScreen policy: the tokens are cleaned and reported as under
// CRLines, but the text written is what package screen's model shows.

// Size of the CRScreen model: wide, so that lines of text are not cut by
// autowrap; high enough for the cursor-up repaints of progress displays.
const screenCols, screenRows = screen.MaxSize, 50

// newScreen returns the model of CRScreen, or nil for other policies;
// with segments set it records the input that drew each line, for Map.
func newScreen(o Options, segments bool) *screen.Model {
	if o.CR != CRScreen {
		return nil
	}
	m, _ := screen.New(screen.Options{Cols: screenCols, Rows: screenRows, NewlineCRLF: true, Scrollback: true,
		Segments: segments, LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL}) // the size is valid
	return m
}

// mapScreen prepares Map's cleaner for CRScreen: the offset map is the
// screen's (screenMap), not a point per token.
func (c *cleaner) mapScreen() {
	if c.scr == nil {
		return
	}
	c.scr, c.mapEach = newScreen(c.opts, true), false
	c.m.scr = &screenMap{}
}

// screenFeed replaces the text the tokens of p wrote after out[:held] by
// the lines that scrolled off the screen. It is called under CRScreen only.
func (c *cleaner) screenFeed(p []byte, held int) {
	c.scr.Feed(p)
	c.out = c.takeScrolled(held)
}

// takeScrolled returns out[:held] and the lines that scrolled off, and
// under Map adds their segments to the offset map.
func (c *cleaner) takeScrolled(held int) []byte {
	if c.m == nil || c.m.scr == nil {
		out, _ := c.scr.TakeScrolled(c.out[:held], nil)
		return out
	}
	out, segs := c.scr.TakeScrolled(c.out[:held], c.m.scr.segs)
	c.m.scr.segs = segs
	return out
}

// screenEnd writes the rest of the screen at the end of the stream.
func (c *cleaner) screenEnd(held int) {
	if c.scr == nil {
		return
	}
	c.scr.End()
	out := c.takeScrolled(held)
	if c.m == nil {
		c.out, _ = c.scr.AppendScreenText(out, nil)
		return
	}
	sm := c.m.scr // Map never drains out: segment offsets are output offsets
	c.out, sm.segs = c.scr.AppendScreenText(out, sm.segs)
	sm.index(c.out, c.scr.Offset())
	*c.m = OffsetMap{scr: sm}
	c.m.add(0, 0)
}
