package viewer

import (
	"slices"

	"github.com/charmbracelet/lipgloss"

	"github.com/bytelens/bytelens/render"
)

// Inner widths, in cells, that do not depend on the data.
const (
	reportWidth    = 24 // the report pane, when there is room
	minReportWidth = 18 // the narrowest report pane: names and counts
	minTextWidth   = 12 // the narrowest cleaned-text pane worth showing
	narrowText     = 24 // a cleaned-text pane worth dropping the report for
	goodText       = 40 // a cleaned-text pane worth fewer bytes per row
	minGlyphWidth  = 6  // the glyph pane, wide enough for its title
	diffWidth      = 44 // the compare report pane
	gutterWidth    = 1  // the difference marks left of compare-mode text
	maxDetailRows  = 8  // the detail pane's rows, at most
	minDetailRows  = 3  // the detail pane's rows, at least
	minTopRows     = 10 // byte rows worth keeping above the detail pane
)

// rowWidths are the bytes per row the layout tries, widest first.
var rowWidths = []int{16, 8, 4}

// layoutKind says which panes a layout arranges: the byte panes, cleaned
// text and report; or compare mode's two cleaned texts and the report
// table. The detail pane goes below either when there is room.
type layoutKind int

const (
	layoutBytes layoutKind = iota
	layoutCompare
)

// layout is where everything goes for one terminal size. Widths and
// heights are inner ones (inside the pane borders); x and y hold each
// pane's left column and top row on the screen.
type layout struct {
	width, height int
	bpr           int // bytes per row
	offW          int // width of the offset column
	inner         [numPanes]int
	innerH        [numPanes]int
	shown         [numPanes]bool
	x, y          [numPanes]int
	paneTop       int // first screen row of the panes
	paneH         int // outer height of the top row of panes
	rows          int // byte rows per pane of the top row
	detailH       int // outer height of the detail pane, 0 when not shown
	frameW        int // pane border widths, left and right together
	frameH        int // pane border heights, top and bottom together
	borderTop     int
	borderLeft    int
	tooSmall      bool
	needW, needH  int // the smallest terminal the layout fits in
}

// hexInner is the inner width of the hex pane at bpr bytes per row: the
// offset, a space, then a separator before every byte and after the last.
func hexInner(offW, bpr int) int { return offW + 1 + 3*bpr + 1 }

// glyphInner is the inner width of the glyph pane at bpr bytes per row.
func glyphInner(bpr int) int { return max(bpr, minGlyphWidth) }

