package viewer

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/screen"
)

// screenPane shows the terminal screen as it was just after the byte
// under the cursor (package screen's model): the cells drawn by the token
// under the cursor in the cursor-token style, concealed and invisible
// text revealed in the sequence-start style, cells whose text a finding
// says will be hidden later in the warning style. S shows it in the place
// of the cleaned-text pane; a click on a cell moves the cursor to the byte
// that drew it; f/F and r/R step through the findings.
type screenPane struct{ noKeys }

// Checkpoints of the screen pass (screen.Snapshot, a few KiB each): one
// every screenStep bytes at first; when they would take more than
// screenBudget bytes, every other one is dropped and the step doubles, so
// that memory stays under the budget on any capture while a jump replays
// at most one step.
const (
	screenStep   = 128 << 10
	screenBudget = 128 << 20
	// screenChunk is how many bytes one step of the pass feeds; the
	// findings so far are shown after each step.
	screenChunk = 1 << 20
)

// screenCache is a stream's screen models: the background pass (a model
// with findings, and checkpoints taken on its way), and the model at the
// cursor, fed on from the nearest checkpoint.
type screenCache struct {
	set capture.ScreenSetup
	st  *capture.Stream

	mu      sync.Mutex
	step    int64              // bytes between checkpoints
	cps     []*screen.Snapshot // cps[i] has been fed i*step bytes
	cpBytes int64              // the memory of cps
	pass    *screen.Model      // the pass's model, with findings; owned by its step
	done    bool
	started bool // the pass has been started (UI goroutine only)
	// The findings of the bytes the pass has read, replaced after each
	// step: by offset, the indices of finds highest rank first, and the
	// spans merged.
	finds []screen.Finding
	rank  []int
	union []span64
	// stepped is the place by rank of the finding the last f, F, r or R
	// landed on, -1 for none or when the findings were replaced since:
	// several findings can start at one offset (text concealed, then
	// erased), and the cursor alone does not say which of them a step
	// is at.
	stepped int

	cur *screen.Model // the model at the cursor (UI goroutine only)
	// The screen's first column and row the pane last drew (UI goroutine
	// only): a screen larger than the pane is shown around the cells the
	// token under the cursor drew, else around the terminal's cursor.
	left, top int
}

// span64 is a byte span [off, end).
type span64 struct{ off, end int64 }

// screenMsg reports a finished step of the screen pass of stream id.
type screenMsg struct {
	id  int
	err error
}

// newScreenCache returns the cache of stream st of capture c.
func newScreenCache(c *capture.Capture, st *capture.Stream) (*screenCache, error) {
	set := capture.SetupScreen(c, st, 0, 0)
	first, err := screen.New(screen.Options{Cols: set.Cols, Rows: set.Rows, NewlineCRLF: set.NewlineCRLF})
	if err != nil {
		return nil, err
	}
	pass, _ := screen.New(screen.Options{Cols: set.Cols, Rows: set.Rows, NewlineCRLF: set.NewlineCRLF, Findings: true, Timed: c != nil && c.Timed})
	cp := first.Snapshot()
	return &screenCache{set: set, st: st, step: screenStep, cps: []*screen.Snapshot{cp}, cpBytes: cp.Bytes(), pass: pass, stepped: -1}, nil
}

// passStep feeds the pass the next screenChunk bytes, taking checkpoints
// on the way, and, at the end, its findings. It runs off the UI goroutine.
func (c *screenCache) passStep(id int) tea.Cmd {
	return func() tea.Msg {
		p := c.pass
		end := min(c.st.Len, p.Offset()+screenChunk)
		for p.Offset() < end {
			c.mu.Lock()
			next := int64(len(c.cps)) * c.step
			c.mu.Unlock()
			if err := capture.PlayScreen(p, c.st, min(end, next)); err != nil {
				return screenMsg{id, err}
			}
			if p.Offset() == next {
				c.addCheckpoint(p.Snapshot())
			}
		}
		last := end >= c.st.Len
		if last {
			p.End()
		}
		c.publish(p.Findings(), last)
		return screenMsg{id: id}
	}
}

