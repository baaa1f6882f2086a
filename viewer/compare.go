package viewer

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// compare is compare mode: side B beside the capture shown (side A), and
// the comparison of their reports. The root model's cursor drives both:
// B's cursor is where the alignment of two captures puts A's cursor (the
// same byte offset, clamped to B's length, for one capture under two
// policies and until the alignment is made), or, after a move to a place
// only B has, that place until A's cursor moves.
type compare struct {
	sv     *streamView // B, with its own index, report and text cache
	opts   sanitize.Options
	name   string
	shared bool // B is A's stream under another policy: one input
	chk    func() error

	// al aligns two captures token by token, once a background command
	// has made it; nil for one capture under two policies, for streams
	// longer than limit bytes, and until it is made.
	al    *alignment
	limit int64
	// pin, when set, holds B's cursor at pinB while A's is at pinA.
	pin        bool
	pinA, pinB int64

	key  diffKey // the reports diff was made from
	diff sanitize.ReportDiff
	rows []diffRow
	sel  int // selected row of the compare report pane
}

// diffKey identifies the state of both reports and of the alignment.
type diffKey struct {
	inA, inB     int64
	doneA, doneB bool
	aligned      bool
}

// diffRow is a row of the compare report pane: a count in both reports,
// the findings summary, or a finding in one report and not the other.
type diffRow struct {
	name    render.Safe
	a, b, d string // the count in A and B, and B−A
	differs bool
	// off is a finding's offset in A and in B (where its counterpart is
	// or would be), or -1 in both.
	off [2]int64
}

// noOff is the offset pair of a row that is not a finding.
var noOff = [2]int64{-1, -1}

// newCompare returns compare mode for o.Compare beside a, the stream
// shown; id numbers B's index messages.
func newCompare(a *streamView, id int, o Options) *compare {
	oc := o.Compare
	c := &compare{opts: oc.Sanitize, name: oc.Name, shared: oc.Capture == nil, chk: oc.Check, limit: maxAlign}
	s := a.s
	if !c.shared {
		s = oc.Capture.Stream(o.Stream)
		if s == nil {
			s = &oc.Capture.Streams[0]
		}
	}
	ob := o
	ob.Sanitize, ob.Check = oc.Sanitize, oc.Check
	c.sv = newStreamView(id, s, ob)
	return c
}

// check returns B's Check function; nil outside compare mode.
func (c *compare) check() func() error {
	if c == nil {
		return nil
	}
	return c.chk
}

// alignCmd returns the command that aligns two captures, A's stream id
// (a) under oa with B, when both are at most limit bytes long; nil when
// there is nothing to align.
func (c *compare) alignCmd(id int, a *streamView, oa sanitize.Options) tea.Cmd {
	if c.shared || a.src.n > c.limit || c.sv.src.n > c.limit {
		return nil
	}
	return alignCmd(id, a, c.sv, oa, c.opts)
}

// aligned returns the alignment of the stream shown with B, or nil.
func (m *model) aligned() *alignment {
	if c := m.cmp; c != nil && c.al != nil && c.al.stream == m.cur {
		return c.al
	}
	return nil
}

