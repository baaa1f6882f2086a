package screen

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// Cause says how text came to be hidden.
type Cause uint8

// Causes of a finding. The first five destroy text that was drawn; the
// last four draw text that a person does not read as its bytes.
const (
	causeNone Cause = iota
	// CauseOverwritten: other text was drawn over it.
	CauseOverwritten
	// CauseErased: an erase (ED, EL, ECH, DCH, DL, RIS) blanked it.
	CauseErased
	// CauseAltScreen: it was on the alternate screen when the program
	// switched back to the main screen.
	CauseAltScreen
	// CauseScrolled: it scrolled out of a scroll region, off the
	// alternate screen, or off the bottom (SD, IL), where no scrollback
	// keeps it.
	CauseScrolled
	// CauseClipped: it was written at the right margin with autowrap off
	// and the next character replaced it, or insertion pushed it past the
	// margin.
	CauseClipped
	// CauseConcealed: drawn with SGR 8 (conceal).
	CauseConcealed
	// CauseInvisible: drawn with a foreground equal or nearly equal to the
	// background, reverse video taken into account.
	CauseInvisible
	// CauseRemapped: letters drawn through DEC special graphics, shown as
	// line-drawing symbols.
	CauseRemapped
	// CauseRepeated: drawn by REP, so the screen shows more copies than
	// the text holds.
	CauseRepeated

	numCauses
)

// Internal aliases keep the executor short.
const (
	causeOverwritten = CauseOverwritten
	causeErased      = CauseErased
	causeScrolled    = CauseScrolled
	causeClipped     = CauseClipped
)

type cause = Cause

var causeNames = [numCauses]string{"", "overwritten", "erased", "alt-screen", "scrolled", "clipped", "concealed", "invisible", "remapped", "repeated"}

// String returns the cause's name as reports spell it ("overwritten",
// "alt-screen").
func (c Cause) String() string {
	if c < numCauses {
		return causeNames[c]
	}
	return "cause?"
}

// Causes returns every cause in report order.
func Causes() []Cause {
	out := make([]Cause, 0, numCauses-1)
	for c := CauseOverwritten; c < numCauses; c++ {
		out = append(out, c)
	}
	return out
}

// move is the last cursor movement before text was destroyed.
type move uint8

const (
	moveNone move = iota
	moveCR
	moveLF
	moveBS
	moveHT
	moveCUU
	moveCUD
	moveCUF
	moveCUB
	moveCHA
	moveCUP
	moveRI
	moveDECRC
)

var moveNames = [...]string{"", "CR", "LF", "BS", "HT", "CUU", "CUD", "CUF", "CUB", "CHA", "CUP", "RI", "DECRC"}

// Bounds of what a finding keeps of its text.
const (
	// MaxText is the most bytes of hidden text a finding keeps; the full
	// text is the capture's bytes at Finding.Off, Finding.Len.
	MaxText = 128
	// MaxReplaced is the most bytes kept of what replaced it.
	MaxReplaced = 48
	// Deception is the rank from which a finding is reported as a likely
	// deception: every crafted deception of the test corpus reaches it and
	// no finding of the real recordings does.
	Deception = 50
	// MaxFindings is the most findings a Model keeps: past it, those of
	// lowest rank are dropped and counted (Model.Omitted), so that memory
	// is bounded whatever the input.
	MaxFindings = 4096
)

// record is a finding while it is built.
type record struct {
	off, end    int64
	visOff      int64 // offset of the destroying token
	cause       Cause
	via         move
	alt         bool
	replCut     bool // repl is cut short at MaxReplaced
	row, col    int32
	cells       int64 // a REP's cells are not bounded by the input's bytes
	drawFrame   int32
	frame       int32
	byOff       int64
	byLen       int64
	byName      int32 // index into Model.names: records hold no pointer, so the collector skips them
	textAt      int   // where the text starts in its arena, Model.delText or Model.drawText
	ntext       uint8
	nrepl       uint8
	cut         bool
	rowProgress bool // the row held progress syntax when the text was hidden
	// based says base holds the record's rank before the per-row count
	// and the clamp to 0..100; growing the record clears it.
	based bool
	base  int16
	repl  [MaxReplaced]byte
}

// addText appends c to the text of r, the newest record of its kind, kept
// in its arena at r.textAt.
func (m *Model) addText(r *record, c rune) {
	n := 1
	if c >= utf8.RuneSelf || c < 0 {
		n = utf8.RuneLen(c)
	}
	if int(r.ntext)+n > MaxText {
		r.cut = true
		return
	}
	r.based = false
	a := m.arena(r)
	if n == 1 {
		*a = append(*a, byte(c))
		r.ntext++
		return
	}
	k := len(*a)
	*a = utf8.AppendRune(*a, c)
	r.ntext += uint8(len(*a) - k)
}

// addMarks appends the combining marks c keeps on its character to the
// text of r, which took the character.
func (m *Model) addMarks(r *record, c *Cell) {
	for _, k := range c.Marks {
		if k == 0 {
			return
		}
		m.addText(r, k)
	}
}

