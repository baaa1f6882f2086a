package viewer

import (
	"fmt"
	"strings"

	"github.com/bytelens/bytelens/render"
)

// Glyphs of the viewer's own furniture, made safe once.
var (
	sepSpace = render.Spaces(1)
	sepOpen  = render.TextString("[")
	sepClose = render.TextString("]")
	sepBoth  = render.TextString("|")
	// frameMark stands after the offset of a hex row that holds the
	// first byte of a frame.
	frameMark = render.TextString(">")
)

// hexPane is the hex pane: per row the offset, then each byte's two hex
// digits, sequence boundaries bracketed.
type hexPane struct{ noKeys }

func (hexPane) title(*model) string { return "hex" }

func (hexPane) lines(m *model, width, _ int) []string {
	if m.sv().src.n == 0 {
		return []string{pad(m.st.zero, render.TextString("(empty stream)"), width)}
	}
	out := make([]string, 0, len(m.f.rows))
	for _, d := range m.f.rows {
		out = append(out, m.hexRow(d, width))
	}
	return out
}

// click moves the cursor to the byte under the click; the offset column
// stands for the row's first byte.
func (hexPane) click(m *model, row, col int) {
	i := int64(col-m.lay.offW-1) / 3
	if col < m.lay.offW+1 {
		i = 0
	}
	m.clickRow(row, i)
}

// clickRow moves the cursor to byte i of display row r.
func (m *model) clickRow(r int, i int64) {
	if r >= len(m.f.rows) {
		return
	}
	d := m.f.rows[r]
	if d.squeeze {
		i = 0
	}
	m.jump(d.off + max(0, min(i, int64(max(1, d.n))-1)))
}

// squeezeRow draws a squeeze row: how many rows it stands for, and where.
func (m *model) squeezeRow(d dispRow, width int, long bool) string {
	text := "*"
	if long {
		text = fmt.Sprintf("* %d identical rows, %s to %s", (d.end-d.off)/int64(m.lay.bpr),
			render.Offset(d.off).String(), render.Offset(d.end-1).String())
	}
	return pad(m.st.cell(render.ClassMuted, stNormal), render.TextString(text), width)
}

// hexRow draws a row of the hex pane: the offset, > when a frame starts
// in the row, then each byte's two hex digits, separated by a space, or
// by [ before the first byte of a control, sequence or string and ]
// after its last (| for both).
func (m *model) hexRow(d dispRow, width int) string {
	if d.squeeze {
		return m.squeezeRow(d, width, true)
	}
	st := &m.st
	var b strings.Builder
	b.WriteString(pad(st.cell(render.ClassOffset, stNormal), render.Offset(d.off), m.lay.offW))
	if m.sv().frameStartIn(d.off, d.off+int64(max(1, d.n))) >= 0 {
		st.heading.add(&b, frameMark)
	} else {
		b.WriteByte(' ')
	}
	w := m.f.winFor(d.off)
	var cells []render.Cell
	if w != nil {
		cells = render.HexCells(&w.w, d.off-w.base, d.n)
	}
	prevEnd := false
	for _, c := range cells {
		start, end := w.w.Boundary(c.Off)
		m.sep(&b, prevEnd, start)
		st.cell(c.Class, m.state(c.Off+w.base, start)).add(&b, c.Text)
		prevEnd = end
	}
	m.sep(&b, prevEnd, false)
	used := m.lay.offW + 2 + 3*len(cells)
	b.WriteString(strings.Repeat(" ", max(0, width-used)))
	return b.String()
}

// sep writes the separator between two hex cells.
func (m *model) sep(b *strings.Builder, end, start bool) {
	s := sepSpace
	switch {
	case end && start:
		s = sepBoth
	case start:
		s = sepOpen
	case end:
		s = sepClose
	}
	m.st.cell(render.ClassSequence, stNormal).add(b, s)
}