// update follows A's cursor, and compares the reports again when either
// has grown since the last time. al is the alignment, or nil.
func (c *compare) update(a *streamView, al *alignment) {
	c.pin = c.pin && a.cursor == c.pinA
	c.sv.cursor = c.cursorB(a.cursor, al)
	ra, doneA := a.idx.report()
	rb, doneB := c.sv.idx.report()
	k := diffKey{ra.BytesIn, rb.BytesIn, doneA, doneB, al != nil}
	if k == c.key && c.rows != nil {
		return
	}
	c.key, c.diff = k, sanitize.Compare(ra, alignFindings(rb, al))
	c.rows = c.rows[:0]
	for _, g := range c.diff.Groups() {
		for _, r := range g.Rows {
			c.rows = append(c.rows, diffRow{
				name: render.Line([]byte(sanitize.RowName(g.Name, r.Name))),
				a:    strconv.FormatInt(r.A, 10), b: strconv.FormatInt(r.B, 10), d: fmt.Sprintf("%+d", r.Delta),
				differs: !r.Equal(), off: noOff,
			})
		}
	}
	f := &c.diff.Findings
	c.rows = append(c.rows, diffRow{
		name:    render.Line(fmt.Appendf(nil, "findings: %d same, %d only A, %d only B, %d changed", f.Same, len(f.OnlyA), len(f.OnlyB), len(f.Changed))),
		differs: !f.Equal(), off: noOff,
	})
	first := len(c.rows)
	for _, p := range f.Aligned() {
		side, x, off := "A+B", p.A, [2]int64{}
		switch {
		case p.B == nil:
			side = "A"
		case p.A == nil:
			side, x = "B", p.B
		}
		off = [2]int64{x.Offset, x.Offset}
		switch {
		case al != nil && p.A == nil: // alignFindings put B's offset, negated, in Offset
			off[1] = -x.Offset - 1
			off[0] = al.mapOff(1, off[1])
		case al != nil:
			off[1] = al.mapOff(0, off[0])
		}
		shown := off[0]
		if p.A == nil {
			shown = off[1]
		}
		c.rows = append(c.rows, diffRow{
			name:    render.Concat(render.Offset(shown), render.Line(fmt.Appendf(nil, " %s %s %s%s", side, x.Kind, x.Sequence, findingChange(p.A, p.B)))),
			differs: true, off: off,
		})
	}
	slices.SortStableFunc(c.rows[first:], func(x, y diffRow) int { return cmpPair(x.off, y.off) })
	c.sel = max(0, min(c.sel, len(c.rows)-1))
}

// cursorB returns B's cursor for A's cursor at a: the pinned place, the
// byte that al puts there, or (without al) the same offset.
func (c *compare) cursorB(a int64, al *alignment) int64 {
	switch {
	case al == nil:
		return max(0, min(a, c.sv.src.n-1))
	case c.pin && a == c.pinA:
		return c.pinB
	}
	return al.mapOff(0, a)
}

// cmpPair orders offset pairs by A's offset, then B's.
func cmpPair(x, y [2]int64) int {
	if x[0] != y[0] {
		return cmp.Compare(x[0], y[0])
	}
	return cmp.Compare(x[1], y[1])
}

// alignFindings returns rb with the offsets of its findings put in A's
// terms through al, so that sanitize.Compare pairs a finding with its
// counterpart however far the bytes before it shifted: a finding of a
// unit B alone has gets -1 − its offset, which matches nothing of A's.
// Without al, rb is returned as it is.
func alignFindings(rb sanitize.Report, al *alignment) sanitize.Report {
	if al == nil {
		return rb
	}
	fs := slices.Clone(rb.Findings)
	for i := range fs {
		u := al.unitAt(1, fs[i].Offset)
		if u < 0 || al.sides[1].state[u] == unitOnly {
			fs[i].Offset = -fs[i].Offset - 1
			continue
		}
		fs[i].Offset = al.otherOff(1, u, fs[i].Offset)
	}
	rb.Findings = fs
	return rb
}

// findingChange says what changed between a finding in A and its
// counterpart in B: their lengths ("193 -> 185 bytes, 8 shorter"), or ""
// when one side has none or they are as long.
func findingChange(a, b *sanitize.Finding) string {
	if a == nil || b == nil || a.Bytes == b.Bytes {
		return ""
	}
	return ": " + lengthChange(a.Bytes, b.Bytes)
}

// lengthChange says how B's length compares with A's, in bytes: "33 ->
// 28 bytes, 5 shorter in B".
func lengthChange(a, b int64) string {
	d, how := b-a, "longer"
	if d < 0 {
		d, how = -d, "shorter"
	}
	if d == 0 {
		return fmt.Sprintf("%d bytes on both sides, other bytes", a)
	}
	return fmt.Sprintf("%d -> %d bytes, %d %s in B", a, b, d, how)
}

// findingAt returns the compare report row of the finding at off, A's
// offset, if there is one.
func (c *compare) findingAt(off int64) (*diffRow, bool) {
	for i := range c.rows {
		if c.rows[i].off[0] == off {
			return &c.rows[i], true
		}
	}
	return nil, false
}

// done reports whether both reports cover their streams.
func (c *compare) done() bool { return c.key.doneA && c.key.doneB }

// findingOffsets returns the offsets of the findings that only one report
// has or that differ, in order.
func (c *compare) findingOffsets() []int64 {
	var out []int64
	for _, r := range c.rows {
		if r.off[0] >= 0 {
			out = append(out, r.off[0])
		}
	}
	return out
}

