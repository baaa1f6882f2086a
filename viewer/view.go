package viewer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
)

// View draws the screen: exactly as many lines as the terminal is high,
// each exactly as wide as the terminal. Every string from the capture in
// it is a render.Safe; the rest is the viewer's own text and SGR styling.
func (m *model) View() string {
	if m.w <= 0 || m.h <= 0 || m.err != nil {
		return "" // no size yet, or quitting with an error
	}
	lines := []string{m.titleLine()}
	if m.lay.tooSmall {
		msg := render.TextString(fmt.Sprintf("terminal too small (%dx%d): needs at least %dx%d", m.w, m.h, m.lay.needW, m.lay.needH))
		lines = append(lines, wrapSafe(msg, m.w, m.w, m.st.warn)...)
		return fit(lines, m.w, m.h)
	}
	var boxes [][]string
	for _, p := range m.lay.topRow() {
		boxes = append(boxes, m.box(p))
	}
	for i := range m.lay.paneH {
		var b strings.Builder
		for _, bx := range boxes {
			b.WriteString(bx[i])
		}
		lines = append(lines, b.String())
	}
	if m.lay.shown[paneDetail] {
		lines = append(lines, m.box(paneDetail)...)
	}
	lines = append(lines, m.statusLines()...)
	for _, l := range strings.Split(m.helpView, "\n") {
		// The help bar is the viewer's own text; lipgloss measures it.
		if lw := lipgloss.Width(l); lw > m.w {
			l = ansi.Truncate(l, m.w, "...")
		} else {
			l += strings.Repeat(" ", m.w-lw)
		}
		lines = append(lines, l)
	}
	return fit(lines, m.w, m.h)
}

// fit makes lines exactly h lines, padding with blank lines of w cells.
// Every line is already exactly w cells wide: the viewer builds each one
// to its width, measuring capture text with render.Safe.Width only.
func fit(lines []string, w, h int) string {
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines[:h], "\n")
}

// pad returns s and enough spaces to make it width cells wide, cut to
// width if it is wider, wrapped in sp.
func pad(sp span, s render.Safe, width int) string {
	s = cut(s, width)
	return sp.wrap(s) + strings.Repeat(" ", width-s.Width())
}

// ellipsis ends a line cut short: ASCII, because … is ambiguous width.
var ellipsis = render.TextString("...")

// cut returns s cut to width cells, ending in ... when it was wider.
func cut(s render.Safe, width int) render.Safe {
	if s.Width() <= width {
		return s
	}
	if width <= ellipsis.Width() {
		return s.Slice(0, width)
	}
	return render.Concat(s.Slice(0, width-ellipsis.Width()), ellipsis)
}

// state returns the state of the cell of the byte at off.
func (m *model) state(off int64, start bool) cellState {
	f := &m.f
	switch {
	case off == m.sv().cursor:
		return stCursor
	case f.tokOK && off >= f.tok.Off && off < f.tok.End():
		return stToken
	case start:
		return stStart
	}
	return stNormal
}

// percent returns done as a whole percentage of total.
func percent(done, total int64) int64 {
	if total <= 0 {
		return 100
	}
	return done * 100 / total
}

// titleLine draws the title bar: the capture on the left, the stream,
// frame and progress on the right.
func (m *model) titleLine() string {
	sv := m.sv()
	left := fmt.Sprintf(" bytelens view | %s | %s | %d bytes", m.o.Name, m.c.Format, sv.src.n)
	if m.c.Lossy {
		left += " | lossy"
	}
	if c := m.cmp; c != nil && c.shared {
		left += " | compare policies: B is " + c.name
	} else if c != nil {
		left += fmt.Sprintf(" | compare with %s | %d bytes", c.name, c.sv.src.n)
	}
	var right []string
	if len(m.svs) > 1 {
		right = append(right, fmt.Sprintf("stream %s %d/%d", sv.s.Name, m.cur+1, len(m.svs)))
	}
	if i := sv.frameAt(sv.cursor); i < 0 && len(sv.frames) > 0 {
		right = append(right, fmt.Sprintf("before frame 1/%d", len(sv.frames)))
	} else if i >= 0 {
		s := fmt.Sprintf("frame %d/%d", i+1, len(sv.frames))
		if m.c.Timed {
			s += fmt.Sprintf(" at %.3fs", sv.frames[i].Time.Seconds())
		}
		right = append(right, s)
	}
	if dec, rep, done := sv.idx.status(); !done {
		right = append(right, fmt.Sprintf("indexing %d%%", percent(min(dec, rep), sv.src.n)))
	}
	if c := m.cmp; c != nil {
		if dec, rep, done := c.sv.idx.status(); !done {
			right = append(right, fmt.Sprintf("indexing B %d%%", percent(min(dec, rep), c.sv.src.n)))
		}
	}
	for _, w := range m.f.wins {
		if !w.exact {
			right = append(right, "approximate here until indexed")
			break
		}
	}
	if m.job != nil {
		right = append(right, fmt.Sprintf("searching %s %d%%", m.job.name(), int(m.job.progress()*100)))
	}
	r := render.Line([]byte(strings.Join(right, " | ") + " "))
	l := render.Line([]byte(left))
	if r.Width() >= m.w {
		r = cut(r, m.w)
	}
	l = cut(l, max(0, m.w-r.Width()))
	return m.st.bar.wrap(render.Concat(l, render.Spaces(m.w-l.Width()-r.Width()), r))
}