func (r *record) addRepl(c rune) {
	r.based = false
	if c == 0 {
		c = ' '
	}
	if int(r.nrepl)+utf8.RuneLen(c) > MaxReplaced {
		r.replCut = true
		return
	}
	r.nrepl = uint8(len(utf8.AppendRune(r.repl[:r.nrepl], c)))
}

// holdsText reports whether c holds text a finding can take: a
// character of the stream, not yet reported, not drawn by REP or DECALN.
func (c *Cell) holdsText() bool {
	return c.Rune != 0 && c.Off >= 0 && c.flags&(cellReported|cellRepeated|cellFill) == 0
}

// destroy records that the text of c is about to be lost by cause, with r
// drawn in its place (0 when nothing is). It reports whether a finding
// took it.
func (m *Model) destroy(c *Cell, cause Cause, r rune) bool {
	if !m.opts.Findings || !c.holdsText() {
		return false
	}
	// A space, or a character drawn over by itself, is not hidden text; it
	// only continues a finding, so that "rm -rf /" stays one finding.
	weak := c.Rune == ' ' || (cause == causeOverwritten || cause == causeClipped) && r == c.Rune
	if i := m.pendDel; i >= 0 {
		p := &m.finds[i]
		if p.cause == cause && p.end == c.Off && p.alt == m.alt {
			p.end += int64(c.Len)
			p.cells++
			m.addText(p, c.Rune)
			m.addMarks(p, c)
			if r != 0 {
				p.addRepl(r)
			}
			return true
		}
	}
	if weak {
		return false
	}
	m.pendDel = m.newRecord(c, cause, c.Rune)
	m.addMarks(&m.finds[m.pendDel], c)
	if r != 0 {
		m.finds[m.pendDel].addRepl(r)
	}
	rec := &m.finds[m.pendDel]
	if m.nameTok != rec.byOff || m.nameRow != rec.row || m.tok.Kind == decode.KindText {
		// One sequence hiding several runs on one row: the row is read
		// once. A text run is not, since Feed may cut it in two.
		m.rowProgress = false
		if row := m.line(m.cur.y); mayProgress(row) {
			m.lineBuf = appendCells(m.lineBuf[:0], row, 0, false, true, nil)
			m.rowProgress = progress(m.lineBuf)
		}
		m.nameRow = rec.row
	}
	rec.rowProgress = m.rowProgress
	return true
}

// newRecord starts a finding at cell c and returns its index.
func (m *Model) newRecord(c *Cell, cause Cause, text rune) int {
	t := m.tok
	rec := record{
		off: c.Off, end: c.Off + int64(c.Len), cause: cause, via: m.via, alt: m.alt,
		row: int32(m.cur.y), col: int32(m.cur.x), cells: 1, drawFrame: c.Frame, frame: m.frame, byName: -1,
	}
	if t != nil {
		rec.visOff, rec.byOff, rec.byLen = t.Off, t.Off, t.Len
		if t.Off != m.nameTok || cause != m.nameCause {
			m.names = append(m.names, tokenName(t, cause))
			m.nameTok, m.nameCause, m.nameRow = t.Off, cause, -1
		}
		rec.byName = int32(len(m.names) - 1)
	}
	if cause >= CauseConcealed {
		rec.visOff = c.Off
	}
	if len(m.finds) >= 2*MaxFindings {
		m.compact()
		if rec.byName >= 0 {
			rec.byName = int32(len(m.names) - 1) // compact keeps the current name last
		}
	}
	if n := len(m.finds); n == cap(m.finds) {
		// Doubling up to the most compact keeps: append's growth by a
		// quarter would copy the records five times over.
		m.finds = slices.Grow(m.finds, max(1, min(max(64, n), 2*MaxFindings-n)))
	}
	m.finds = append(m.finds, rec)
	i := len(m.finds) - 1
	m.startText(&m.finds[i])
	m.addText(&m.finds[i], text)
	return i
}

// The text of destruction records and that of draw-time records grow in
// two arenas, so that each record's text is contiguous: only the newest
// record of each kind grows.

// arena returns the arena of r's text.
func (m *Model) arena(r *record) *[]byte {
	if r.cause >= CauseConcealed {
		return &m.drawText
	}
	return &m.delText
}

// startText points r at the end of its arena.
func (m *Model) startText(r *record) { r.textAt = len(*m.arena(r)) }

// textOf returns the text of r.
func (m *Model) textOf(r *record) []byte { return (*m.arena(r))[r.textAt : r.textAt+int(r.ntext)] }

// replaced notes that r was drawn where finding i's erased text was.
func (m *Model) replaced(i int, r rune) {
	if i < len(m.finds) {
		m.finds[i].addRepl(r)
	}
}

