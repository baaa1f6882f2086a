package viewer

import (
	"fmt"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/screen"
)

// screenPane shows the terminal screen as it was just after the byte
// under the cursor (package screen's model): the cells drawn by the token
// under the cursor in the cursor-token style, concealed and invisible
// text revealed in the sequence-start style. S shows it in the place of
// the cleaned-text pane; a click on a cell moves the cursor to the byte
// that drew it.
type screenPane struct{ noKeys }

// screenStep is how many bytes apart the screen pane keeps checkpoints.
const screenStep = 4 << 20

// screenCache is a stream's screen models: checkpoints every screenStep
// bytes, and the model at the cursor, fed on from the nearest one.
type screenCache struct {
	set capture.ScreenSetup
	cps []*screen.Model // cps[i] has been fed i*screenStep bytes
	cur *screen.Model
	err error
}

// modelAt returns the model fed the first end bytes of the stream.
func (c *screenCache) modelAt(st *capture.Stream, end int64) (*screen.Model, error) {
	if c.cur != nil && c.cur.Offset() <= end && end-c.cur.Offset() < screenStep {
		return c.cur, capture.PlayScreen(c.cur, st, end)
	}
	for i := len(c.cps); int64(i)*screenStep <= end; i++ {
		if i == 0 {
			m, err := screen.New(screen.Options{Cols: c.set.Cols, Rows: c.set.Rows, NewlineCRLF: c.set.NewlineCRLF})
			if err != nil {
				return nil, err
			}
			c.cps = append(c.cps, m)
			continue
		}
		m := c.cps[i-1].Clone()
		if err := capture.PlayScreen(m, st, int64(i)*screenStep); err != nil {
			return nil, err
		}
		c.cps = append(c.cps, m)
	}
	c.cur = c.cps[end/screenStep].Clone()
	return c.cur, capture.PlayScreen(c.cur, st, end)
}

// screenModel returns the model just after the byte under the cursor.
func (m *model) screenModel() (*screen.Model, error) {
	sv := m.sv()
	if sv.scr == nil {
		sv.scr = &screenCache{set: capture.SetupScreen(m.c, sv.s, 0, 0)}
	}
	return sv.scr.modelAt(sv.s, min(sv.src.n, sv.cursor+1))
}

func (screenPane) title(m *model) string {
	sm, err := m.screenModel()
	if err != nil {
		return "screen"
	}
	cols, rows := sm.Size()
	which := "main"
	if sm.Alternate() {
		which = "alternate"
	}
	set := m.sv().scr.set
	nl := "LF as LF"
	if set.NewlineCRLF {
		nl = "LF as CR LF"
	}
	t := fmt.Sprintf("screen %dx%d (%s), %s, %s", cols, rows, set.SizeSource, which, nl)
	if n := m.sv().frameAt(m.sv().cursor); n >= 0 && n < len(m.sv().frames) && m.c.Timed {
		t += ", " + m.sv().frames[n].Time.String()
	}
	return t
}

func (screenPane) lines(m *model, width, height int) []string {
	sm, err := m.screenModel()
	if err != nil {
		return []string{pad(m.st.warn, render.Line([]byte(err.Error())), width)}
	}
	var tokOff, tokEnd int64 = -1, -1
	if t := m.f.cursorToken(); t != nil {
		tokOff, tokEnd = t.Off, t.End()
	}
	_, rows := sm.Size()
	out := make([]string, 0, min(rows, height))
	var text []byte
	for y := range min(rows, height) {
		line, w := "", 0
		row := sm.Row(y)
		for x := 0; x < len(row) && w < width; x++ {
			c := &row[x]
			if c.WideTail() {
				continue
			}
			text = text[:0]
			switch {
			case c.Rune == 0:
				text = append(text, ' ')
			default:
				text = utf8.AppendRune(text, c.Rune)
				if c.Mark != 0 {
					text = utf8.AppendRune(text, c.Mark)
				}
			}
			s := render.Line(text)
			if w+s.Width() > width {
				break
			}
			st := stNormal
			switch {
			case c.Off >= tokOff && c.Off < tokEnd:
				st = stToken
			case c.Rune != 0 && (c.Pen.Attr&screen.AttrConceal != 0):
				st = stStart
			}
			line += m.st.cell(render.ClassText, st).wrap(s)
			w += s.Width()
		}
		out = append(out, line+pad(m.st.cell(render.ClassText, stNormal), render.Safe{}, width-w))
	}
	return out
}

// click moves the cursor to the byte that drew the cell clicked.
func (screenPane) click(m *model, row, col int) {
	sm, err := m.screenModel()
	if err != nil {
		return
	}
	cols, rows := sm.Size()
	if row < 0 || row >= rows || col < 0 || col >= cols {
		return
	}
	if c := sm.Cell(col, row); c.Off >= 0 {
		m.jump(c.Off)
	}
}