// statusLines draws the two status lines: the cursor's offset and token,
// then the prompt, a message, or what the sanitizer did with the token.
func (m *model) statusLines() []string {
	sv, f := m.sv(), &m.f
	var first render.Safe
	if sv.src.n > 0 {
		first = render.Concat(render.Offset(sv.cursor), render.Line([]byte(fmt.Sprintf(" (%d)%s", sv.cursor, m.frameNote()))))
	}
	if f.tokOK {
		t := &f.tok
		split := sv.splitFrames(t)
		if split != "" {
			split = " split across " + split
		}
		first = render.Concat(first,
			render.Line([]byte(fmt.Sprintf("  %s ", t.Kind))), render.Offset(t.Off),
			render.Line([]byte(fmt.Sprintf("+%d%s  ", t.Len, split))), m.describe(t))
	}
	var second string
	note, noted := m.findingNote()
	switch {
	case m.prompt != promptNone:
		second = m.promptLine()
	case !m.msg.IsZero():
		sp := m.st.status
		if m.warn {
			sp = m.st.warn
		}
		second = pad(sp, m.msg, m.w)
	case noted:
		second = pad(m.st.status, note, m.w)
	case f.tokOK:
		second = pad(m.st.status, m.decision(), m.w)
	}
	if second == "" {
		second = strings.Repeat(" ", m.w)
	}
	return []string{pad(m.st.status, first, m.w), second}
}

// linkOpenNote is render.Describe's note on an OSC 8 that opens a link:
// right for output without payloads, where the viewer says where the
// target is instead.
const linkOpenNote = "hyperlink open (target not shown)"

// describe returns render.Describe(t), worded for the viewer: the detail
// pane when it is shown (always in compare mode, which has no glyph
// pane), else the glyph pane, shows an OSC 8 link's target unless
// payloads are hidden.
func (m *model) describe(t *decode.Token) render.Safe {
	if m.cmp != nil || m.lay.shown[paneDetail] {
		return m.describeAt(t, "shown in the detail pane")
	}
	return m.describeAt(t, "shown in the glyph pane")
}

// describeAt is describe with where the target is shown.
func (m *model) describeAt(t *decode.Token, where string) render.Safe {
	d := render.Describe(t)
	if t.Kind != decode.KindOSC || t.Command != 8 || !strings.Contains(d.String(), linkOpenNote) {
		return d
	}
	note := "hyperlink open (target " + where + ")"
	if m.o.HidePayloads {
		note = "hyperlink open (target hidden: --hide-payloads)"
	}
	// Describe writes ASCII only, which Line keeps as it is.
	return render.Line([]byte(strings.Replace(d.String(), linkOpenNote, note, 1)))
}

// frameNote says which frame the cursor is in, and when it was
// recorded, when the stream has frames.
func (m *model) frameNote() string {
	sv := m.sv()
	i := sv.frameAt(sv.cursor)
	if i < 0 {
		return ""
	}
	s := fmt.Sprintf("  frame %d/%d", i+1, len(sv.frames))
	if sv.frames[i].Off == sv.cursor {
		s += " starts here"
	}
	if m.c.Timed {
		s += fmt.Sprintf(" at %.3fs", sv.frames[i].Time.Seconds())
	}
	return s
}

// decision says what the sanitizer did with the token under the cursor.
func (m *model) decision() render.Safe {
	f := &m.f
	w := &f.wins[f.tokWin]
	if t := &w.w.Tokens[f.tokIdx]; t.Off+w.base == f.tok.Off && t.Len == f.tok.Len {
		return render.DecisionIn(&w.w, f.tokIdx, m.o.Sanitize)
	}
	return render.Decision(&f.tok, m.o.Sanitize)
}

// promptLine draws the open prompt; what the user typed is escaped.
func (m *model) promptLine() string {
	label := [numPrompts]string{promptGoto: "go to offset: ", promptText: "search cleaned text", promptHex: "search bytes (hex): ",
		promptRaw: "search raw bytes as text"}[m.prompt]
	if m.prompt == promptText || m.prompt == promptRaw {
		fold := "smart case"
		if m.foldCase {
			fold = "ignore case"
		}
		label += " (" + fold + "; tab: cleaned/raw, ctrl+t: case): "
	}
	v := []rune(m.input.Value())
	pos := min(m.input.Position(), len(v))
	under := render.Spaces(1)
	rest := []rune(nil)
	if pos < len(v) {
		under, rest = render.Line([]byte(string(v[pos]))), v[pos+1:]
	}
	parts := []struct {
		sp span
		s  render.Safe
	}{
		{m.st.prompt, render.TextString(label)},
		{m.st.status, render.Line([]byte(string(v[:pos])))},
		{m.st.promptCursor, under},
		{m.st.status, render.Line([]byte(string(rest)))},
	}
	if last := m.lastQ[m.prompt]; len(v) == 0 && last != "" && m.prompt != promptGoto {
		// The last query, as a placeholder: Enter searches for it again.
		parts = append(parts, struct {
			sp span
			s  render.Safe
		}{m.st.zero, render.Line([]byte(" enter: " + last + " again"))})
	}
	var b strings.Builder
	left := m.w
	for _, p := range parts {
		s := p.s
		if s.Width() > left {
			s = s.Slice(0, left)
		}
		p.sp.add(&b, s)
		left -= s.Width()
	}
	b.WriteString(strings.Repeat(" ", left))
	return b.String()
}
