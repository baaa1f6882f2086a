package viewer

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/render"
)

// keyContext returns what decides which keys apply now.
func (m *model) keyContext() keyContext {
	sv := m.sv()
	return keyContext{
		prompt:  m.prompt != promptNone,
		report:  m.focus == paneReport || m.focus == paneDiff,
		frames:  len(sv.frames) > 0,
		streams: len(m.svs) > 1,
		compare: m.cmp != nil,
		help:    m.help.ShowAll,
	}
}

// key handles a key press.
func (m *model) key(k tea.KeyMsg) tea.Cmd {
	if m.prompt != promptNone {
		return m.promptKey(k)
	}
	m.msg = render.Safe{}
	sv := m.sv()
	if p := m.pending; p != "" {
		m.pending = ""
		r := k.Runes
		if k.Type != tea.KeyRunes || len(r) != 1 || !(r[0] >= 'a' && r[0] <= 'z' || r[0] >= 'A' && r[0] <= 'Z') {
			if key.Matches(k, m.keys.Quit) {
				return tea.Quit
			}
			m.setMsg(true, "marks are letters")
			return nil
		}
		if p == "m" {
			sv.marks[r[0]] = sv.cursor
			m.setMsg(false, "mark %c set at %s", r[0], offsetText(sv.cursor))
		} else if off, ok := sv.marks[r[0]]; ok {
			m.jump(off)
		} else {
			m.setMsg(true, "no mark %c", r[0])
		}
		return nil
	}
	if m.help.ShowAll && key.Matches(k, m.keys.Help) { // before a pane takes Esc
		m.help.ShowAll = false
		return nil
	}
	if ok, cmd := panes[m.focus].key(m, k); ok {
		return cmd
	}
	ks := &m.keys
	bpr := int64(max(1, m.lay.bpr))
	switch {
	case key.Matches(k, ks.Quit):
		return tea.Quit
	case key.Matches(k, ks.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(k, ks.Detail):
		m.detail = !m.detail
	case key.Matches(k, ks.Screen):
		m.screenOn = !m.screenOn
	case key.Matches(k, ks.NextFinding), key.Matches(k, ks.PrevFinding), key.Matches(k, ks.NextRanked), key.Matches(k, ks.PrevRanked):
		d := map[bool]int{true: 1, false: -1}[key.Matches(k, ks.NextFinding, ks.NextRanked)]
		m.screenOn = true
		m.stepFinding(d, key.Matches(k, ks.NextRanked, ks.PrevRanked))
	case key.Matches(k, ks.NextDiff):
		return m.nextDiff(1)
	case key.Matches(k, ks.PrevDiff):
		return m.nextDiff(-1)
	case key.Matches(k, ks.Up):
		m.moveRows(-1, bpr)
	case key.Matches(k, ks.Down):
		m.moveRows(1, bpr)
	case key.Matches(k, ks.Left):
		sv.cursor = max(0, sv.cursor-1)
	case key.Matches(k, ks.Right):
		sv.cursor = min(max(0, sv.src.n-1), sv.cursor+1)
	case key.Matches(k, ks.PageUp):
		m.page(-1)
	case key.Matches(k, ks.PageDown):
		m.page(1)
	case key.Matches(k, ks.Home):
		sv.cursor = 0
	case key.Matches(k, ks.End):
		sv.cursor = max(0, sv.src.n-1)
	case key.Matches(k, ks.Goto):
		return m.openPrompt(promptGoto)
	case key.Matches(k, ks.SearchText):
		return m.openPrompt(promptText)
	case key.Matches(k, ks.SearchHex):
		return m.openPrompt(promptHex)
	case key.Matches(k, ks.SearchRaw):
		return m.openPrompt(promptRaw)
	case key.Matches(k, ks.NextSeq):
		return m.startJob(newSeek(sv.idx, &seqItem, m.o.Sanitize, sv.cursor, 1))
	case key.Matches(k, ks.PrevSeq):
		return m.startJob(newSeek(sv.idx, &seqItem, m.o.Sanitize, sv.cursor, -1))
	case key.Matches(k, ks.NextHazard):
		return m.hazardSeek(1)
	case key.Matches(k, ks.PrevHazard):
		return m.hazardSeek(-1)
	case key.Matches(k, ks.NextClass):
		return m.classSeek(1)
	case key.Matches(k, ks.PrevClass):
		return m.classSeek(-1)
	case key.Matches(k, ks.Mark):
		m.pending = "m"
		m.setMsg(false, "mark: press a letter")
	case key.Matches(k, ks.JumpMark):
		m.pending = "'"
		m.setMsg(false, "go to mark: press a letter")
	case key.Matches(k, ks.Focus):
		m.cycleFocus(1)
	case key.Matches(k, ks.FocusBack):
		m.cycleFocus(-1)
	case key.Matches(k, ks.NextFrame):
		if i := sv.frameAt(sv.cursor) + 1; i < len(sv.frames) {
			m.jump(sv.frames[i].Off)
		}
	case key.Matches(k, ks.PrevFrame):
		if i := sv.frameAt(max(0, sv.cursor-1)); i >= 0 {
			m.jump(sv.frames[i].Off)
		}
	case key.Matches(k, ks.NextStream):
		m.cur = (m.cur + 1) % len(m.svs)
		m.job = nil
		return m.sv().start()
	}
	return nil
}

// classSeek starts the search for the next (dir +1) or previous (dir
// -1) place of the class selected in the report pane, from any pane; it
// says what to do when that class has nothing to find.
func (m *model) classSeek(dir int64) tea.Cmd {
	it := &reportItems[m.sel]
	switch {
	case !it.searchable():
		m.setMsg(true, "%s/%s is a total, not a place: select a class in the report pane (tab, then j/k)", it.group, it.name)
		return nil
	case m.f.repDone && m.sel < len(m.f.counts) && m.f.counts[m.sel] == 0:
		m.setMsg(true, "no %s/%s in this stream: select another class in the report pane (tab, then j/k), or w for any hazard", it.group, it.name)
		return nil
	}
	return m.startJob(newSeek(m.sv().idx, it, m.o.Sanitize, m.sv().cursor, dir))
}

// cycleFocus moves the focus to the next shown pane in direction d.
func (m *model) cycleFocus(d int) {
	for range numPanes {
		m.focus = (m.focus + paneID(d) + numPanes) % numPanes
		if m.lay.shown[m.focus] {
			return
		}
	}
}

// jump moves the cursor to off.
func (m *model) jump(off int64) {
	sv := m.sv()
	sv.cursor = max(0, min(off, sv.src.n-1))
}

// moveRows moves the cursor d byte rows down (up when negative).
func (m *model) moveRows(d int, bpr int64) {
	sv := m.sv()
	next := sv.cursor + int64(d)*bpr
	if next >= 0 && next < sv.src.n {
		sv.cursor = next
	} else if d > 0 && sv.rows.rowStart(sv.cursor) < sv.rows.lastRow() {
		sv.cursor = sv.src.n - 1 // into the short last row
	}
}

// moveText moves the cursor d rows of cleaned text of text pane p down
// (up when negative), to the input of the row's first byte; with clamp
// it goes as far as the rows shown reach. It reports whether it moved.
func (m *model) moveText(p paneID, d int, clamp bool) bool {
	rows, c := m.textSide(p)
	cur := m.f.textCur
	if c == nil || cur < 0 || cur >= len(rows) {
		return false
	}
	i := cur + d
	for clamp && i != cur && (i < 0 || i >= len(rows) || !rows[i].ok) {
		i -= sign(d)
	}
	if i == cur || i < 0 || i >= len(rows) || !rows[i].ok {
		return false
	}
	s, _ := c.m.ToInput(rows[i].out)
	m.jumpIn(p, c.a+s)
	return true
}

// sign returns -1, 0 or 1.
func sign(x int) int { return max(-1, min(1, x)) }

// page moves the view and the cursor a page of display rows; in compare
// mode a page of cleaned text, or of bytes where no text is shown.
func (m *model) page(d int) {
	sv, f := m.sv(), &m.f
	if m.cmp != nil {
		if !m.moveText(paneText, d*max(1, m.lay.rows-1), true) { // no text below or above: a page of bytes
			m.jump(sv.cursor + int64(d*m.lay.rows*m.lay.bpr))
		}
		return
	}
	if len(f.rows) == 0 {
		return
	}
	col := sv.cursor - sv.rows.rowStart(sv.cursor)
	top := sv.top
	var err error
	if d > 0 {
		if top = f.rows[len(f.rows)-1].next(sv.rows.bpr); top >= sv.src.n {
			sv.cursor = sv.src.n - 1
			return
		}
	} else {
		for i := 0; i < len(f.rows) && top > 0 && err == nil; i++ {
			top, err = sv.rows.prev(top, sv.cursor)
		}
	}
	if err != nil {
		m.err = err
		return
	}
	rows, err := sv.rows.layout(top, top, len(f.rows))
	if err != nil {
		m.err = err
		return
	}
	i := min(max(0, f.curRow), len(rows)-1)
	sv.top, sv.cursor = top, min(rows[i].off+col, sv.src.n-1)
}

// scroll moves the view by d display rows, keeping the cursor on screen;
// in compare mode it moves the cursor d rows of cleaned text.
func (m *model) scroll(d int) {
	sv, f := m.sv(), &m.f
	if m.cmp != nil {
		m.moveText(paneText, d, true)
		return
	}
	if len(f.rows) == 0 {
		return
	}
	col := sv.cursor - sv.rows.rowStart(sv.cursor)
	top := sv.top
	for i := 0; i < abs(d); i++ {
		var err error
		if d > 0 {
			rows, e := sv.rows.layout(top, sv.cursor, 2)
			if err = e; err == nil && len(rows) == 2 {
				top = rows[1].off
			}
		} else if top > 0 {
			top, err = sv.rows.prev(top, sv.cursor)
		}
		if err != nil {
			m.err = err
			return
		}
	}
	rows, err := sv.rows.layout(top, sv.cursor, len(f.rows))
	if err != nil {
		m.err = err
		return
	}
	sv.top = top
	if rowIndex(rows, sv.rows.rowStart(sv.cursor)) < 0 && len(rows) > 0 {
		r := rows[0]
		if d > 0 {
			r = rows[len(rows)-1]
		}
		sv.cursor = min(r.off+col, sv.src.n-1)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mouse handles the wheel and clicks.
func (m *model) mouse(e tea.MouseMsg) {
	if e.Action != tea.MouseActionPress {
		return
	}
	switch e.Button {
	case tea.MouseButtonWheelUp:
		m.scroll(-3)
		return
	case tea.MouseButtonWheelDown:
		m.scroll(3)
		return
	case tea.MouseButtonLeft:
	default:
		return
	}
	p, r, col, ok := m.lay.paneAt(e.X, e.Y)
	if !ok {
		return
	}
	m.focus = p
	panes[p].click(m, r, col)
}

// openPrompt opens the prompt line, empty: the last query of a search
// prompt is shown as a placeholder, and Enter on the empty prompt
// searches for it again.
func (m *model) openPrompt(p promptKind) tea.Cmd {
	m.prompt = p
	m.input.Reset()
	m.input.Focus()
	return nil
}

// promptKey handles a key while the prompt is open.
func (m *model) promptKey(k tea.KeyMsg) tea.Cmd {
	switch {
	case k.Type == tea.KeyCtrlC:
		return tea.Quit
	case key.Matches(k, m.keys.Cancel):
		m.prompt = promptNone
		m.input.Blur()
		return nil
	case k.Type == tea.KeyTab && (m.prompt == promptText || m.prompt == promptRaw):
		m.prompt = promptText + promptRaw - m.prompt
		return nil
	case k.Type == tea.KeyCtrlT && (m.prompt == promptText || m.prompt == promptRaw):
		m.foldCase = !m.foldCase
		return nil
	case key.Matches(k, m.keys.Confirm):
		p, v := m.prompt, m.input.Value()
		m.prompt = promptNone
		m.input.Blur()
		return m.submit(p, v)
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	_ = cmd // the cursor blink is not drawn: the prompt is drawn by View
	return nil
}

// submit acts on a confirmed prompt.
func (m *model) submit(p promptKind, v string) tea.Cmd {
	sv := m.sv()
	if v == "" && p != promptGoto {
		v = m.lastQ[p]
	}
	m.lastQ[p] = v
	switch p {
	case promptGoto:
		off, err := parseOffset(v, sv.cursor, sv.src.n)
		if err != nil {
			m.setMsg(true, "%v", err)
			return nil
		}
		m.jump(off)
	case promptText:
		if v == "" {
			return nil
		}
		return m.startJob(newTextSearch(sv.idx, v, m.foldCase, m.o.Sanitize, sv.cursor))
	case promptRaw:
		if v == "" {
			return nil
		}
		j := newHexSearch(sv.src, []byte(v), sv.cursor)
		j.text, j.fold = true, m.foldCase || smartFold([]byte(v))
		return m.startJob(j)
	case promptHex:
		pat, err := parseHex(v)
		if err != nil {
			m.setMsg(true, "%v", err)
			return nil
		}
		return m.startJob(newHexSearch(sv.src, pat, sv.cursor))
	}
	return nil
}

// parseOffset reads a goto target: an absolute offset in decimal (4096)
// or hex (0x1f00), relative to the cursor (+16, -0x10), or a share of
// the stream (50%, 12.5%).
func parseOffset(in string, cursor, n int64) (int64, error) {
	s := strings.TrimSpace(in)
	if s == "" {
		return 0, errors.New("go to: type an offset (0x1f00, 4096, +16, -16, 50%)")
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 || f > 100 {
			return 0, fmt.Errorf("go to: %q is not a percentage from 0 to 100", s)
		}
		return min(max(0, n-1), int64(f/100*float64(n))), nil
	}
	sign := int64(0)
	switch s[0] {
	case '+':
		sign, s = 1, s[1:]
	case '-':
		sign, s = -1, s[1:]
	}
	s = strings.TrimSpace(s)
	base := 10
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		s, base = h, 16
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("go to: %q is not an offset (0x1f00, 4096, +16, -16, 50%%)", in)
	}
	off := v
	if sign != 0 {
		off = cursor + sign*v
	}
	if off < 0 || off >= n {
		return 0, fmt.Errorf("go to: offset %d is outside the stream (0 to %d)", off, n-1)
	}
	return off, nil
}

// parseHex reads a byte pattern: pairs of hex digits, spaces allowed
// anywhere ("1b 5b", "1b5b").
func parseHex(s string) ([]byte, error) {
	s = strings.Join(strings.Fields(s), "")
	b, err := hex.DecodeString(s)
	if err != nil || len(b) == 0 {
		return nil, errors.New("search hex: type pairs of hex digits, such as 1b 5b")
	}
	return b, nil
}
