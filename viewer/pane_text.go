package viewer

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/render"
)

// textPane is a cleaned-text pane: the capture's, or in compare mode
// (b set) side B's, its rows lined up with the cursor's row.
type textPane struct{ b bool }

// id returns the pane's ID.
func (p textPane) id() paneID {
	if p.b {
		return paneTextB
	}
	return paneText
}

func (p textPane) title(m *model) string {
	title, note := "cleaned text", m.f.textNote
	if c := m.cmp; c != nil {
		switch {
		case p.b:
			title, note = "B: "+c.name, m.f.textNoteB
		case c.shared:
			title = "A: base policy"
		default:
			title = "A: " + m.o.Name
		}
	}
	if !note.IsZero() {
		title += " - " + note.String()
	}
	return title
}

func (p textPane) lines(m *model, width, _ int) []string {
	rows, _ := m.textSide(p.id())
	seq := m.f.seq
	if p.b {
		seq = m.f.seqB
	}
	out := make([]string, 0, len(rows))
	for i, r := range rows {
		out = append(out, m.textRow(r, width, m.cmp != nil, i < len(seq) && seq[i]))
	}
	return out
}

// key moves the cursor a row of cleaned text up or down, and a page of
// them in compare mode, where no byte rows are shown.
func (p textPane) key(m *model, k tea.KeyMsg) (bool, tea.Cmd) {
	ks, page := &m.keys, max(1, m.lay.rows-1)
	switch {
	case key.Matches(k, ks.Up):
		return m.moveText(p.id(), -1, false), nil
	case key.Matches(k, ks.Down):
		return m.moveText(p.id(), 1, false), nil
	case key.Matches(k, ks.PageUp) && m.cmp != nil:
		return m.moveText(p.id(), -page, true), nil
	case key.Matches(k, ks.PageDown) && m.cmp != nil:
		return m.moveText(p.id(), page, true), nil
	}
	return false, nil
}

func (p textPane) click(m *model, row, col int) { m.clickText(p.id(), row, col) }

// textSide returns the rows and the window of text pane p.
func (m *model) textSide(p paneID) ([]textRow, *cleanWin) {
	if p == paneTextB {
		return m.f.textB, m.cmp.sv.clean
	}
	return m.f.text, m.sv().clean
}

// clickText moves the cursor to the input of the cell at row r, column
// col of text pane p: a removal mark goes to the removed bytes.
func (m *model) clickText(p paneID, r, col int) {
	rows, c := m.textSide(p)
	if m.cmp != nil {
		col -= gutterWidth
	}
	if r >= len(rows) || !rows[r].ok || c == nil {
		return
	}
	out := rows[r].out
	x := 0
	for _, pc := range rows[r].pieces {
		if col < x+pc.width {
			out = pc.out
			if pc.mark {
				for _, run := range c.runs {
					if run.out == pc.out {
						m.jumpIn(p, c.a+run.in)
						return
					}
				}
			}
			break
		}
		x += pc.width
	}
	s, _ := c.m.ToInput(out)
	m.jumpIn(p, c.a+s)
}

// jumpIn moves the cursor to off, a byte of text pane p's side.
func (m *model) jumpIn(p paneID, off int64) {
	if p == paneTextB {
		m.jumpB(off)
		return
	}
	m.jump(off)
}

// textRow draws a row of a cleaned-text pane; with gutter (compare mode)
// a first column marks the rows of lines whose text differs (!) and,
// with seq, of lines whose bytes differ under the same text (~).
func (m *model) textRow(r textRow, width int, gutter, seq bool) string {
	var b strings.Builder
	n := 0
	if gutter {
		switch {
		case r.differs:
			m.st.differ.add(&b, diffMark)
		case seq:
			m.st.differ.add(&b, seqMark)
		default:
			b.WriteByte(' ')
		}
		n = gutterWidth
	}
	for _, pc := range r.pieces {
		if pc.mark {
			m.st.marks[pc.rm][pc.st].add(&b, pc.rm.Mark(m.o.ASCII))
		} else {
			m.st.cell(render.ClassText, pc.st).add(&b, pc.s)
		}
		n += pc.width
	}
	b.WriteString(strings.Repeat(" ", max(0, width-n)))
	return b.String()
}