// drawn records text drawn in a misleading way: concealed, invisible,
// DEC graphics letters, REP. A character continues the newest draw-time
// record of its cause when it is drawn by the bytes after the record's,
// or by the REP the record ends with: a REP's cells share its span, so
// a run hidden one way by one REP, or by text and the REPs after it, is
// one finding of as many cells.
func (m *Model) drawn(c *Cell, off int64, n uint32) {
	if c.Rune == ' ' {
		if i := m.pendDrw; i >= 0 && m.finds[i].end == off {
			m.finds[i].end += int64(n)
			m.finds[i].cells++
			m.addText(&m.finds[i], ' ')
		}
		return
	}
	cause, text := drawCause(c)
	if cause == causeNone {
		return
	}
	if i := m.pendDrw; i >= 0 {
		p := &m.finds[i]
		if p.cause == cause && p.alt == m.alt && (p.end == off || c.flags&cellRepeated != 0 && p.end == off+int64(n)) {
			p.end, p.based = off+int64(n), false
			p.cells++
			if cause != CauseRepeated {
				m.addText(p, text)
			}
			return
		}
	}
	m.pendDrw = m.newRecord(c, cause, text)
}

// drawCause returns how the character of c, not a space, misleads and
// the text a finding of it holds (the letter, for remapped); causeNone
// when it does not.
func drawCause(c *Cell) (Cause, rune) {
	switch {
	case c.Pen.Attr&AttrConceal != 0:
		return CauseConcealed, c.Rune
	case invisible(c.Pen):
		return CauseInvisible, c.Rune
	case c.flags&cellRepeated != 0:
		return CauseRepeated, c.Rune
	case c.flags&cellRemapped != 0:
		if src := rune(0x5F + slices.Index(decGraphics[:], c.Rune)); src >= 'a' && src <= 'z' {
			return CauseRemapped, src
		}
	}
	return causeNone, 0
}

// leaveAlt records the text of the alternate screen as it is left: the
// cells each row keeps (its fill cells hold no text a finding takes).
func (m *Model) leaveAlt() {
	g := &m.grids[1]
	for y := range m.rows {
		if g.isBlank(g.rows[y]) {
			continue
		}
		row := g.kept(y, m.cols)
		if slowPath {
			row = g.line(y, m.cols)
		}
		for i := range row {
			if row[i].Rune != 0 && m.destroy(&row[i], CauseAltScreen, 0) {
				row[i].flags |= cellReported
			}
		}
	}
}

