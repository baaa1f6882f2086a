package decode

import "iter"

// Decoder is a streaming decoder of terminal byte streams. Its zero value
// is ready to use with the default grammar; the exported fields select the
// alternatives DESIGN.md names and must not change mid-stream.
//
// A Decoder holds fixed-size arrays only, no slices, maps or pointers:
// copying it (cp := d) takes a checkpoint from which decoding resumes
// identically.
type Decoder struct {
	// LoneC1 treats each raw byte 0x80–0x9F that is not part of a UTF-8
	// unit as a single control that introduces nothing (for legacy 8-bit
	// text such as CP1252). By default such bytes introduce what 8-bit
	// terminals introduce: 9B CSI, 9D OSC, 90 DCS, 98 SOS, 9E PM, 9F APC.
	LoneC1 bool
	// APCBEL ends an APC string at BEL, as Buildkite's timestamp APCs
	// expect. By default BEL is APC payload, as in xterm.
	APCBEL bool
	// MaxPayload is the payload length in bytes past which a control
	// string is flagged FlagOverlong; 0 means DefaultMaxPayload. The
	// payload is never buffered, whatever its length.
	MaxPayload int64

	off int64  // offset of the next byte to be fed
	st  uint32 // the machine's state, premultiplied (table.go)
	pos int64  // where the text not yet emitted begins, or the open token
	tok Token  // the escape, sequence or string in progress
	one Token  // the last single token emitted (text, controls, invalid, format)

	// Reading the open token's bytes (the detail pass).
	body      int64    // offset of the first byte after the introducer
	done      int64    // offset up to which its bytes have been read
	cs        csiState // CSI: where the reading stands
	np        uint16   // CSI: index of the current parameter, saturating
	anyParam  bool     // CSI: a parameter byte was read
	cmdDone   bool     // OSC: the number has been read
	pendingC2 bool     // a C2 ending the last Feed, payload unless U+009C follows
	overlong  int64    // MaxPayload, resolved when the string begins

	// The scanner's records, kept here rather than on the stack of each
	// Feed, which would clear them on every call; between calls they
	// mean nothing.
	recs [batchLen]uint64

	// A UTF-8 unit in ground split across Feed calls.
	u8     [4]byte
	u8n    uint8
	u8need uint8
	u8off  int64
}

func (d *Decoder) options() options { return options{loneC1: d.LoneC1, apcBEL: d.APCBEL} }

// Offset returns the stream offset in bytes of the next byte to be fed.
func (d *Decoder) Offset() int64 { return d.off }

// InGround reports whether the decoder is between tokens, with no
// sequence, string or UTF-8 unit open. Checkpoints taken in ground resume
// without replaying anything.
func (d *Decoder) InGround() bool { return d.st == 0 && d.u8n == 0 }

// batchLen is how many token boundaries the scanner records before the
// builder runs over them.
const batchLen = 64

// Feed decodes p, which continues the stream, and calls out for each
// token that ends inside p, in stream order. It consumes all of p and never
// fails. A text run is emitted in pieces at Feed boundaries; a sequence,
// string or UTF-8 unit open at the end of p is carried to the next Feed.
// The *Token passed to out belongs to the decoder and is valid only
// during the call: out must not modify or retain it (copy the value to
// keep it), nor retain p. Feed does not allocate.
func (d *Decoder) Feed(p []byte, emit func(*Token)) {
	d.feed(p, &sink{emit: emit})
}

// FeedBatch is Feed for a consumer that takes tokens in batches, without a
// call per token: it writes the tokens of p into buf (which must hold at
// least one) and calls flush with them whenever buf is full, and with what
// is left at the end of p. The tokens belong to the caller only during
// flush, which must not modify them: buf must hold zero tokens or those
// FeedBatch left there. With a buf kept across calls FeedBatch does not
// allocate.
func (d *Decoder) FeedBatch(p []byte, buf []Token, flush func([]Token)) {
	out := sink{buf: buf, flush: flush}
	d.feed(p, &out)
	out.drain()
}

func (d *Decoder) feed(p []byte, out *sink) {
	m := tables(variant(d.options()))
	base := d.off
	i := 0
	if d.u8n > 0 {
		i = d.resumeUTF8(m, p, out)
	}
	for i < len(p) {
		var n int
		d.st, n, i = scan(m, p, d.st, i, &d.recs)
		d.apply(m, d.recs[:n], p, base, out)
	}
	d.off = base + int64(len(p))
	d.endFeed(m, p, base, out)
}

