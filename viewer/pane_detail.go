package viewer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
)

// detailPane shows the token under the cursor in full (detailFields):
// its meaning, its parameters, its whole payload escaped and wrapped, or
// the character under the cursor. It sits across the screen below the
// other panes; i shows and hides it, and with the focus ↑/↓ and PgUp/PgDn
// scroll it.
type detailPane struct{}

// detailContext is how many bytes around the cursor the detail pane reads
// of a text token, which may be a whole file long.
const detailContext = 256

func (detailPane) title(m *model) string {
	n, h := len(m.f.detail), m.lay.innerH[paneDetail]
	if n <= h {
		return "detail"
	}
	top := min(m.detailTop, n-h)
	return fmt.Sprintf("detail, rows %d-%d of %d", top+1, top+h, n)
}

func (detailPane) lines(m *model, _, height int) []string {
	rows := m.f.detail
	top := max(0, min(m.detailTop, len(rows)-height))
	return rows[top:min(len(rows), top+height)]
}

// key scrolls the pane.
func (detailPane) key(m *model, k tea.KeyMsg) (bool, tea.Cmd) {
	ks, page := &m.keys, max(1, m.lay.innerH[paneDetail]-1)
	switch {
	case key.Matches(k, ks.Up):
		m.detailTop--
	case key.Matches(k, ks.Down):
		m.detailTop++
	case key.Matches(k, ks.PageUp):
		m.detailTop -= page
	case key.Matches(k, ks.PageDown):
		m.detailTop += page
	default:
		return false, nil
	}
	m.detailTop = max(0, m.detailTop)
	return true, nil
}

func (detailPane) click(*model, int, int) {}

// detailRows draws the detail pane's rows at width cells for the frame: each field as
// "label: value", wrapped; a payload on the rows below its label, in the
// payload style.
func (m *model) detailRows(width int) []string {
	f, sv := &m.f, m.sv()
	if !f.tokOK {
		return []string{pad(m.st.zero, render.TextString("no token under the cursor"), width)}
	}
	t := &f.tok
	if *t != m.detailTok {
		m.detailTok, m.detailTop = *t, 0
	}
	if c := m.cmp; c != nil && !c.shared {
		return m.compareDetailRows(width)
	}
	fields, err := m.tokenFields(sv, t)
	if err != nil {
		return []string{pad(m.st.warn, render.Line([]byte(err.Error())), width)}
	}
	var out []string
	for _, fd := range fields {
		label := render.TextString(fd.label + ": ")
		if fd.wrap && label.Width()+fd.value.Width() <= width {
			out = append(out, m.st.heading.wrap(label)+pad(m.st.cell(render.ClassPayload, stNormal), fd.value, width-label.Width()))
			continue
		}
		if fd.wrap {
			out = append(out, pad(m.st.heading, label, width))
			out = append(out, wrapSafe(fd.value, width, width, m.st.cell(render.ClassPayload, stNormal))...)
			continue
		}
		lw := min(label.Width(), width)
		row := m.st.heading.wrap(label.Slice(0, lw))
		rest := wrapSafe(fd.value, width-lw, width, m.st.status)
		if len(rest) == 0 {
			rest = []string{strings.Repeat(" ", width-lw)}
		}
		out = append(out, row+rest[0])
		out = append(out, rest[1:]...)
	}
	return out
}

// tokenFields returns the detail fields of t, the token under sv's
// cursor; an empty payload reads "(none)".
func (m *model) tokenFields(sv *streamView, t *decode.Token) ([]detailField, error) {
	at, n := t.Off, min(t.Len, t.PayloadStart()-t.Off+maxDetailPayload)
	if t.Kind == decode.KindText {
		at = max(t.Off, sv.cursor-detailContext)
		n = min(t.End(), sv.cursor+detailContext) - at
	}
	data, err := sv.src.read(at, n)
	if err != nil {
		return nil, err
	}
	fields := detailFields(t, m.describeAt(t, "below"), data, at, sv.cursor, m.o.HidePayloads)
	for i := range fields {
		if fd := &fields[i]; fd.wrap && fd.value.IsZero() {
			fd.value, fd.wrap = render.TextString("(none)"), false
		}
	}
	return fields, nil
}

// wrapSafe cuts s into a first row of first cells and rows of width
// cells after it, each padded to its width and wrapped in sp.
func wrapSafe(s render.Safe, first, width int, sp span) []string {
	var out []string
	for w, row := s.Width(), first; row > 0; row = width {
		part := s.Slice(0, row)
		out = append(out, pad(sp, part, row))
		if part.Width() >= w || part.Width() == 0 {
			break
		}
		s = s.Slice(part.Width(), w-part.Width())
		w -= part.Width()
	}
	return out
}