// invisible reports whether text drawn with p has a foreground equal or
// nearly equal to its background. Default colours are unknown and count
// as distinct.
func invisible(p Pen) bool {
	fg, bg := p.Fg, p.Bg
	if p.Attr&AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if fg == 0 || bg == 0 {
		return false
	}
	if fg == bg {
		return true
	}
	a, b := rgbOf(fg), rgbOf(bg)
	d := 0
	for s := 0; s < 24; s += 8 {
		d = max(d, abs(int(a>>s&0xFF)-int(b>>s&0xFF)))
	}
	return d <= 24
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// xterm16 are xterm's default RGB values of palette entries 0–15.
var xterm16 = [16]uint32{
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
}

// rgbOf returns the RGB value of a non-default colour, after xterm's
// 256-colour palette.
func rgbOf(c Color) uint32 {
	if c&Direct != 0 {
		return uint32(c & 0xFFFFFF)
	}
	i := int(c) - 1
	switch {
	case i < 16:
		return xterm16[i]
	case i < 232:
		i -= 16
		lv := func(v int) uint32 {
			if v == 0 {
				return 0
			}
			return uint32(55 + 40*v)
		}
		return lv(i/36)<<16 | lv(i/6%6)<<8 | lv(i%6)
	}
	g := uint32(8 + 10*(i-232))
	return g<<16 | g<<8 | g
}

// tokenName names the token that destroyed or drew text, as
// "EL 2" or "DECRST 1049"; text tokens are "text", or "LF" for a scroll.
func tokenName(t *decode.Token, c Cause) string {
	switch t.Kind {
	case decode.KindText:
		if c == CauseScrolled || c == CauseErased {
			return "LF"
		}
		return "text"
	case decode.KindInvalid:
		return "text"
	case decode.KindC0:
		return "C0 " + strconv.Itoa(int(t.Final))
	case decode.KindC1, decode.KindESC:
		if n := escNames[t.Final&0x7F]; n != "" {
			return n
		}
		return "ESC " + string(rune(t.Final))
	case decode.KindNF:
		return "ESC " + string(t.Intermediates()) + string(rune(t.Final))
	case decode.KindCSI:
		name := csiNames[t.Final&0x7F]
		switch {
		case t.Private == '?' && t.Final == 'h':
			name = "DECSET"
		case t.Private == '?' && t.Final == 'l':
			name = "DECRST"
		}
		if name == "" {
			name = "CSI " + string(rune(t.Final))
		}
		for i, p := range t.Params() {
			if i == 4 {
				break
			}
			name += " " + strconv.Itoa(int(p))
		}
		return name
	}
	return t.Kind.String()
}

var escNames = [0x80]string{'D': "IND", 'E': "NEL", 'M': "RI", 'c': "RIS", 0x04: "IND", 0x05: "NEL", 0x0D: "RI"}

var csiNames = [0x80]string{
	'@': "ICH", 'A': "CUU", 'B': "CUD", 'C': "CUF", 'D': "CUB", 'E': "CNL", 'F': "CPL", 'G': "CHA", 'H': "CUP",
	'J': "ED", 'K': "EL", 'L': "IL", 'M': "DL", 'P': "DCH", 'S': "SU", 'T': "SD", 'X': "ECH", 'b': "REP", 'f': "HVP",
}

// Ref is a token of the stream: its byte span and its name.
type Ref struct {
	Off  int64  `json:"offset"`
	Len  int64  `json:"length"`
	Name string `json:"name"`
}

// Finding is a run of hidden text: consecutive bytes of the stream whose
// characters were hidden the same way. The characters of a REP share its
// bytes: a run drawn hidden by a REP, or by text and the REPs right after
// it, is one finding whose Cells count them all. Text, ReplacedBy and the bytes at
// Off come from the capture: escape them before display.
type Finding struct {
	// Off and Len are the byte span of the hidden text. Spans of
	// destruction findings never overlap one another, nor do those of
	// draw-time findings (concealed, invisible, remapped, repeated).
	Off int64 `json:"offset"`
	Len int64 `json:"length"`
	// Cause says how it was hidden.
	Cause Cause `json:"-"`
	// By is the token that hid it (for draw-time causes, the one that
	// drew it); Via the cursor movement that led there ("CR", "BS",
	// "CUU", …), empty when none.
	By  Ref    `json:"by"`
	Via string `json:"via,omitempty"`
	// Text is the hidden text as the screen showed it (the letters, for
	// remapped), at most MaxText bytes; TextCut says it is cut short.
	Text    string `json:"-"`
	TextCut bool   `json:"-"`
	// ReplacedBy is what was drawn in its place, at most MaxReplaced
	// bytes; empty when nothing was.
	ReplacedBy string `json:"-"`
	// Alternate says it was on the alternate screen; Row and Col are the
	// cursor position (0-based) when it was hidden; Cells how many cells
	// it took.
	Alternate bool `json:"alternate,omitempty"`
	Row       int  `json:"row"`
	Col       int  `json:"col"`
	Cells     int  `json:"cells"`
	// VisibleBytes is how many bytes of the stream lie between drawing it
	// and hiding it (0 for draw-time causes). VisibleMs is the time in
	// milliseconds, -1 when the capture has no timing. Shown is "never"
	// when it was drawn and hidden within one frame of a timed capture,
	// "unknown" without timing, else "yes".
	VisibleBytes int64  `json:"visible_bytes"`
	VisibleMs    int64  `json:"visible_ms"`
	Shown        string `json:"shown"`
	// Rank orders findings from likely deception (high, Deception and
	// above) to ordinary redrawing (low); Reasons says why, in words.
	Rank    int      `json:"rank"`
	Reasons []string `json:"reasons"`
}

// Findings returns the findings so far, highest rank first, then by
// offset: all of them up to MaxFindings, past it the MaxFindings of
// highest rank (Omitted counts the others). It needs Options.Findings;
// the slice is the caller's.
func (m *Model) Findings() []Finding {
	tmp, order := m.ranked()
	out := make([]Finding, min(len(order), MaxFindings))
	for j := range out {
		out[j] = tmp[order[j]]
	}
	return out
}

// Omitted returns how many findings the model dropped to stay within
// MaxFindings; Counts still counts them.
func (m *Model) Omitted() int {
	n := max(0, len(m.finds)-MaxFindings)
	for _, c := range m.omitted {
		n += c
	}
	return n
}

// compact keeps the MaxFindings records of highest rank, in stream order,
// with their texts, and counts the others by cause in m.omitted, so that
// memory does not grow with the input whatever it holds. Findings still
// growing are closed and erased cells forget their finding, since indices
// change. Compacting at every MaxFindings new records, with each record's
// rank worked out once (record.base), keeps the cost per finding
// constant.
func (m *Model) compact() {
	keep := m.best(MaxFindings)
	j := 0
	for i := range m.finds {
		if j < len(keep) && keep[j] == int32(i) {
			j++
		} else {
			m.omitted[m.finds[i].cause]++
		}
	}
	// The arenas the last compaction left take the kept texts; the
	// current ones are kept for the next.
	del, drw := m.spare.del[:0], m.spare.drw[:0]
	for j, i := range keep {
		r := m.finds[i]
		t := m.textOf(&r)
		a := &del
		if r.cause >= CauseConcealed {
			a = &drw
		}
		r.textAt = len(*a)
		*a = append(*a, t...)
		m.finds[j] = r
	}
	m.spare.del, m.spare.drw = m.delText, m.drawText
	m.finds, m.delText, m.drawText = m.finds[:len(keep)], del, drw
	m.pendDel, m.pendDrw = -1, -1
	m.compactNames()
	for g := range m.grids {
		for i := range m.grids[g].cells {
			m.grids[g].cells[i].hole = 0
		}
	}
}

// compactNames keeps the token names the records still use, and the
// current one (the last), so that they do not grow with the input.
// Records name tokens in the order names were added, so one pass renumbers
// them.
func (m *Model) compactNames() {
	var names []string
	last := int32(-1)
	for j := range m.finds {
		r := &m.finds[j]
		if r.byName < 0 {
			continue
		}
		if r.byName != last {
			last = r.byName
			names = append(names, m.names[last])
		}
		r.byName = int32(len(names) - 1)
	}
	if n := int32(len(m.names)) - 1; n >= 0 && last != n {
		names = append(names, m.names[n])
	}
	m.names = names
}

// best returns the indices, in record order, of the n records of highest
// rank, of equal ranks the first recorded. Ranks are whole numbers
// 0..100, so it counts them rather than sorting.
func (m *Model) best(n int) []int32 {
	m.spare.hits = m.rowHits(m.spare.hits)
	hits := m.spare.hits
	scores := slices.Grow(m.spare.scores[:0], len(m.finds))[:len(m.finds)]
	m.spare.scores = scores
	var count [101]int
	for i := range m.finds {
		r := &m.finds[i]
		if !r.based {
			in := m.rankInput(r)
			b, _ := rank(&in, 0, nil)
			r.base, r.based = int16(b), true
		}
		s := int(r.base)
		if r.cause < CauseConcealed {
			s += rowPenalty(int(hits[boolInt(r.alt)][r.row]))
		}
		s = max(0, min(100, s))
		scores[i] = int8(s)
		count[s]++
	}
	cut, above := 100, 0 // records ranked above cut, and how many
	for cut >= 0 && above+count[cut] <= n {
		above += count[cut]
		cut--
	}
	keep, ties := m.spare.keep[:0], n-above
	for i, s := range scores {
		if int(s) > cut || int(s) == cut && ties > 0 {
			if int(s) == cut {
				ties--
			}
			keep = append(keep, int32(i))
		}
	}
	m.spare.keep = keep
	return keep
}

// rowHits returns the number of destruction records on each row of each
// screen (0 main, 1 alternate), for the rank's count of redrawn rows, in
// buf's arrays when they are large enough.
func (m *Model) rowHits(buf [2][]int32) [2][]int32 {
	var rows [2]int32
	for i := range m.finds {
		r := &m.finds[i]
		rows[boolInt(r.alt)] = max(rows[boolInt(r.alt)], r.row+1)
	}
	hits := buf
	for s := range hits {
		hits[s] = slices.Grow(hits[s][:0], int(rows[s]))[:rows[s]]
		clear(hits[s])
	}
	for i := range m.finds {
		if r := &m.finds[i]; r.cause < CauseConcealed {
			hits[boolInt(r.alt)][r.row]++
		}
	}
	return hits
}

// rankInput returns what rank reads of r.
func (m *Model) rankInput(r *record) rankIn {
	in := rankIn{cause: r.cause, text: m.textOf(r), repl: r.repl[:r.nrepl], via: r.via, ms: -1,
		bytes: max(0, r.visOff-r.off), rowProgress: r.rowProgress, cut: r.cut || r.replCut}
	switch {
	case r.cause >= CauseConcealed:
		in.bytes = 0
	case m.opts.Timed:
		in.ms = max(0, m.times[r.frame]-m.times[r.drawFrame]).Milliseconds()
		in.never = r.frame == r.drawFrame
	}
	return in
}

// ranked returns a finding for each record, by record index, and the
// record indices highest rank first, then by offset and cause.
//
// The work of a finding that the stream does not need is done here, once:
// texts are copied into one string, reasons share one array, and an index
// is sorted rather than the findings.
func (m *Model) ranked() ([]Finding, []int32) {
	hits := m.rowHits([2][]int32{})
	total := 0
	for i := range m.finds {
		total += int(m.finds[i].ntext) + int(m.finds[i].nrepl)
	}
	var text strings.Builder
	text.Grow(total)
	for i := range m.finds {
		r := &m.finds[i]
		text.Write(m.textOf(r))
		text.Write(r.repl[:r.nrepl])
	}
	all := text.String()
	why := make([]string, 0, reasonsCap*len(m.finds))
	tmp := make([]Finding, len(m.finds))
	at := 0
	for i := range m.finds {
		r := &m.finds[i]
		f := &tmp[i]
		t, repl := all[at:at+int(r.ntext)], all[at+int(r.ntext):at+int(r.ntext)+int(r.nrepl)]
		at += int(r.ntext) + int(r.nrepl)
		in := m.rankInput(r)
		*f = Finding{
			Off: r.off, Len: r.end - r.off, Cause: r.cause,
			By: Ref{r.byOff, r.byLen, m.nameOf(r)}, Via: moveNames[r.via],
			Text: t, TextCut: r.cut, ReplacedBy: repl,
			Alternate: r.alt, Row: int(r.row), Col: int(r.col), Cells: int(r.cells),
			VisibleBytes: in.bytes, VisibleMs: in.ms, Shown: "unknown",
		}
		rowHits := 0
		if r.cause < CauseConcealed {
			rowHits = int(hits[boolInt(r.alt)][r.row])
			if m.opts.Timed {
				f.Shown = "yes"
				if in.never {
					f.Shown = "never"
				}
			}
		}
		score, reasons := rank(&in, rowHits, why[reasonsCap*i:reasonsCap*i:reasonsCap*(i+1)])
		f.Rank, f.Reasons = max(0, min(100, score)), reasons
	}
	order := make([]int32, len(tmp))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &tmp[i], &tmp[j]
		switch {
		case a.Rank != b.Rank:
			return b.Rank - a.Rank
		case a.Off != b.Off:
			return cmp.Compare(a.Off, b.Off)
		}
		return int(a.Cause) - int(b.Cause)
	})
	return tmp, order
}