// publish replaces the findings shown by fs (in rank order, as
// Model.Findings returns them); done says the pass has ended.
func (c *screenCache) publish(fs []screen.Finding, done bool) {
	rank := make([]int, len(fs))
	for i := range rank {
		rank[i] = i
	}
	byOff := slices.Clone(rank)
	slices.SortStableFunc(byOff, func(a, b int) int { return int(fs[a].Off - fs[b].Off) })
	pos := make([]int, len(fs)) // rank order index -> offset order index
	sorted := make([]screen.Finding, len(fs))
	for j, i := range byOff {
		sorted[j], pos[i] = fs[i], j
	}
	for i := range rank {
		rank[i] = pos[i]
	}
	c.mu.Lock()
	c.finds, c.rank, c.union, c.done, c.stepped = sorted, rank, unionOf(sorted), done, -1
	if done {
		c.pass = nil
	}
	c.mu.Unlock()
}

// addCheckpoint appends cp, thinning the checkpoints when they pass the
// memory budget.
func (c *screenCache) addCheckpoint(cp *screen.Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cps = append(c.cps, cp)
	c.cpBytes += cp.Bytes()
	if c.cpBytes <= screenBudget {
		return
	}
	kept := c.cps[:0]
	c.cpBytes = 0
	for i := 0; i < len(c.cps); i += 2 {
		kept = append(kept, c.cps[i])
		c.cpBytes += c.cps[i].Bytes()
	}
	clear(c.cps[len(kept):])
	c.cps, c.step = kept, c.step*2
}

// unionOf merges the spans of findings fs (by offset).
func unionOf(fs []screen.Finding) []span64 {
	var out []span64
	for _, f := range fs {
		if n := len(out); n > 0 && f.Off <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, f.Off+f.Len)
			continue
		}
		out = append(out, span64{f.Off, f.Off + f.Len})
	}
	return out
}

// hidden reports whether byte off lies in a finding's span.
func (c *screenCache) hidden(off int64) bool {
	u := c.union
	i := sort.Search(len(u), func(i int) bool { return u[i].end > off })
	return i < len(u) && u[i].off <= off
}

// modelAt returns the model fed the first end bytes of the stream: the
// model at the cursor fed on when it is before end by less than a step,
// else a copy of the nearest checkpoint fed on.
//
// Past where the pass has been, it replays at most screenChunk bytes, so
// that the viewer stays responsive on any capture; beyond that it returns
// errScreenBehind until the pass gets there.
func (c *screenCache) modelAt(end int64) (*screen.Model, error) {
	c.mu.Lock()
	step, done, cp := c.step, c.done, c.cps[min(end/c.step, int64(len(c.cps))-1)]
	c.mu.Unlock()
	near := c.cur != nil && c.cur.Offset() <= end && (end-c.cur.Offset() < step || cp.Offset() <= c.cur.Offset())
	from := cp.Offset()
	if near {
		from = c.cur.Offset()
	}
	if !done && end-from > screenChunk {
		return nil, errScreenBehind
	}
	if !near {
		c.cur = cp.Model()
	}
	return c.cur, capture.PlayScreen(c.cur, c.st, end)
}

// errScreenBehind says the cursor is past where the screen pass has been.
var errScreenBehind = errors.New("the screen pass has not reached the cursor yet: the screen comes when it gets here")

// findingAt returns the index (by offset) of a finding whose span holds
// off, the one of highest rank when several do, or -1.
func (c *screenCache) findingAt(off int64) int {
	best := -1
	// Destruction spans tile without overlap, and so do draw-time ones:
	// at most one of each holds off, and it is the last of its family
	// that starts at or before off.
	seen := [2]bool{}
	for i := sort.Search(len(c.finds), func(i int) bool { return c.finds[i].Off > off }) - 1; i >= 0 && !(seen[0] && seen[1]); i-- {
		f := &c.finds[i]
		fam := 0
		if f.Cause >= screen.CauseConcealed {
			fam = 1
		}
		if seen[fam] {
			continue
		}
		seen[fam] = true
		if off < f.Off+f.Len && (best < 0 || f.Rank > c.finds[best].Rank) {
			best = i
		}
	}
	return best
}