// compareRows lays out both cleaned-text panes: each side's text around
// its cursor, the cursor's line of both on one row, a third of the way
// down when there is text above it, each line marked when its input
// became different text on the other side.
func (m *model) compareRows() error {
	f, a, b := &m.f, m.sv(), m.cmp.sv
	ca, noteA, err := a.cleanAround(a.cursor, m.o.Sanitize)
	if err != nil {
		return err
	}
	var cb *cleanWin
	var noteB render.Safe
	if b.src.n > 0 {
		if cb, noteB, err = b.cleanAround(b.cursor, m.cmp.opts); err != nil {
			return err
		}
	}
	f.textNote, f.textNoteB = noteA, noteB
	if ca != nil && !ca.exact {
		f.textNote = approxNote
	}
	if cb != nil && !cb.exact {
		f.textNoteB = approxNote
	}
	tok, tokB := f.cursorToken(), f.cursorToken()
	if !m.cmp.shared {
		tokB = nil // A's token is not in B's bytes
	}
	k := m.lay.rows
	third := k / 3
	var upA, downA, upB, downB []textRow
	if ca != nil {
		upA, downA = ca.rowsAround(a.cursor, tok, m.lay.inner[paneText]-gutterWidth, third, k, orNone(cb), !m.cmp.shared)
	}
	if cb != nil {
		upB, downB = cb.rowsAround(b.cursor, tokB, m.lay.inner[paneTextB]-gutterWidth, third, k, orNone(ca), !m.cmp.shared)
	}
	cur := min(third, max(len(upA), len(upB)))
	f.text, f.textB, f.textCur = stack(upA, downA, k, cur), stack(upB, downB, k, cur), cur
	if al := m.aligned(); al != nil {
		f.seq, f.seqB = seqMarks(al, 0, ca, f.text), seqMarks(al, 1, cb, f.textB)
	}
	return nil
}

// seqMarks returns, for each row of side k's text pane, whether its line
// is not marked as differing text but holds a unit of input that differs
// from the other side. A line's input runs from the end of the previous
// line's LF, so sequences before its first character count.
func seqMarks(al *alignment, k int, c *cleanWin, rows []textRow) []bool {
	out := make([]bool, len(rows))
	if c == nil {
		return out
	}
	for i, r := range rows {
		if !r.ok || r.differs {
			continue
		}
		ls := int64(bytes.LastIndexByte(c.text[:r.out], '\n') + 1)
		s, e := c.lineSpan(ls)
		if ls > 0 {
			_, s = c.m.ToInput(ls - 1)
			s += c.a
		}
		out[i] = al.differs(k, s, e)
	}
	return out
}

// orNone returns c, or an empty window when there is none: every line
// compared with it differs.
func orNone(c *cleanWin) *cleanWin {
	if c == nil {
		return &cleanWin{}
	}
	return c
}

// diffPane is compare mode's report table: a row per count of both
// reports and per finding that differs.
type diffPane struct{}

func (diffPane) title(m *model) string {
	if m.cmp.done() {
		return "report A vs B"
	}
	_, ra, _ := m.sv().idx.status()
	_, rb, _ := m.cmp.sv.idx.status()
	return fmt.Sprintf("report A vs B %d%%", percent(ra+rb, m.sv().src.n+m.cmp.sv.src.n))
}

func (diffPane) lines(m *model, width, height int) []string { return m.diffLines(width, height) }

// key moves the selection: a row (↑/↓), a page (PgUp/PgDn), to either
// end (Home/End), or to the next or previous differing row (d/D).
func (diffPane) key(m *model, k tea.KeyMsg) (bool, tea.Cmd) {
	ks, c, page := &m.keys, m.cmp, max(1, m.lay.rows-2)
	switch {
	case key.Matches(k, ks.ReportUp):
		m.selectDiff(c.sel - 1)
	case key.Matches(k, ks.ReportDown):
		m.selectDiff(c.sel + 1)
	case key.Matches(k, ks.PageUp):
		m.selectDiff(c.sel - page)
	case key.Matches(k, ks.PageDown):
		m.selectDiff(c.sel + page)
	case key.Matches(k, ks.Home):
		m.selectDiff(0)
	case key.Matches(k, ks.End):
		m.selectDiff(len(c.rows) - 1)
	case key.Matches(k, ks.NextDiff):
		m.nextDiffRow(1)
	case key.Matches(k, ks.PrevDiff):
		m.nextDiffRow(-1)
	default:
		return false, nil
	}
	return true, nil
}