// nameOf returns the name of the token that made r, "" when none did.
func (m *Model) nameOf(r *record) string {
	if r.byName < 0 {
		return ""
	}
	return m.names[r.byName]
}

// reasonsCap is the room for reasons each finding gets in the shared
// array; a finding with more grows its own.
const reasonsCap = 8

// Counts returns the number of findings of each cause so far, those
// Omitted included.
func (m *Model) Counts() [numCauses]int {
	n := m.omitted
	for i := range m.finds {
		n[m.finds[i].cause]++
	}
	return n
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// causeBase is each cause's starting rank.
var causeBase = [numCauses]int{
	CauseOverwritten: 30, CauseErased: 30, CauseAltScreen: 20, CauseScrolled: 20, CauseClipped: 50,
	CauseConcealed: 60, CauseInvisible: 60, CauseRemapped: 20, CauseRepeated: 10,
}

// rankIn is what rank reads of a finding: its cause, its text and what
// replaced it, the move that led there, how long it was visible (ms -1
// without timing; never: drawn and hidden within one frame) and whether
// its row held progress syntax; cut says the text or its replacement is
// cut short.
type rankIn struct {
	cause       Cause
	text, repl  []byte
	via         move
	never       bool
	ms, bytes   int64
	rowProgress bool
	cut         bool
}

// wordBonus is the most rank the word checks of rank add.
const wordBonus = 60

// rank scores a finding, 0 to 100 once clamped; rowHits is the number of
// destruction findings on the same screen row. The reasons are appended
// to why, unless why is nil; then, when the score cannot end above 0, rank
// may stop early and return a score that is not exact but is 0 or below.
func rank(f *rankIn, rowHits int, why []string) (int, []string) {
	score := causeBase[f.cause]
	add := func(d int, reason string) {
		score += d
		if why != nil {
			why = append(why, reason)
		}
	}
	add(0, f.cause.String())
	text, repl := bytes.TrimSpace(f.text), bytes.TrimSpace(f.repl)
	letters := alnum(text, 1)
	// What the hidden text shares with its replacement stayed on screen:
	// its words are judged on the part that differs.
	differs, replDiffers := text, repl
	if destroyed := f.cause < CauseConcealed; destroyed && len(repl) > 0 {
		differs, replDiffers = differing(text, repl, f.cut)
	}
	brief := f.never || f.ms >= 0 && f.ms < 100 || f.ms < 0 && f.bytes < 256
	long := f.ms >= 1000 || f.ms < 0 && f.bytes >= 4096
	destroyed := f.cause < CauseConcealed
	switch {
	case letters == 0:
		add(-100, "no letters or digits")
	case destroyed && len(repl) > 0 && bytes.HasPrefix(repl, text):
		add(-100, "the same text came back")
	}
	if destroyed {
		if f.never && f.cause != CauseAltScreen && f.cause != CauseScrolled {
			add(20, "never on screen")
		}
		if long {
			add(-20, "visible a long time")
		}
		if !f.rowProgress && progress(text) {
			add(-30, "progress syntax")
		}
		switch {
		case f.cause != CauseOverwritten && f.cause != CauseErased, len(repl) == 0:
		case similar(text, repl, differs, replDiffers):
			add(-30, "replaced by similar text")
		case brief:
			add(20, "soon replaced by unrelated text")
		}
		if f.via == moveBS {
			add(20, "hidden by backspace")
		}
		if brief && (f.cause == CauseAltScreen || f.cause == CauseScrolled) && !long {
			add(30, "shown only for an instant")
		}
		if rowHits >= 2 {
			add(rowPenalty(rowHits), redrawn[min(rowHits, 4)])
		}
		if f.rowProgress {
			add(-30, "on a progress line")
		}
	}
	if f.cause == CauseRemapped && wordLike(text) {
		add(40, "letters that spell words")
	}
	if why == nil && score+wordBonus <= 0 {
		// The score will be clamped to 0 whatever the words say, and
		// the rest only lowers it: stop before reading them.
		return score, nil
	}
	if n := alnum(differs, 3); n > 0 && n < 3 && f.cause != CauseConcealed && f.cause != CauseInvisible {
		add(-20, "one or two characters")
	}
	if shellSet.in(differs, false) {
		add(30, "shell-command shape")
	}
	if instructionSet.in(differs, true) {
		add(30, "instruction-like words")
	}
	return score, why
}

// rowPenalty is the rank lost by a destruction finding on a row that
// rowHits destruction findings share: a redrawn row.
func rowPenalty(rowHits int) int {
	if rowHits < 2 {
		return 0
	}
	return -10 * (min(rowHits, 4) - 1)
}

// redrawn words how often a row was redrawn, by count (4 for more).
var redrawn = [5]string{2: "row redrawn 2 times", 3: "row redrawn 3 times", 4: "row redrawn 4 times or more"}

// alnum returns the number of letters and digits of s, counting no
// further than limit.
func alnum(s []byte, limit int) int {
	n := 0
	for i := 0; i < len(s) && n < limit; i++ {
		if b := s[i]; b < utf8.RuneSelf {
			n += int(asciiAlnum[b])
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
		i += size - 1
	}
	return n
}

// asciiAlnum is 1 for the ASCII letters and digits.
var asciiAlnum = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		if unicode.IsLetter(rune(b)) || unicode.IsDigit(rune(b)) {
			t[b] = 1
		}
	}
	return t
}()