// computeLayout lays the panes of kind out in a terminal of w×h cells,
// with chrome rows of chrome above and below them, and the detail pane
// across the whole width below them when detail is set and there is
// room.
func computeLayout(st *Styles, w, h, chromeTop, chromeBottom int, streamLen int64, kind layoutKind, detail bool) layout {
	l := layout{width: w, height: h, paneTop: chromeTop}
	l.frameW, l.frameH = st.Pane.GetFrameSize()
	l.borderTop, l.borderLeft = st.Pane.GetBorderTopSize(), st.Pane.GetBorderLeftSize()
	l.offW = render.Offset(max(0, streamLen-1)).Width()
	l.needW, l.needH = hexInner(l.offW, rowWidths[len(rowWidths)-1])+l.frameW, chromeTop+chromeBottom+l.frameH+1
	if kind == layoutCompare {
		l.needW = 2 * (minTextWidth + gutterWidth + l.frameW)
	}
	avail := h - chromeTop - chromeBottom
	if dr := min(maxDetailRows, (avail-2*l.frameH)/3); detail && dr >= minDetailRows && avail-dr-2*l.frameH >= minTopRows && w > l.frameW {
		l.detailH = dr + l.frameH
	}
	l.paneH = avail - l.detailH
	l.rows = l.paneH - l.frameH // the pane's title is in its top border
	if l.rows < 1 || w < 1 {
		l.tooSmall = true
		return l
	}
	// try fits the hex pane at one of bprs bytes per row, with the glyph
	// pane when glyph, the report pane when report (at least
	// minReportWidth, up to reportWidth) and the cleaned-text pane of at
	// least minText cells when minText > 0. The cleaned text takes the
	// slack; without it the glyph pane does.
	try := func(glyph, report bool, minText int, bprs ...int) bool {
		for _, b := range bprs {
			need := hexInner(l.offW, b) + l.frameW
			if glyph {
				need += glyphInner(b) + l.frameW
			}
			if report {
				need += minReportWidth + l.frameW
			}
			if minText > 0 {
				need += minText + l.frameW
			}
			if need > w {
				continue
			}
			slack := w - need
			l.bpr = b
			l.inner = [numPanes]int{hexInner(l.offW, b), 0, 0, 0}
			l.shown = [numPanes]bool{true, glyph, minText > 0, report}
			if glyph {
				l.inner[paneGlyph] = glyphInner(b)
			}
			if report {
				grow := min(reportWidth-minReportWidth, slack)
				l.inner[paneReport] = minReportWidth + grow
				slack -= grow
			}
			switch {
			case minText > 0:
				l.inner[paneText] = minText + slack
			case glyph:
				l.inner[paneGlyph] += slack
			default:
				l.inner[paneHex] += slack
			}
			return true
		}
		return false
	}
	tryCompare := func(report bool) bool {
		text := w - 2*l.frameW
		if report {
			text -= diffWidth + l.frameW
		}
		if text < 2*(minTextWidth+gutterWidth) {
			return false
		}
		// The byte rows are not shown; they still place the cursor.
		l.bpr = rowWidths[0]
		l.shown[paneText], l.shown[paneTextB], l.shown[paneDiff] = true, true, report
		l.inner[paneText], l.inner[paneTextB] = text/2, text-text/2
		if report {
			l.inner[paneDiff] = diffWidth
		}
		return true
	}
	switch {
	case kind == layoutCompare && (tryCompare(true) || tryCompare(false)):
	case kind == layoutBytes && (try(true, true, goodText, 16, 8) || // wide: every pane
		try(true, true, narrowText, 8) ||
		try(true, false, narrowText, 16, 8) || // the report pane goes first,
		try(true, false, minTextWidth, 8, 4) || // then the byte rows narrow,
		try(false, false, minTextWidth, 8, 4) || // then the glyph pane goes,
		try(true, false, 0, 16, 8, 4) || try(false, false, 0, 4)): // the cleaned text last
	default:
		l.tooSmall = true
		return l
	}
	x := 0
	for p := range numPanes {
		if l.shown[p] {
			l.x[p], l.y[p], l.innerH[p] = x, l.paneTop, l.rows
			x += l.inner[p] + l.frameW
		}
	}
	if l.detailH > 0 {
		p := paneDetail
		l.shown[p], l.inner[p], l.innerH[p] = true, w-l.frameW, l.detailH-l.frameH
		l.x[p], l.y[p] = 0, l.paneTop+l.paneH
	}
	return l
}

// topRow returns the shown panes of the top row, left to right.
func (l *layout) topRow() []paneID {
	var out []paneID
	for p := range numPanes {
		if l.shown[p] && l.y[p] == l.paneTop {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b paneID) int { return l.x[a] - l.x[b] }) // a replaced pane keeps its place
	return out
}

// paneAt returns the pane under screen column x and row y, and the row
// and column inside it.
func (l *layout) paneAt(x, y int) (p paneID, row, col int, ok bool) {
	if l.tooSmall {
		return 0, 0, 0, false
	}
	for p := range numPanes {
		left, top := l.x[p]+l.borderLeft, l.y[p]+l.borderTop
		if l.shown[p] && x >= left && x < left+l.inner[p] && y >= top && y < top+l.innerH[p] {
			return p, y - top, x - left, true
		}
	}
	return 0, 0, 0, false
}

// height returns the number of lines s takes.
func height(s string) int { return lipgloss.Height(s) }

// replace puts pane q where p is and hides p.
func (l *layout) replace(p, q paneID) {
	l.shown[p], l.shown[q] = false, true
	l.inner[q], l.innerH[q], l.x[q], l.y[q] = l.inner[p], l.innerH[p], l.x[p], l.y[p]
}