// current returns the index (by offset) of the finding under the cursor
// at cur: the one the last step landed on while the cursor is still at
// its start, else findingAt's. The caller holds c.mu.
func (c *screenCache) current(cur int64) int {
	if c.stepped >= 0 {
		if i := c.rank[c.stepped]; c.finds[i].Off == cur {
			return i
		}
	}
	return c.findingAt(cur)
}

// screenCache returns the current stream's screen cache, made the first
// time the screen pane is shown.
func (m *model) screenCache() (*screenCache, error) {
	sv := m.sv()
	if sv.scr != nil {
		return sv.scr, nil
	}
	c, err := newScreenCache(m.c, sv.s)
	if err != nil {
		return nil, err
	}
	sv.scr = c
	return c, nil
}

// startScreenPass returns the command that starts the screen pass of the
// current stream, once, when its screen pane is first shown.
func (m *model) startScreenPass() tea.Cmd {
	if !m.lay.shown[paneScreen] {
		return nil
	}
	c, err := m.screenCache()
	if err != nil || c.started {
		return nil // the pane shows the error
	}
	c.started = true
	return c.passStep(m.cur)
}

// screenModel returns the model just after the byte under the cursor.
func (m *model) screenModel() (*screen.Model, error) {
	c, err := m.screenCache()
	if err != nil {
		return nil, err
	}
	sv := m.sv()
	return c.modelAt(min(sv.src.n, sv.cursor+1))
}

// screenStepped handles a finished step of a screen pass: the next one.
func (m *model) screenStepped(msg screenMsg) tea.Cmd {
	c := m.streamView(msg.id).scr
	if msg.err != nil {
		m.err = msg.err
		return nil
	}
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if !done {
		return c.passStep(msg.id)
	}
	if w := m.findWait; w != nil && msg.id == m.cur && w.from == m.sv().cursor {
		m.findWait = nil
		m.stepFinding(w.d, w.byRank)
	}
	return nil
}

// findStep is a step through findings (stepFinding's arguments) asked for
// with the cursor at from.
type findStep struct {
	d      int
	byRank bool
	from   int64
}

// stepFinding moves the cursor to the next finding (d 1) or the previous
// one (d -1), by offset or by rank, among those the pass has found so far.
func (m *model) stepFinding(d int, byRank bool) {
	c, err := m.screenCache()
	if err != nil {
		m.err = err
		return
	}
	off, msg := c.stepTarget(m.sv().cursor, d, byRank)
	m.findWait = nil
	if msg != "" {
		c.mu.Lock()
		if !c.done {
			m.findWait = &findStep{d, byRank, m.sv().cursor}
		}
		c.mu.Unlock()
		m.setMsg(true, "%s", msg)
		return
	}
	m.jump(off)
}

// stepTarget returns the offset of the finding d steps from the cursor at
// cur, by offset or by rank, or why there is none.
func (c *screenCache) stepTarget(cur int64, d int, byRank bool) (int64, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case len(c.finds) == 0 && !c.done:
		return 0, "no hidden-text findings yet: the screen pass is reading the stream"
	case len(c.finds) == 0:
		return 0, "no hidden-text findings in this stream"
	}
	var i int
	if byRank {
		// From the finding under the cursor, else from the top (or bottom).
		j := slices.Index(c.rank, c.current(cur))
		switch {
		case j < 0 && d > 0:
			j = 0
		case j < 0:
			j = len(c.rank) - 1
		default:
			j = (j + d + len(c.rank)) % len(c.rank)
		}
		i, c.stepped = c.rank[j], j
	} else {
		i = sort.Search(len(c.finds), func(i int) bool { return c.finds[i].Off > cur })
		if d < 0 {
			i = sort.Search(len(c.finds), func(i int) bool { return c.finds[i].Off >= cur }) - 1
		}
		if i < 0 || i >= len(c.finds) {
			return 0, "no finding " + map[bool]string{true: "after the cursor", false: "before the cursor"}[d > 0]
		}
		c.stepped = slices.Index(c.rank, i)
	}
	return c.finds[i].Off, ""
}

