package sanitize

import "github.com/bytelens/bytelens/screen"

// The CRScreen policy: the tokens are cleaned and reported as under
// CRLines, but the text written is what package screen's model shows.

// Size of the CRScreen model: wide, so that lines of text are not cut by
// autowrap; high enough for the cursor-up repaints of progress displays.
const screenCols, screenRows = screen.MaxSize, 50

// newScreen returns the model of CRScreen, or nil for other policies.
func newScreen(o Options) *screen.Model {
	if o.CR != CRScreen {
		return nil
	}
	m, _ := screen.New(screen.Options{Cols: screenCols, Rows: screenRows, NewlineCRLF: true, Scrollback: true,
		LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL}) // the size is valid
	return m
}

// screenFeed replaces the text the tokens of p wrote after out[:held] by
// the lines that scrolled off the screen. It is called under CRScreen only.
func (c *cleaner) screenFeed(p []byte, held int) {
	c.scr.Feed(p)
	c.out = c.scr.TakeScrolled(c.out[:held])
}

// screenEnd writes the rest of the screen at the end of the stream.
func (c *cleaner) screenEnd(held int) {
	if c.scr == nil {
		return
	}
	c.scr.End()
	c.out = c.scr.AppendScreenText(c.scr.TakeScrolled(c.out[:held]))
	if c.m != nil {
		*c.m = OffsetMap{}
		c.m.add(0, 0)
	}
}
