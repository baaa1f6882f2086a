package viewer

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/render"
)

// pane is one box of the screen. Each pane is a type of its own file;
// the layout places the panes, box draws the border around a pane's
// lines, and the root model gives the focused pane the first look at a
// key. Adding a pane is a new file with a type like these and its place
// in a layout (layout.go).
type pane interface {
	// title returns the pane's title, the viewer's own words (escaped
	// when drawn, since it may hold a file name).
	title(m *model) string
	// lines returns the pane's inner rows for a box width cells wide and
	// height rows high, each exactly width cells wide; fewer rows are
	// padded with blank ones.
	lines(m *model, width, height int) []string
	// key handles k while the pane has the focus. It reports whether it
	// did; the viewer's own keys see k otherwise.
	key(m *model, k tea.KeyMsg) (bool, tea.Cmd)
	// click handles a left click at row and column col inside the pane.
	click(m *model, row, col int)
}

// paneID names a pane; the focus moves through the shown ones in this
// order.
type paneID int

const (
	paneHex paneID = iota
	paneGlyph
	paneText
	paneReport
	paneTextB // compare mode: B's cleaned text
	paneDiff  // compare mode: the two reports side by side
	paneDetail
	paneScreen // the terminal screen, in the cleaned text's place (S)
	numPanes
)

// panes are the viewer's panes, by ID.
var panes = [numPanes]pane{
	paneHex:    hexPane{},
	paneGlyph:  glyphPane{},
	paneText:   textPane{},
	paneReport: reportPane{},
	paneTextB:  textPane{b: true},
	paneDiff:   diffPane{},
	paneDetail: detailPane{},
	paneScreen: screenPane{},
}

// noKeys is embedded by panes that take no keys of their own.
type noKeys struct{}

func (noKeys) key(*model, tea.KeyMsg) (bool, tea.Cmd) { return false, nil }

// box draws pane p in its border, its title in the top border.
func (m *model) box(p paneID) []string {
	st, l := &m.st, &m.lay
	style, bs, hs := st.Pane, st.border, st.header
	if p == m.focus {
		style, bs, hs = st.Focused, st.borderFocused, st.headerFocused
	}
	b := style.GetBorderStyle()
	width, height := l.inner[p], l.innerH[p]
	title := render.Line([]byte(panes[p].title(m)))
	if title.Width() > width {
		title = title.Slice(0, width)
	}
	out := make([]string, 0, height+l.frameH)
	out = append(out, bs.wrap(render.TextString(b.TopLeft))+hs.wrap(title)+
		bs.wrap(render.TextString(strings.Repeat(b.Top, width-title.Width())+b.TopRight)))
	left, right := bs.wrap(render.TextString(b.Left)), bs.wrap(render.TextString(b.Right))
	rows := panes[p].lines(m, width, height)
	blank := strings.Repeat(" ", width)
	for i := range height {
		row := blank
		if i < len(rows) {
			row = rows[i]
		}
		out = append(out, left+row+right)
	}
	return append(out, bs.wrap(render.TextString(b.BottomLeft+strings.Repeat(b.Bottom, width)+b.BottomRight)))
}