// findingNote names the finding under the cursor for the status line
// (screenCache.note), when the screen pane is shown.
func (m *model) findingNote() (render.Safe, bool) {
	c := m.sv().scr
	if !m.screenOn || c == nil {
		return render.Safe{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.current(m.sv().cursor)
	if i < 0 {
		return render.Safe{}, false
	}
	return c.note(i), true
}

// note names finding i (by offset) for the status line: its place by
// rank, cause, rank, the token that hid it and what replaced it,
// escaped. The caller holds c.mu.
func (c *screenCache) note(i int) render.Safe {
	f := &c.finds[i]
	r := slices.Index(c.rank, i)
	s := fmt.Sprintf("finding %d of %d by rank: %s, rank %d, by %s", r+1, len(c.finds), f.Cause, f.Rank, f.By.Name)
	if f.Via != "" {
		s += " via " + f.Via
	}
	s += ", text "
	parts := []render.Safe{render.Line([]byte(s)), render.Line([]byte(f.Text))}
	if f.ReplacedBy != "" {
		parts = append(parts, render.Line([]byte(", replaced by ")), render.Line([]byte(f.ReplacedBy)))
	}
	return render.Concat(parts...)
}

// readPercent is how much of a stream of n bytes the screen pass has
// read, in percent. The caller holds c.mu.
func (c *screenCache) readPercent(n int64) int64 {
	if c.done {
		return 100
	}
	return percent(int64(len(c.cps)-1)*c.step, n)
}

func (screenPane) title(m *model) string {
	sm, err := m.screenModel()
	c := m.sv().scr
	if c == nil {
		return "screen"
	}
	cols, rows, which := c.set.Cols, c.set.Rows, "screen not yet known"
	if err == nil {
		cols, rows = sm.Size()
		which = "main"
		if sm.Alternate() {
			which = "alternate"
		}
	}
	nl := "LF as LF"
	if c.set.NewlineCRLF {
		nl = "LF as CR LF"
	}
	t := fmt.Sprintf("screen %dx%d (%s)", cols, rows, c.set.SizeSource)
	if err == nil {
		t += m.screenShown(sm)
	}
	t += fmt.Sprintf(", %s, %s", which, nl)
	if n := m.sv().frameAt(m.sv().cursor); n >= 0 && n < len(m.sv().frames) && m.c.Timed {
		t += ", " + m.sv().frames[n].Time.String()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t += fmt.Sprintf(", %d findings", len(c.finds))
	if !c.done {
		t += fmt.Sprintf(" so far, %d%% read", c.readPercent(m.sv().src.n))
	}
	return t
}

// screenLook is how the pane draws a cell.
type screenLook uint8

const (
	lookPlain    screenLook = iota
	lookToken               // drawn by the token under the cursor
	lookRevealed            // concealed text, shown
	lookHidden              // its text is in a finding: hidden later
)

// screenLookOf returns how cell c is drawn: tokOff, tokEnd is the span of
// the token under the cursor; hidden reports whether a byte lies in a
// finding's span.
func screenLookOf(c *screen.Cell, tokOff, tokEnd int64, hidden func(int64) bool) screenLook {
	switch {
	case c.Off >= tokOff && c.Off < tokEnd:
		return lookToken
	case c.Rune != 0 && (c.Pen.Attr&screen.AttrConceal != 0):
		return lookRevealed
	case c.Rune != 0 && c.Off >= 0 && hidden(c.Off):
		return lookHidden
	}
	return lookPlain
}

func (screenPane) lines(m *model, width, height int) []string {
	sm, err := m.screenModel()
	if err != nil {
		return []string{pad(m.st.warn, render.Line([]byte(err.Error())), width)}
	}
	tokOff, tokEnd := m.tokenSpan()
	sc := m.sv().scr
	sc.mu.Lock()
	defer sc.mu.Unlock()
	looks := [...]span{
		lookPlain: m.st.cell(render.ClassText, stNormal), lookToken: m.st.cell(render.ClassText, stToken),
		lookRevealed: m.st.cell(render.ClassText, stStart), lookHidden: m.st.warn,
	}
	sc.left, sc.top = viewport(sm, tokOff, tokEnd, width, height)
	_, rows := sm.Size()
	out := make([]string, 0, min(rows-sc.top, height))
	var text []byte
	for y := sc.top; y < min(rows, sc.top+height); y++ {
		line, w := "", 0
		row := sm.Row(y)
		for x := sc.left; x < len(row) && w < width; x++ {
			c := &row[x]
			if c.WideTail() {
				continue
			}
			text = text[:0]
			if text = c.AppendText(text); len(text) == 0 {
				text = append(text, ' ')
			}
			s := render.Line(text)
			if w+s.Width() > width {
				break
			}
			line += looks[screenLookOf(c, tokOff, tokEnd, sc.hidden)].wrap(s)
			w += s.Width()
		}
		out = append(out, line+pad(m.st.cell(render.ClassText, stNormal), render.Safe{}, width-w))
	}
	return out
}

// tokenSpan returns the span of the token under the cursor, or -1, -1.
func (m *model) tokenSpan() (off, end int64) {
	if t := m.f.cursorToken(); t != nil {
		return t.Off, t.End()
	}
	return -1, -1
}

// screenShown says, for the pane's title, which columns and rows of sm the
// pane shows when it cannot show them all (" cols 21-60 rows 1-20",
// 1-based, in cells; the dimension that fits is left out), or "" when the
// screen fits. It is short: the title is cut at the pane's width.
func (m *model) screenShown(sm *screen.Model) string {
	tokOff, tokEnd := m.tokenSpan()
	width, height := m.lay.inner[paneScreen], m.lay.innerH[paneScreen]
	left, top := viewport(sm, tokOff, tokEnd, width, height)
	cols, rows := sm.Size()
	s := ""
	if cols > width {
		s += fmt.Sprintf(" cols %d-%d", left+1, min(cols, left+width))
	}
	if rows > height {
		s += fmt.Sprintf(" rows %d-%d", top+1, min(rows, top+height))
	}
	return s
}

// viewport returns the first column and row of sm that a pane of width
// columns and height rows shows: 0, 0 when the screen fits; otherwise a
// window that holds the first cell the token [tokOff, tokEnd) drew, or
// without one the terminal's cursor, a third of the way in. Columns are
// counted in cells, which is exact for one-cell characters.
func viewport(sm *screen.Model, tokOff, tokEnd int64, width, height int) (left, top int) {
	cols, rows := sm.Size()
	if cols <= width && rows <= height {
		return 0, 0
	}
	tx, ty := sm.Cursor()
	if tokOff >= 0 {
	find:
		for y := range rows {
			for x, c := range sm.Row(y) {
				if c.Off >= tokOff && c.Off < tokEnd {
					tx, ty = x, y
					break find
				}
			}
		}
	}
	around := func(t, n, size int) int {
		if n <= size || t < size {
			return 0
		}
		return min(t-size/3, n-size)
	}
	return around(tx, cols, width), around(ty, rows, height)
}

// click moves the cursor to the byte that drew the cell clicked.
func (screenPane) click(m *model, row, col int) {
	sm, err := m.screenModel()
	if err != nil {
		return
	}
	cols, rows := sm.Size()
	sc := m.sv().scr
	sc.mu.Lock()
	row, col = row+sc.top, col+sc.left
	sc.mu.Unlock()
	if row < 0 || row >= rows || col < 0 || col >= cols {
		return
	}
	if c := sm.Cell(col, row); c.Off >= 0 {
		m.jump(c.Off)
	}
}
