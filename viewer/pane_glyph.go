package viewer

import (
	"strings"

	"github.com/bytelens/bytelens/render"
)

// glyphPane is the glyph pane: one escaped glyph per byte.
type glyphPane struct{ noKeys }

func (glyphPane) title(*model) string { return "glyphs" }

func (glyphPane) lines(m *model, width, _ int) []string {
	if m.sv().src.n == 0 {
		return nil
	}
	out := make([]string, 0, len(m.f.rows))
	for _, d := range m.f.rows {
		out = append(out, m.glyphRow(d, width))
	}
	return out
}

func (glyphPane) click(m *model, row, col int) { m.clickRow(row, int64(col)) }

// glyphRow draws a row of the glyph pane: one cell per byte.
func (m *model) glyphRow(d dispRow, width int) string {
	if d.squeeze {
		return m.squeezeRow(d, width, false)
	}
	var b strings.Builder
	w := m.f.winFor(d.off)
	n := 0
	if w != nil {
		o := render.GlyphOptions{HidePayloads: m.o.HidePayloads, ASCII: m.o.ASCII}
		for _, c := range render.GlyphCells(&w.w, d.off-w.base, d.n, o) {
			start, _ := w.w.Boundary(c.Off)
			m.st.cell(c.Class, m.state(c.Off+w.base, start)).add(&b, c.Text)
			n += c.Text.Width()
		}
	}
	b.WriteString(strings.Repeat(" ", max(0, width-n)))
	return b.String()
}