// differing returns the parts of the hidden text and of its replacement
// that differ: without the whole words they start with in common (Differs)
// and, unless cut (one of them is cut short, so its end is not the real
// end), the whole words they end with. An ls -l row redrawn with another
// file name differs only in the name.
func differing(text, repl []byte, cut bool) ([]byte, []byte) {
	p := Differs(text, repl)
	text, repl = text[p:], repl[p:]
	if cut {
		return text, repl
	}
	s := 0
	for s < len(text) && s < len(repl) && text[len(text)-1-s] == repl[len(repl)-1-s] {
		s++
	}
	for s > 0 && text[len(text)-s] != ' ' && !(wordEnd(text, len(text)-s-1) && wordEnd(repl, len(repl)-s-1)) {
		s--
	}
	return text[:len(text)-s], repl[:len(repl)-s]
}

// Differs returns where a and b start to differ, in bytes, at the start of
// a word: the length of the longest common prefix made of whole words,
// words being separated by spaces. It is 0 when they share no whole word,
// and a character boundary of UTF-8 text.
func Differs[T string | []byte](a, b T) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && a[p-1] != ' ' && !(wordEnd(a, p) && wordEnd(b, p)) {
		p--
	}
	return p
}

// wordEnd reports whether a word of s ends before byte i: i is past the
// end of s, or a space.
func wordEnd[T string | []byte](s T, i int) bool { return i < 0 || i >= len(s) || s[i] == ' ' }