func (diffPane) click(m *model, row, _ int) {
	if row > 0 { // below the header
		m.selectDiff(m.diffTop() + row - 1)
	}
}

// diffTop returns the first row of the compare report pane shown below
// its header, so that the selected row is on screen.
func (m *model) diffTop() int { return max(0, m.cmp.sel-(m.lay.rows-1)+1) }

// diffLines draws the compare report pane: a header, then a row per count
// (marker, group.name, A, B, B−A) and per differing finding. Differing
// rows are marked with ! in the first column, so they stand out without
// colour too.
func (m *model) diffLines(width, n int) []string {
	c, st := m.cmp, &m.st
	wa, wb, wd := 1, 1, 4
	for _, r := range c.rows {
		wa, wb, wd = max(wa, len(r.a)), max(wb, len(r.b)), max(wd, len(r.d))
	}
	line := func(sp, mark span, mk, name render.Safe, r *diffRow) string {
		var nums render.Safe
		if r.a != "" {
			nums = render.Line(fmt.Appendf(nil, " %*s %*s %*s", wa, r.a, wb, r.b, wd, r.d))
		}
		numW := min(nums.Width(), width-1)
		var sb strings.Builder
		mark.add(&sb, mk)
		sb.WriteString(pad(sp, render.Concat(render.Spaces(1), name), width-1-numW))
		sb.WriteString(pad(sp, nums, numW))
		return sb.String()
	}
	out := []string{line(st.heading, st.heading, render.Spaces(1), render.TextString("count"), &diffRow{a: "A", b: "B", d: "diff"})}
	for i := m.diffTop(); i < len(c.rows) && len(out) < n; i++ {
		r := &c.rows[i]
		sp, mark, mk := st.zero, st.zero, render.Spaces(1)
		if r.differs {
			sp, mark, mk = st.status, st.differ, diffMark
		}
		switch {
		case i == c.sel && m.focus == paneDiff:
			sp = st.selected
		case i == c.sel:
			sp = st.heading
		}
		out = append(out, line(sp, mark, mk, r.name, r))
	}
	return out
}

// diffMark marks a line whose text differs in compare mode, and seqMark
// one whose text is the same but whose bytes differ (a link target, a
// colour): ASCII characters, so they show without colour and in any
// font.
var diffMark, seqMark = render.TextString("!"), render.TextString("~")

// selectDiff selects row i of the compare report pane; a finding row
// moves the cursor to its offset.
func (m *model) selectDiff(i int) {
	c := m.cmp
	c.sel = max(0, min(i, len(c.rows)-1))
	if c.sel < len(c.rows) && c.rows[c.sel].off[0] >= 0 {
		m.jumpPair(c.rows[c.sel].off)
	}
}

// nextDiffRow selects the next differing row of the compare report
// pane in direction dir.
func (m *model) nextDiffRow(dir int) {
	c := m.cmp
	for i := c.sel + dir; i >= 0 && i < len(c.rows); i += dir {
		if c.rows[i].differs {
			m.selectDiff(i)
			return
		}
	}
	m.setMsg(true, "no %s differing row", [2]string{"previous", "next"}[(dir+1)/2])
}

// nextDiff goes to the next place in direction dir where the two sides
// differ: from the alignment of two captures (a place only B has
// included), else found by a job.
func (m *model) nextDiff(dir int) tea.Cmd {
	c := m.cmp
	al := m.aligned()
	if al == nil {
		return m.startJob(newDiffSeek(m.sv(), m.o.Sanitize, c, m.sv().cursor, int64(dir)))
	}
	name := [2]string{"previous difference", "next difference"}[(dir+1)/2]
	// B's cursor as it is now: keys typed together are handled before
	// the frame that would update it.
	p, ok := al.next(m.sv().cursor, c.cursorB(m.sv().cursor, al), dir)
	if !ok {
		m.setMsg(true, "no %s found", name)
		return nil
	}
	m.jumpPair(p.off)
	what, err := m.placeChange(al, p)
	if err != nil {
		m.err = err
		return nil
	}
	m.msg, m.warn = render.Concat(render.Line(fmt.Appendf(nil, "%s at A %s, B %s: ", name, offsetText(p.off[0]), offsetText(p.off[1]))), what), false
	return nil
}

