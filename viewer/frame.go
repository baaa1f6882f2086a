package viewer

import (
	"fmt"
	"strings"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// windowTail is how many bytes past the last visible one a window
// decodes, so that a sequence crossing the bottom edge is seen whole.
const windowTail = 1 << 10

// win is a decoded window. When the index has not reached it yet it may
// be approximate: decoded by a fresh decoder started a little before it,
// with offsets relative to base.
type win struct {
	w     render.Window
	base  int64 // add to window offsets to get stream offsets
	exact bool
}

// covers reports whether stream offset off is inside the window's data.
func (w *win) covers(off int64) bool { return off >= w.w.Off+w.base && off < w.w.End()+w.base }

// frame is what the panes draw, computed by refresh after every change.
type frame struct {
	rows   []dispRow
	wins   []win
	curRow int // index in rows of the cursor's row

	tok    decode.Token // the token under the cursor, in stream offsets
	tokOK  bool
	tokWin int // index in wins of the window that holds the cursor
	tokIdx int // the token's index in that window

	text     []textRow // the cleaned-text pane, one per row of rows
	textNote render.Safe
	textCur  int // index in text of the row that holds the cursor

	// Compare mode: B's cleaned text, aligned with text at textCur.
	textB     []textRow
	textNoteB render.Safe
	// seq and seqB mark, for two aligned captures, the rows of text and
	// textB whose line has the same text on both sides but whose bytes
	// differ (a link target, a colour).
	seq, seqB []bool

	detail []string // the detail pane's rows, all of them

	rep     sanitize.Report
	repDone bool
	counts  []int64
}

// winFor returns the window holding off, or nil.
func (f *frame) winFor(off int64) *win {
	for i := range f.wins {
		if f.wins[i].covers(off) {
			return &f.wins[i]
		}
	}
	return nil
}

// refresh recomputes the layout and the frame from the model's state.
func (m *model) refresh() error {
	ctx := m.keyContext()
	m.keys.setContext(ctx)
	m.help.Width = m.w
	if hk := (helpKey{m.w, m.help.ShowAll, ctx}); hk != m.helpKey || m.helpView == "" {
		m.helpKey, m.helpView = hk, m.help.View(m.keys)
	}
	m.f = frame{}
	for _, check := range []func() error{m.o.Check, m.cmp.check()} {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
	}
	if m.w <= 0 || m.h <= 0 {
		return nil
	}
	sv := m.sv()
	m.f.rep, m.f.repDone = sv.idx.report()
	m.f.counts = itemCounts(&m.f.rep)
	m.sel = max(0, min(m.sel, len(reportItems)-1))
	top := height(m.titleLine())
	bottom := height(strings.Join(m.statusLines(), "\n")) + height(m.helpView)
	kind := layoutBytes
	if m.cmp != nil {
		kind = layoutCompare
	}
	m.lay = computeLayout(&m.st, m.w, m.h, top, bottom, sv.src.n, kind, m.detail)
	if m.screenOn && m.lay.shown[paneText] && m.cmp == nil {
		m.lay.replace(paneText, paneScreen)
	}
	if !m.lay.shown[m.focus] {
		m.cycleFocus(1)
	}
	if m.cmp != nil {
		m.cmp.update(sv, m.aligned())
	}
	if m.lay.tooSmall || sv.src.n == 0 {
		return nil
	}
	if err := m.place(); err != nil {
		return err
	}
	if err := m.decodeRows(); err != nil {
		return err
	}
	if m.lay.shown[paneDetail] {
		m.f.detail = m.detailRows(m.lay.inner[paneDetail])
		m.detailTop = max(0, min(m.detailTop, len(m.f.detail)-m.lay.innerH[paneDetail]))
	}
	if m.cmp != nil {
		return m.compareRows()
	}
	return m.cleanRows()
}

// cursorToken returns the token under the cursor, or nil.
func (f *frame) cursorToken() *decode.Token {
	if f.tokOK {
		return &f.tok
	}
	return nil
}

// place clamps the cursor and moves the top row so that the cursor's row
// is visible, then lays out the rows.
func (m *model) place() error {
	sv, k := m.sv(), m.lay.rows
	r := &sv.rows
	r.setWidth(m.lay.bpr)
	n := sv.src.n
	sv.cursor = max(0, min(sv.cursor, n-1))
	sv.top = r.rowStart(max(0, min(sv.top, n-1)))
	cur := r.rowStart(sv.cursor)
	if cur < sv.top {
		sv.top = cur
	}
	rows, err := r.layout(sv.top, sv.cursor, k)
	if err != nil {
		return err
	}
	if rowIndex(rows, cur) < 0 {
		t := cur
		for i := 0; i < k-1 && t > 0; i++ {
			if t, err = r.prev(t, sv.cursor); err != nil {
				return err
			}
		}
		sv.top = t
		if rows, err = r.layout(t, sv.cursor, k); err != nil {
			return err
		}
		if rowIndex(rows, cur) < 0 { // cannot happen; show the cursor's row first
			sv.top = cur
			if rows, err = r.layout(cur, sv.cursor, k); err != nil {
				return err
			}
		}
	}
	m.f.rows, m.f.curRow = rows, rowIndex(rows, cur)
	return nil
}

// rowIndex returns the index of the data row at off in rows, or -1.
func rowIndex(rows []dispRow, off int64) int {
	for i, d := range rows {
		if !d.squeeze && d.off == off {
			return i
		}
	}
	return -1
}

// decodeRows decodes one window per run of consecutive data rows and
// finds the token under the cursor.
func (m *model) decodeRows() error {
	sv, f := m.sv(), &m.f
	for i := 0; i < len(f.rows); {
		if f.rows[i].squeeze {
			i++
			continue
		}
		lo, hi := f.rows[i].off, f.rows[i].off+int64(f.rows[i].n)
		for i++; i < len(f.rows) && !f.rows[i].squeeze && f.rows[i].off == hi; i++ {
			hi += int64(f.rows[i].n)
		}
		w, err := sv.window(lo, hi)
		if err != nil {
			return err
		}
		f.wins = append(f.wins, w)
	}
	for i := range f.wins {
		w := &f.wins[i]
		if !w.covers(sv.cursor) {
			continue
		}
		t, idx, ok := w.w.TokenAt(sv.cursor - w.base)
		if !ok {
			break
		}
		t.Off += w.base
		if w.w.IsOpen(idx) && w.exact {
			var err error
			if t, err = sv.fullToken(t); err != nil {
				return err
			}
		}
		f.tok, f.tokOK, f.tokWin, f.tokIdx = t, true, i, idx
	}
	return nil
}

// window decodes the bytes [lo, hi) and a tail past them.
func (sv *streamView) window(lo, hi int64) (win, error) {
	d, base, exact, err := sv.idx.decoderAt(lo)
	if err != nil {
		return win{}, err
	}
	end := min(sv.src.n, hi+windowTail)
	data, err := sv.src.read(lo, end-lo)
	if err != nil {
		return win{}, err
	}
	if end == sv.src.n {
		return win{render.DecodeEnd(d, data), base, exact}, nil
	}
	return win{render.Decode(d, data), base, exact}, nil
}

// tokenAt returns the token that holds the byte at off, whole.
func (sv *streamView) tokenAt(off int64) (decode.Token, error) {
	w, err := sv.window(off, off+1)
	if err != nil {
		return decode.Token{}, err
	}
	t, idx, ok := w.w.TokenAt(off - w.base)
	if !ok {
		return decode.Token{}, fmt.Errorf("no token at offset %d", off)
	}
	t.Off += w.base
	if w.w.IsOpen(idx) && w.exact {
		return sv.fullToken(t)
	}
	return t, nil
}

// fullToken returns t, a token still open at the end of its window, with
// its whole span: it decodes on from t's start until t ends.
func (sv *streamView) fullToken(t decode.Token) (decode.Token, error) {
	if sv.fullOK && sv.full.Off == t.Off && sv.full.Kind == t.Kind {
		return sv.full, nil
	}
	d, _, _, err := sv.idx.decoderAt(t.Off)
	if err != nil {
		return t, err
	}
	found := false
	emit := func(x *decode.Token) {
		if !found && x.Off == t.Off && x.Flags&decode.FlagEmbedded == 0 {
			t, found = *x, true
		}
	}
	for off := t.Off; !found && off < sv.src.n; {
		p, err := sv.src.read(off, checkpointEvery)
		if err != nil {
			return t, err
		}
		d.Feed(p, emit)
		off += int64(len(p))
	}
	if !found {
		d.End(emit)
	}
	sv.full, sv.fullOK = t, true
	return t, nil
}