// scan runs the machine over p from i until p ends or recs is nearly
// full, and returns the state, the number of records and where it stopped.
// A record is the byte index << 16 | the action taken there. The step has
// no branch: every byte's record is written, and counted only when it has
// an action. Between blocks of steps, a run of bytes that the state keeps
// to itself without an action is skipped in bulk (machine.skip): text in
// ground, printable payload in a control string, parameter and
// intermediate bytes in a CSI.
func scan(m *machine, p []byte, st uint32, i int, recs *[batchLen]uint64) (uint32, int, int) {
	tab, class := &m.trans, &m.class
	n := 0
	for i < len(p) && n <= batchLen-scanBlock {
		if k := m.skip[st&(transLen-1)]; k != skipNone {
			var j int
			switch k {
			case skipGround:
				j = skipText(p, i)
			case skipPayload:
				j = skipPrintable(p, i)
			default:
				j = skipParams(p, i)
			}
			if j > i {
				i = j
				continue
			}
		}
		for end := min(i+scanBlock, len(p)); i < end; i++ {
			e := tab[(st+uint32(class[p[i]]))&(transLen-1)]
			st = e & 0xFFFF
			a := e >> 16
			recs[n&(batchLen-1)] = uint64(i)<<16 | uint64(a)
			n += int((a + 0xFFFF) >> 16) // a != 0
		}
	}
	return st, n, i
}

// scanBlock is how many bytes scan steps between two looks for a run of
// text.
const scanBlock = 16

// apply runs the ops of the recorded actions: the token builder.
func (d *Decoder) apply(m *machine, recs []uint64, p []byte, base int64, out *sink) {
	for _, r := range recs {
		i := int(r >> 16)
		at := base + int64(i)
		a := &m.actions[r&0xFFFF]
		for _, o := range a.ops[:a.n] {
			switch o.code {
			case opC0:
				d.unitToken(out, KindC0, at, 1, p[i], IntroNone, 0)
			case opDEL:
				d.unitToken(out, KindDEL, at, 1, 0x7F, IntroNone, 0)
			case opC1:
				d.unitToken(out, KindC1, at, 1, p[i], Intro8Bit, 0)
			case opC1UTF8:
				d.unitToken(out, KindC1, at-1, 2, p[i], IntroUTF8, 0)
			case opInvalid:
				d.unitToken(out, KindInvalid, at, 1, 0, IntroNone, 0)
			case opInvalidBefore:
				d.unitToken(out, KindInvalid, at-int64(o.n), int64(o.n), 0, IntroNone, 0)
			case opCheck:
				n := int(o.n)
				if r, _, cls := decodeUTF8(p[i+1-n : i+1]); cls == utfFormat {
					d.unitToken(out, KindFormat, at+1-int64(n), int64(n), 0, IntroNone, r)
				}
			case opEmbedded:
				kind := KindC0
				if p[i] == '\t' || p[i] == '\n' {
					kind = KindText
				}
				d.single(out, kind, at, 1, p[i], IntroNone, FlagEmbedded, 0)
			case opBeginESC:
				d.text(at, out)
				d.begin(KindESC, Intro7Bit, at, 1)
			case opBeginESCPrev:
				d.begin(KindESC, Intro7Bit, at-1, 1)
			case opIntro:
				d.tok.Kind = escIntroduces(p[i])
				d.body, d.done = at+1, at+1
				d.cmdDone = d.tok.Kind != KindOSC
			case opBeginC1:
				d.text(at, out)
				d.begin(c1Kind(p[i]), Intro8Bit, at, 1)
			case opBeginC1UTF8:
				d.text(at-1, out)
				d.begin(c1Kind(p[i]), IntroUTF8, at-1, 2)
			case opEndFinal:
				d.read(p, base, at)
				d.tok.Final = p[i]
				if d.tok.Kind == KindESC && (d.tok.NInter > 0 || d.tok.Flags&FlagOverflow != 0) {
					d.tok.Kind = KindNF
				}
				d.finish(at, at+1, out)
			case opAbort:
				d.abort(p, base, Abort(o.n), at, out)
			case opAbortPrev:
				d.abort(p, base, Abort(o.n), at-1, out)
			case opAbortAt:
				d.read(p, base, at)
				d.tok.Flags |= FlagAborted
				d.tok.Abort = AbortNonASCII
				d.finish(at, at+1, out)
			case opEndBEL:
				d.terminate(p, base, TermBEL, at, at+1, out)
			case opEndST:
				d.terminate(p, base, TermST, at-1, at+1, out)
			case opEndC1:
				d.terminate(p, base, TermC1, at, at+1, out)
			case opEndC1UTF8:
				d.terminate(p, base, TermC1, at-1, at+1, out)
			case opAmbiguous:
				d.tok.Flags |= FlagAmbiguous
			}
		}
	}
}

