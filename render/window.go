package render

import (
	"sort"

	"github.com/bytelens/bytelens/decode"
)

// Window is the tokens of a byte range decoded from a checkpoint: the
// unit HexCells and GlyphCells work on. Build one with Decode or
// DecodeEnd.
type Window struct {
	// Off is the stream offset in bytes of Data[0].
	Off int64
	// Data is the window's bytes. The Window does not copy it; the caller
	// must not change it while the Window is in use.
	Data []byte
	// Tokens are the tokens that end inside Data, in the order the
	// decoder emitted them (an embedded token comes just before the
	// sequence it lies in), followed by the last Open tokens.
	Tokens []decode.Token
	// Open is how many tokens at the end of Tokens are still open at the
	// end of Data: a sequence, string or UTF-8 character that the stream
	// may continue past the window. Decode reports them as End would, but
	// without FlagUnterminated, their Len cut at the end of Data. DecodeEnd
	// leaves Open zero: at the end of the stream they are unterminated.
	Open int

	top []topEntry // non-embedded tokens in stream order; built lazily
}

// topEntry is a token that is not embedded, with the index of the first of
// the embedded tokens inside it (emb == idx when there are none).
type topEntry struct {
	off int64
	idx int
	emb int
}

// Decode decodes data, which starts at stream offset d.Offset(), from the
// checkpoint d: a copy of a Decoder taken when it had been fed everything
// before data[0]. It calls only Feed on its own copy of d, so the stream
// may go on past the window; tokens still open at the end of data are
// reported as Open. Use DecodeEnd when data reaches the end of the stream.
func Decode(d decode.Decoder, data []byte) Window {
	return decodeWindow(d, data, false)
}

// DecodeEnd is Decode for a window that reaches the end of the stream: it
// also calls End, so what is still open is reported unterminated, as
// sanitize and bytelens glyphs see it.
func DecodeEnd(d decode.Decoder, data []byte) Window {
	return decodeWindow(d, data, true)
}

func decodeWindow(d decode.Decoder, data []byte, end bool) Window {
	var w Window
	w.decode(d, data, end)
	return w
}

// decode fills w from d and data, reusing w's slices.
func (w *Window) decode(d decode.Decoder, data []byte, end bool) {
	w.Off, w.Data, w.Open = d.Offset(), data, 0
	if w.Tokens == nil {
		w.Tokens = make([]decode.Token, 0, 8+len(data)/16)
	}
	w.Tokens = w.Tokens[:0]
	emit := func(t *decode.Token) { w.Tokens = append(w.Tokens, *t) }
	d.Feed(data, emit)
	n := len(w.Tokens)
	d.End(emit)
	if !end {
		w.Open = len(w.Tokens) - n
		for i := n; i < len(w.Tokens); i++ {
			w.Tokens[i].Flags &^= decode.FlagUnterminated
		}
	}
	w.index()
}

// index builds w.top.
func (w *Window) index() {
	w.top = w.top[:0]
	emb := 0
	for i := range w.Tokens {
		if w.Tokens[i].Flags&decode.FlagEmbedded != 0 {
			continue
		}
		w.top = append(w.top, topEntry{off: w.Tokens[i].Off, idx: i, emb: emb})
		emb = i + 1
	}
	// Embedded tokens that no container followed (a window built by
	// hand): they are looked up as their own entries.
	if emb < len(w.Tokens) {
		for i := emb; i < len(w.Tokens); i++ {
			w.top = append(w.top, topEntry{off: w.Tokens[i].Off, idx: i, emb: i})
		}
		sort.SliceStable(w.top, func(a, b int) bool { return w.top[a].off < w.top[b].off })
	}
}

// ensureIndex builds the index of a Window that was not made by Decode.
func (w *Window) ensureIndex() {
	if w.top == nil && len(w.Tokens) > 0 {
		w.index()
	}
}

// End returns the stream offset just past Data.
func (w *Window) End() int64 { return w.Off + int64(len(w.Data)) }

// IsOpen reports whether Tokens[i] is one of the Open tokens.
func (w *Window) IsOpen(i int) bool { return i >= len(w.Tokens)-w.Open && i < len(w.Tokens) }

// topAt returns the position in w.top of the non-embedded token covering
// off, or -1.
func (w *Window) topAt(off int64) int {
	w.ensureIndex()
	j := sort.Search(len(w.top), func(k int) bool { return w.top[k].off > off }) - 1
	if j < 0 {
		return -1
	}
	t := &w.Tokens[w.top[j].idx]
	if off >= t.Off+t.Len {
		return -1
	}
	return j
}

// embeddedAt returns the index of the embedded token of top entry e that
// lies on off, or -1.
func (w *Window) embeddedAt(e topEntry, off int64) int {
	if e.emb == e.idx {
		return -1
	}
	emb := w.Tokens[e.emb:e.idx]
	k := sort.Search(len(emb), func(k int) bool { return emb[k].Off >= off })
	if k < len(emb) && emb[k].Off == off {
		return e.emb + k
	}
	return -1
}

// TokenAt returns the token covering stream offset off and its index in
// Tokens: the innermost one, an embedded token if off is on one. ok is
// false when no token of the window covers off (off is outside the
// window, or the window was built by hand and has gaps).
func (w *Window) TokenAt(off int64) (tok decode.Token, index int, ok bool) {
	j := w.topAt(off)
	if j < 0 {
		return decode.Token{}, -1, false
	}
	e := w.top[j]
	if k := w.embeddedAt(e, off); k >= 0 {
		return w.Tokens[k], k, true
	}
	return w.Tokens[e.idx], e.idx, true
}

// SequenceAt is TokenAt without the descent into embedded tokens: the
// token whose span covers off, for highlighting a whole sequence.
func (w *Window) SequenceAt(off int64) (tok decode.Token, index int, ok bool) {
	j := w.topAt(off)
	if j < 0 {
		return decode.Token{}, -1, false
	}
	return w.Tokens[w.top[j].idx], w.top[j].idx, true
}

// Boundary reports whether off is the first byte (start) and the last byte
// (end) of a token that is not text: a control, sequence, string, invalid
// unit or format character, embedded controls looked through (the
// boundary is the enclosing sequence's). A one-byte control is both. The
// viewer marks these so that boundaries are visible without colour.
func (w *Window) Boundary(off int64) (start, end bool) {
	j := w.topAt(off)
	if j < 0 {
		return false, false
	}
	t := &w.Tokens[w.top[j].idx]
	if t.Kind == decode.KindText {
		return false, false
	}
	return off == t.Off, off == t.Off+t.Len-1
}

// introLen returns the length in bytes of a sequence's or string's
// introducer: ESC [ and C2 9B are 2, a raw 9B is 1.
func introLen(t *decode.Token) int64 {
	switch t.Intro {
	case decode.Intro8Bit:
		return 1
	case decode.Intro7Bit, decode.IntroUTF8:
		return 2
	}
	return 0
}

// payloadSpan returns the stream offsets [start, end) of a control
// string's payload: the bytes between introducer and terminator.
func payloadSpan(t *decode.Token) (start, end int64) {
	start = t.PayloadStart()
	end = start + t.Payload
	if limit := t.Off + t.Len; end > limit {
		end = limit
	}
	return start, end
}