// similar reports whether the hidden text and its replacement are the
// same words redrawn, perhaps shifted, judged on the parts that differ
// (differs and replDiffers, from differing): nothing of the hidden text
// differs; or the first half of the shorter part occurs in the other; or
// the texts differ only in digits.
func similar(text, repl, differs, replDiffers []byte) bool {
	if len(differs) == 0 {
		return true
	}
	short, long := differs, replDiffers
	if len(short) > len(long) {
		short, long = long, short
	}
	if half := short[:(len(short)+1)/2]; len(half) >= 2 && bytes.Contains(long, half) {
		return true
	}
	// Equal once digits are skipped, and not digits only.
	i, j, letters := 0, 0, false
	for {
		for i < len(text) && isDigit(text[i]) {
			i++
		}
		for j < len(repl) && isDigit(repl[j]) {
			j++
		}
		if i == len(text) || j == len(repl) {
			return letters && i == len(text) && j == len(repl)
		}
		if text[i] != repl[j] {
			return false
		}
		letters = true
		i, j = i+1, j+1
	}
}

// progress reports progress-bar and spinner syntax: a percentage, a bar
// of '=', '#' or block characters (█▏▎▍▌▋▊▉━), a byte rate ("/s"), "ETA",
// a count "n/m" at the first '/', or nothing but spinner characters
// (|/-\ . and the braille dots ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏). One scan of s.
func progress(s []byte) bool {
	spinner, slash := true, false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b == '%':
			return true
		case (b == '=' || b == '#') && i+1 < len(s) && s[i+1] == b:
			return true
		case b == '/':
			if i+1 < len(s) && s[i+1] == 's' {
				return true
			}
			if !slash && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
				return true
			}
			slash = true
		case b == 'E' && bytes.HasPrefix(s[i:], []byte("ETA")):
			return true
		case b >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(s[i:])
			if r == '█' || r >= '▉' && r <= '▏' || r == '━' {
				return true
			}
			spinner = spinner && strings.ContainsRune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏", r)
			i += n - 1
			continue
		}
		spinner = spinner && spinnerASCII[b]
	}
	return spinner
}