// endFeed settles what the end of a Feed leaves: a UTF-8 unit in ground
// is saved for the next Feed, the pending text is emitted, and the bytes
// of an open token read so far.
func (d *Decoder) endFeed(m *machine, p []byte, base int64, out *sink) {
	if d.st == 0 { // ground, the common case
		if d.u8n == 0 {
			d.text(d.off, out)
		}
		return
	}
	s := m.desc(d.st)
	switch s.fam {
	case famGround:
		if d.u8n == 0 {
			d.text(d.off, out)
		}
		return
	case famGroundUnit:
		lead := len(p) - int(s.u.have)
		d.text(base+int64(lead), out)
		d.saveUTF8(p[lead:], base+int64(lead))
		d.st = 0
		return
	}
	end := d.off
	if s.fam == famStringEsc || s.fam == famStringUnit && s.u.c2 && s.u.have == 1 {
		end-- // an ESC or C2 whose meaning the next byte decides
	}
	d.read(p, base, end)
	d.pendingC2 = end < d.off && s.fam == famStringUnit
}

// End reports what is still open at the end of the stream: a cut UTF-8
// unit as KindInvalid, an open escape, CSI or control string with
// FlagUnterminated (its Len is the bytes it swallowed). The decoder is
// then back in ground at the same offset, its options kept.
func (d *Decoder) End(emit func(*Token)) { d.end(&sink{emit: emit}) }

// EndBatch is End for a consumer of FeedBatch.
func (d *Decoder) EndBatch(buf []Token, flush func([]Token)) {
	out := sink{buf: buf, flush: flush}
	d.end(&out)
	out.drain()
}

func (d *Decoder) end(out *sink) {
	m := tables(variant(d.options()))
	if d.u8n > 0 {
		d.unitToken(out, KindInvalid, d.u8off, int64(d.u8n), 0, IntroNone, 0)
		d.u8n = 0
	}
	s := m.desc(d.st)
	d.st = 0
	switch s.fam {
	case famGround:
		return
	case famCSIUnit:
		d.tok.Flags |= FlagAborted
		d.tok.Abort = AbortNonASCII
	default:
		d.tok.Flags |= FlagUnterminated
	}
	bodyEnd := d.off
	if s.fam == famStringEsc {
		bodyEnd--
	}
	d.read(nil, d.off, bodyEnd)
	d.finish(bodyEnd, d.off, out)
}

// Tokens returns the tokens of p decoded as a whole stream from d's
// state (a checkpoint, or the zero Decoder), End included. d is not
// changed.
func (d Decoder) Tokens(p []byte) iter.Seq[Token] {
	return func(yield func(Token) bool) {
		const chunk = 64 << 10
		dec := d
		ok := true
		emit := func(t *Token) {
			if ok {
				ok = yield(*t)
			}
		}
		for len(p) > 0 && ok {
			n := min(len(p), chunk)
			dec.Feed(p[:n], emit)
			p = p[n:]
		}
		if ok {
			dec.End(emit)
		}
	}
}

// Tokens returns the tokens of p decoded as a whole stream with the default
// grammar.
func Tokens(p []byte) iter.Seq[Token] { return Decoder{}.Tokens(p) }

// text emits the pending text, up to end, as one token.
func (d *Decoder) text(end int64, out *sink) {
	if end > d.pos {
		d.single(out, KindText, d.pos, end-d.pos, 0, IntroNone, 0, 0)
		d.pos = end
	}
}

// unitToken emits a single token of n bytes at off after the pending text.
func (d *Decoder) unitToken(out *sink, kind Kind, off, n int64, final byte, intro Intro, r rune) {
	d.text(off, out)
	d.single(out, kind, off, n, final, intro, 0, r)
	d.pos = off + n
}

// single emits a token that has no parameters and no payload, reusing
// d.one: only the fields such tokens use are set, the rest stay zero.
func (d *Decoder) single(out *sink, kind Kind, off, n int64, final byte, intro Intro, flags Flags, r rune) {
	if out.emit == nil {
		// Into the batch directly: a slot that held a single token has
		// every other field zero already.
		t := &out.buf[out.n]
		if t.Kind >= KindESC && t.Kind <= KindScreenTitle {
			*t = Token{}
		}
		t.Off, t.Len, t.Kind, t.Final, t.Intro, t.Flags, t.Rune, t.Command = off, n, kind, final, intro, flags, r, -1
		if out.n++; out.n == len(out.buf) {
			out.drain()
		}
		return
	}
	t := &d.one
	t.Off, t.Len, t.Kind, t.Final, t.Intro, t.Flags, t.Rune, t.Command = off, n, kind, final, intro, flags, r, -1
	out.emit(t)
}