// jumpPair moves A's cursor to off[0] and, for two aligned captures,
// B's to off[1] while A's stays there.
func (m *model) jumpPair(off [2]int64) {
	m.jump(off[0])
	if c := m.cmp; m.aligned() != nil {
		c.pin, c.pinA, c.pinB = true, m.sv().cursor, max(0, min(off[1], c.sv.src.n-1))
	}
}

// jumpB moves B's cursor to off, a byte of B, and A's to where the
// alignment puts it; without an alignment A's cursor goes to off.
func (m *model) jumpB(off int64) {
	if al := m.aligned(); al != nil {
		m.jumpPair([2]int64{al.mapOff(1, off), off})
		return
	}
	m.jump(off)
}

// placeChange says what differs at place p: the finding there, or the
// token or text of each side ("OSC 8 link: 33 -> 28 bytes, 5 shorter in
// B", "CSI 31m -> CSI 32m", "only in B: text, 14 bytes").
func (m *model) placeChange(al *alignment, p diffPlace) (render.Safe, error) {
	if r, ok := m.cmp.findingAt(p.off[0]); ok && p.side == 0 {
		return render.Concat(render.TextString("finding "), r.name), nil
	}
	s := &al.sides[p.side]
	u := s.units[p.unit]
	svs := [2]*streamView{m.sv(), m.cmp.sv}
	t, err := svs[p.side].tokenAt(u.off)
	if err != nil {
		return render.Safe{}, err
	}
	if s.state[p.unit] == unitOnly {
		return render.Line(fmt.Appendf(nil, "only in %c: %s, %d bytes", "AB"[p.side], unitName(&t), u.end-u.off)), nil
	}
	ou := al.sides[1].units[s.other[p.unit]]
	tb, err := m.cmp.sv.tokenAt(ou.off)
	if err != nil {
		return render.Safe{}, err
	}
	na, nb := unitName(&t), unitName(&tb)
	if na != nb && t.Kind != decode.KindText {
		return render.Line(fmt.Appendf(nil, "%s -> %s, %s", na, nb, lengthChange(u.end-u.off, ou.end-ou.off))), nil
	}
	return render.Line(fmt.Appendf(nil, "%s changed: %s", na, lengthChange(u.end-u.off, ou.end-ou.off))), nil
}

// unitName names a unit's token as the report does ("OSC 8 link", "CSI
// 31m"), and text as "text".
func unitName(t *decode.Token) string {
	if t.Kind == decode.KindText {
		return "text"
	}
	return sanitize.Name(t)
}

// diffSide is one side of a difference search.
type diffSide struct {
	sc   *scanner
	opts sanitize.Options
}

// diffSeek finds the next or previous difference of compare mode: the
// start of a cleaned line whose input became different text on the other
// side (as cleanWin.lineDiffers marks it), or a finding only one report
// has. It cleans both sides in pieces that start and end at block
// boundaries where both decoders are in ground.
type diffSeek struct {
	sides [2]diffSide
	finds []int64 // offsets of differing findings, in order
	// content compares lines by text (two captures), each side's piece
	// against the other's piece widened by contentMargin.
	content bool
	n       int64 // A's length: the cursor's range
	from    int64
	dir     int64
	b       int64 // forward: the first block of the next piece; backward: the block after it
	nb      int64
	b0      int64
}

// contentMargin is how far past a piece diffSeek looks on the other side
// for a line, when it compares two captures by content.
const contentMargin = 16 << 10

// diffPiece is how many blocks diffSeek cleans at a time.
const diffPiece = textPiece / checkpointEvery

// newDiffSeek returns a job that finds the first difference after (dir
// +1) or before (dir -1) from.
func newDiffSeek(a *streamView, opts sanitize.Options, c *compare, from, dir int64) *diffSeek {
	j := &diffSeek{
		sides: [2]diffSide{{newScanner(a.idx), opts}, {newScanner(c.sv.idx), c.opts}},
		finds: c.findingOffsets(), n: a.src.n, from: from, dir: dir, nb: int64(a.idx.blocks()), content: !c.shared,
	}
	b := from / checkpointEvery
	if dir > 0 {
		j.b = j.groundBefore(b)
	} else {
		j.b = j.groundAfter(b + 1)
	}
	j.b0 = j.b
	return j
}