// mayProgress reports whether the text of row could be progress syntax:
// whether it holds a character other than ASCII, or what progress looks
// for in ASCII ("%", "==", "##", "/s", a digit "/" a digit, "ETA"), or
// nothing but spinner characters. It saves writing out the rows that
// cannot. Cells of ASCII are the bytes of the text one for one (an empty
// cell is a space), so a neighbouring cell is a neighbouring byte.
func mayProgress(row []Cell) bool {
	at := func(i int) rune {
		if i >= 0 && i < len(row) {
			return row[i].Rune
		}
		return 0
	}
	digit := func(r rune) bool { return r >= '0' && r <= '9' }
	spinner := true
	for i := range row {
		r := row[i].Rune
		if r >= utf8.RuneSelf {
			return true
		}
		switch progressASCII[r] {
		case asciiPlain:
			spinner = false
		case asciiSpecial:
			if r == '%' ||
				(r == '=' || r == '#') && at(i+1) == r ||
				r == '/' && (at(i+1) == 's' || digit(at(i-1)) && digit(at(i+1))) ||
				r == 'E' && at(i+1) == 'T' && at(i+2) == 'A' {
				return true
			}
			spinner = spinner && spinnerASCII[r]
		}
	}
	return spinner
}

// Classes of ASCII characters for mayProgress.
const (
	asciiPlain   = iota // neither a spinner character nor one progress looks for
	asciiSpinner        // a spinner character, or an empty cell
	asciiSpecial        // one progress looks for: % = # / E
)

// progressASCII classes each ASCII character for mayProgress.
var progressASCII = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		switch {
		case strings.IndexByte("%=#/E", byte(b)) >= 0:
			t[b] = asciiSpecial
		case b == 0 || spinnerASCII[b]:
			t[b] = asciiSpinner
		}
	}
	return t
}()

// spinnerASCII holds the ASCII characters of spinners: | / - \ . and
// space.
var spinnerASCII = [128]bool{'|': true, '/': true, '-': true, '\\': true, '.': true, ' ': true}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// wordLike reports whether DEC graphics letters hold three or more letters
// that are not line-drawing letters (j k l m n q t u v w x, and a for the
// checkerboard).
func wordLike(s []byte) bool {
	n := 0
	for _, r := range string(s) {
		if r >= 'b' && r <= 'z' && !strings.ContainsRune("jklmnqtuvwx", r) {
			n++
		}
	}
	return n >= 3
}

// shellWords are shapes of shell commands that hidden text should not
// carry.
var shellWords = []string{"rm -", "curl ", "wget ", "| sh", "|sh", "| bash", "|bash", "sudo ", "chmod ", "base64", "eval ", "$(", "&&", "; ", "> /", "nc -", "/bin/", "/etc/", "~/.ssh", "ssh-", "export ", "python -c", "powershell"}

// instructionWords are words of instructions aimed at an agent.
var instructionWords = []string{"ignore ", "previous instruction", "instructions", "assistant", "system prompt", "you must", "do not tell", "don't tell", "password", "secret", "token", "api key", "api_key", "private key", "exfiltrate", "execute", "run the"}

// wordSet finds any of a list of words of two bytes or more in a text in
// one scan, the words filed by their first byte; pair is a bit set of the
// first two bytes of the words, in either ASCII case, so that the scan
// looks up words only where two bytes start one.
type wordSet struct {
	pair  [256][4]uint64
	words [256][]string
}

func newWordSet(words []string) *wordSet {
	var ws wordSet
	cases := func(b byte) []byte {
		if b >= 'a' && b <= 'z' {
			return []byte{b, b - 'a' + 'A'}
		}
		return []byte{b}
	}
	for _, w := range words {
		ws.words[w[0]] = append(ws.words[w[0]], w)
		for _, a := range cases(w[0]) {
			for _, b := range cases(w[1]) {
				ws.pair[a][b>>6] |= 1 << (b & 63)
			}
		}
	}
	return &ws
}

// shellSet holds shellWords; instructionSet instructionWords, matched
// without regard to ASCII case.
var shellSet, instructionSet = newWordSet(shellWords), newWordSet(instructionWords)

// in reports whether s holds one of the words; with fold, ASCII capitals
// of s match the words' lower-case letters.
func (ws *wordSet) in(s []byte, fold bool) bool {
	for i := 0; i+1 < len(s); i++ {
		if b := s[i+1]; ws.pair[s[i]][b>>6]&(1<<(b&63)) == 0 {
			continue
		}
		for _, w := range ws.words[lowerIf(s[i], fold)] {
			if hasPrefix(s[i:], w, fold) {
				return true
			}
		}
	}
	return false
}

func hasPrefix(s []byte, w string, fold bool) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if lowerIf(s[j], fold) != w[j] {
			return false
		}
	}
	return true
}

func lowerIf(b byte, fold bool) byte {
	if fold && b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// VisibleFor returns how long f's text was visible, as words: a duration
// for timed captures, else a byte count.
func (f *Finding) VisibleFor() string {
	if f.VisibleMs >= 0 {
		return (time.Duration(f.VisibleMs) * time.Millisecond).String()
	}
	return strconv.FormatInt(f.VisibleBytes, 10) + " bytes"
}

// spare holds compact's buffers from one compaction to the next, so that
// compacting allocates nothing once they have grown: the arenas the texts
// were last copied out of, and best's scratch. A copy of a Model gets its
// own (none).
type spare struct {
	del, drw []byte
	scores   []int8
	keep     []int32
	hits     [2][]int32
}