// begin starts a token of kind at off whose body starts after its
// introducer of introLen bytes.
func (d *Decoder) begin(kind Kind, intro Intro, off, introLen int64) {
	// Reset the previous token's fields, the arrays only as far as it
	// wrote them: clearing the whole Token is most of the cost of a short
	// sequence.
	t := &d.tok
	if t.Kind == KindCSI {
		clear(t.Param[:min(int(d.np)+1, MaxParams)])
	}
	if t.NPrefix > 0 || t.Payload > 0 {
		clear(t.Prefix[:])
	}
	t.Off, t.Len, t.Kind, t.Intro, t.Flags, t.Abort, t.Term = off, 0, kind, intro, 0, AbortNone, TermNone
	t.Final, t.Private, t.Inter, t.NInter = 0, 0, [MaxIntermediate]byte{}, 0
	t.NParam, t.ParamCount, t.Sub = 0, 0, 0
	t.Command, t.Payload, t.NPrefix, t.Rune = -1, 0, 0, 0
	d.pos = off
	d.body, d.done = off+introLen, off+introLen
	d.cs, d.np, d.anyParam = csiEntry, 0, false
	d.cmdDone = kind != KindOSC
	d.pendingC2 = false
	d.overlong = d.MaxPayload
	if d.overlong <= 0 {
		d.overlong = DefaultMaxPayload
	}
}

// read reads the open token's bytes up to offset to (exclusive) that are
// not read yet; p holds the bytes from offset base.
func (d *Decoder) read(p []byte, base, to int64) {
	from := d.done
	if from >= to {
		return
	}
	d.done = to
	if d.pendingC2 {
		// The C2 that ended the last Feed is payload after all.
		d.pendingC2 = false
		d.payloadBytes([]byte{0xC2}, from-d.body)
		from++
	}
	if from >= to {
		return
	}
	b := p[from-base : to-base]
	switch k := d.tok.Kind; {
	case k == KindESC:
		d.escapeBytes(b)
	case k == KindCSI:
		d.csiBytes(b)
	default:
		d.payloadBytes(b, from-d.body)
	}
}

// abort ends the open token at end, cut short by a.
func (d *Decoder) abort(p []byte, base int64, a Abort, end int64, out *sink) {
	d.read(p, base, end)
	d.tok.Flags |= FlagAborted
	d.tok.Abort = a
	d.finish(end, end, out)
}

// terminate ends the open control string with term, which runs from
// termOff to end.
func (d *Decoder) terminate(p []byte, base int64, term Term, termOff, end int64, out *sink) {
	d.read(p, base, termOff)
	d.tok.Term = term
	d.finish(termOff, end, out)
}

// finish ends the token in progress at end (exclusive), its body at
// bodyEnd, and emits it.
func (d *Decoder) finish(bodyEnd, end int64, out *sink) {
	t := &d.tok
	t.Len = end - t.Off
	switch {
	case t.Kind == KindCSI && d.anyParam:
		t.ParamCount = d.np + 1
		if d.np == 0xFFFF {
			t.ParamCount = 0xFFFF
		}
		t.NParam = uint8(min(int(t.ParamCount), MaxParams))
	case t.Kind.IsString():
		t.Payload = max(bodyEnd-d.body, 0)
		t.NPrefix = uint8(min(int64(t.NPrefix), t.Payload))
		if t.Payload > d.overlong {
			t.Flags |= FlagOverlong
		}
	}
	d.pos = end
	out.put(t)
}

// sink is where the builder puts tokens: a callback (Feed), or a batch
// that is handed over when full (FeedBatch).
type sink struct {
	emit  func(*Token)
	buf   []Token
	n     int
	flush func([]Token)
}

// put passes on t, or a copy of it in the batch.
func (s *sink) put(t *Token) {
	if s.emit != nil {
		s.emit(t)
		return
	}
	s.buf[s.n] = *t
	if s.n++; s.n == len(s.buf) {
		s.drain()
	}
}

// drain hands over the batch.
func (s *sink) drain() {
	if s.n > 0 {
		s.flush(s.buf[:s.n])
		s.n = 0
	}
}