func (j *diffSeek) name() string {
	if j.dir < 0 {
		return "previous difference"
	}
	return "next difference"
}

func (j *diffSeek) progress() float64 {
	if j.dir > 0 {
		return float64(j.b-j.b0) / float64(max(1, j.nb-j.b0))
	}
	return float64(j.b0-j.b) / float64(max(1, j.b0))
}

// ground reports whether block b starts in ground on both sides (past a
// side's end counts as ground); an error counts as not.
func (j *diffSeek) ground(b int64) (bool, error) {
	for _, s := range j.sides {
		if b*checkpointEvery >= s.sc.x.src.n {
			continue
		}
		d, err := s.sc.at(b)
		if err != nil || !d.InGround() {
			return false, err
		}
	}
	return true, nil
}

// groundBefore returns the last block at or before b that starts in
// ground on both sides, looking back maxGroundBack blocks; b if none does.
func (j *diffSeek) groundBefore(b int64) int64 {
	for k := b; k >= max(0, b-maxGroundBack); k-- {
		if ok, _ := j.ground(k); ok {
			return k
		}
	}
	return b
}

// groundAfter returns the first block at or after b that starts in
// ground on both sides, looking ahead maxGroundBack blocks, or the end.
func (j *diffSeek) groundAfter(b int64) int64 {
	for k := b; k < min(j.nb, b+maxGroundBack); k++ {
		if ok, _ := j.ground(k); ok {
			return k
		}
	}
	return min(j.nb, b+maxGroundBack)
}

func (j *diffSeek) step() (done, found bool, off int64, err error) {
	deadline := time.Now().Add(stepBudget)
	for !time.Now().After(deadline) {
		var lo, hi int64
		if j.dir > 0 {
			if j.b >= j.nb {
				return true, false, 0, nil
			}
			lo, hi = j.b, j.groundAfter(j.b+diffPiece)
		} else {
			if j.b <= 0 {
				return true, false, 0, nil
			}
			lo, hi = j.groundBefore(max(0, j.b-diffPiece)), j.b
		}
		places, err := j.places(lo*checkpointEvery, min(j.n, hi*checkpointEvery))
		if err != nil {
			return true, false, 0, err
		}
		best := int64(-1)
		for _, p := range places {
			if j.dir > 0 && p > j.from && (best < 0 || p < best) || j.dir < 0 && p < j.from && p > best {
				best = p
			}
		}
		if best >= 0 {
			return true, true, best, nil
		}
		if j.dir > 0 {
			j.b = hi
		} else {
			j.b = lo
		}
	}
	return false, false, 0, nil
}

// places returns the differences that start in A's input [lo, hi): the
// starts of differing lines of either side, and differing findings.
func (j *diffSeek) places(lo, hi int64) ([]int64, error) {
	var wins, wide [2]*cleanWin
	for i, s := range j.sides {
		src := s.sc.x.src
		clean := func(lo, hi int64) (*cleanWin, error) {
			l, h := max(0, min(lo, src.n)), min(hi, src.n)
			in, err := src.read(l, h-l)
			if err != nil {
				return nil, err
			}
			return newCleanWin(l, in, s.opts, true), nil
		}
		var err error
		if wins[i], err = clean(lo, hi); err != nil {
			return nil, err
		}
		wide[i] = wins[i]
		if j.content {
			if wide[i], err = clean(lo-contentMargin, hi+contentMargin); err != nil {
				return nil, err
			}
		}
	}
	var out []int64
	for i, c := range wins {
		if i == 1 && j.content {
			break // B's offsets are not A's: its lines are marked in its pane only
		}
		for ls := int64(0); ls < int64(len(c.text)); ls = lineEnd(c.text, ls) + 1 {
			if c.lineDiffers(ls, wide[1-i], j.content) {
				if s, _ := c.lineSpan(ls); s >= lo && s < hi {
					out = append(out, s)
				}
			}
		}
	}
	i, _ := slices.BinarySearch(j.finds, lo)
	for ; i < len(j.finds) && j.finds[i] < hi; i++ {
		out = append(out, j.finds[i])
	}
	return out, nil
}
