package viewer

import (
	"fmt"
	"strings"

	"github.com/bytelens/bytelens/render"
)

// detailSep separates A's column of the compare detail pane from B's.
var detailSep = render.TextString(" │ ")

// compareDetailRows draws the detail pane of two captures at width
// cells: a row saying how the token under A's cursor and its counterpart
// under B's differ, then the fields of both side by side, A left and B
// right, each as detailFields gives them (so --hide-payloads hides both
// payloads). The rows of a field whose value differs are marked ! and
// the part that differs, between the longest common start and end of the
// two escaped values, is drawn in reverse video.
func (m *model) compareDetailRows(width int) []string {
	c, st := m.cmp, &m.st
	fail := func(err error) []string { return []string{pad(st.warn, render.Line([]byte(err.Error())), width)} }
	summary, err := m.detailSummary()
	if err != nil {
		return fail(err)
	}
	fa, err := m.tokenFields(m.sv(), &m.f.tok)
	if err != nil {
		return fail(err)
	}
	var fb []detailField
	if c.sv.src.n > 0 {
		tb, err := c.sv.tokenAt(c.sv.cursor)
		if err != nil {
			return fail(err)
		}
		if fb, err = m.tokenFields(c.sv, &tb); err != nil {
			return fail(err)
		}
	}
	for k, fs := range [2][]detailField{fa, fb} {
		if len(fs) > 0 {
			fs[0].label = string("AB"[k]) + " " + fs[0].label
		}
	}
	out := []string{pad(st.status, summary, width)}
	wa := max(1, (width-gutterWidth-detailSep.Width())/2)
	wb := max(1, width-gutterWidth-detailSep.Width()-wa)
	for i := range max(len(fa), len(fb)) {
		var pair [2]*detailField
		for k, fs := range [2][]detailField{fa, fb} {
			if i < len(fs) {
				pair[k] = &fs[i]
			}
		}
		out = append(out, m.fieldPair(pair, wa, wb)...)
	}
	return out
}

// detailSummary says how the token under A's cursor differs from its
// counterpart in B, from the alignment.
func (m *model) detailSummary() (render.Safe, error) {
	c := m.cmp
	where := render.Line(fmt.Appendf(nil, "A at %s, B at %s: ", offsetText(m.sv().cursor), offsetText(c.sv.cursor)))
	al := m.aligned()
	if al == nil {
		why := "B at the same offset (not aligned yet)"
		if c.alignCmd(m.cur, m.sv(), m.o.Sanitize) == nil {
			why = fmt.Sprintf("B at the same offset (captures over %d MiB are not aligned)", c.limit>>20)
		}
		return render.Concat(where, render.TextString(why)), nil
	}
	p := diffPlace{side: 0, unit: al.unitAt(0, m.sv().cursor)}
	if c.pin {
		if j := al.unitAt(1, c.sv.cursor); j >= 0 && al.sides[1].state[j] == unitOnly {
			p = diffPlace{side: 1, unit: j}
		}
	}
	if p.unit < 0 || al.sides[p.side].state[p.unit] == unitSame {
		return render.Concat(where, render.TextString("the same bytes on both sides")), nil
	}
	p.off[p.side] = al.sides[p.side].units[p.unit].off
	what, err := m.placeChange(al, p)
	return render.Concat(where, what), err
}

// fieldPair draws a field of A and the field of B beside it, wa and wb
// cells wide; either may be nil.
func (m *model) fieldPair(pair [2]*detailField, wa, wb int) []string {
	st := &m.st
	var vals [2]render.Safe
	for k, fd := range pair {
		if fd != nil {
			vals[k] = fd.value
		}
	}
	differs := pair[0] == nil || pair[1] == nil || vals[0].String() != vals[1].String()
	lo, hi := differingCells(vals[0], vals[1])
	widths := [2]int{wa, wb}
	var cols [2][]string
	for k, fd := range pair {
		if fd == nil {
			continue
		}
		sp := st.status
		if fd.wrap {
			sp = st.cell(render.ClassPayload, stNormal)
		}
		hot := [2]int{vals[k].Width(), vals[k].Width()}
		if differs {
			hot = [2]int{lo, hi[k]}
		}
		label := render.TextString(fd.label + ": ")
		lw := min(label.Width(), widths[k])
		rows := wrapMarked(vals[k], hot, widths[k]-lw, widths[k], sp, st.differPart)
		rows[0] = st.heading.wrap(label.Slice(0, lw)) + rows[0]
		cols[k] = rows
	}
	mark := render.Spaces(1)
	if differs {
		mark = diffMark
	}
	out := make([]string, max(len(cols[0]), len(cols[1])))
	for i := range out {
		var b strings.Builder
		st.differ.add(&b, mark)
		for k, col := range cols {
			if k == 1 {
				b.WriteString(detailSep.String())
			}
			if i < len(col) {
				b.WriteString(col[i])
			} else {
				b.WriteString(strings.Repeat(" ", widths[k]))
			}
		}
		out[i] = b.String()
	}
	return out
}

// differingCells returns where a and b stop having the same start, in
// cells, and for each where their common end begins: [lo, hi[0]) of a
// and [lo, hi[1]) of b differ.
func differingCells(a, b render.Safe) (lo int, hi [2]int) {
	ra, rb := []rune(a.String()), []rune(b.String())
	p := 0
	for p < len(ra) && p < len(rb) && ra[p] == rb[p] {
		p++
	}
	q := 0
	for q < len(ra)-p && q < len(rb)-p && ra[len(ra)-1-q] == rb[len(rb)-1-q] {
		q++
	}
	lo = render.Width(string(ra[:p]))
	return lo, [2]int{a.Width() - render.Width(string(ra[len(ra)-q:])), b.Width() - render.Width(string(rb[len(rb)-q:]))}
}

// wrapMarked cuts s into a first row of first cells and rows of width
// cells after it, each padded to its width, cells [hot[0], hot[1]) in
// the span hot and the rest in normal.
func wrapMarked(s render.Safe, hot [2]int, first, width int, normal, hotSp span) []string {
	var out []string
	w, pos := s.Width(), 0
	for row := first; ; row = width {
		var b strings.Builder
		n := 0
		for n < row && pos < w {
			end, sp := w, normal
			switch {
			case pos < hot[0]:
				end = hot[0]
			case pos < hot[1]:
				end, sp = hot[1], hotSp
			}
			part := s.Slice(pos, min(end-pos, row-n))
			if part.Width() == 0 {
				break // a wide character that does not fit: the next row
			}
			sp.add(&b, part)
			n += part.Width()
			pos += part.Width()
		}
		b.WriteString(strings.Repeat(" ", row-n))
		out = append(out, b.String())
		if pos >= w || row == width && n == 0 {
			return out
		}
	}
}
