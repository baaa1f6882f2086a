package decode

// refDecoder is the slow reference: the grammar of DESIGN.md ("decode: the
// shared parser") transcribed byte by byte, with no tables, no fast paths
// and no Feed boundaries (it sees the whole input). FuzzReference holds
// the Decoder to it token for token. Text runs are maximal and carry no
// Rune, as coalesce leaves the Decoder's.
type refDecoder struct {
	lone, apcBEL bool
	maxPayload   int64

	out  []Token
	p    []byte
	st   refState
	text int64 // start of the pending text, or -1
	tok  Token

	// CSI
	np       uint16
	anyParam bool
	// control strings
	cmdDone   bool
	pendingC2 bool // a C2 in the payload, waiting for the next byte
	// a UTF-8 unit: its start and what it still expects
	uStart int64
	u      refUnit
	inUnit bool
}

// refUnit is a UTF-8 unit in progress (Unicode 15 Table 3-7): need
// continuation bytes still expected, the next one in lo–hi.
type refUnit struct {
	need   uint8
	lo, hi byte
	c2     bool // the lead is C2: U+0080–U+009F are C1 controls
}

// advance returns u after one more continuation byte.
func (u refUnit) advance() refUnit {
	u.need--
	u.lo, u.hi = 0x80, 0xBF
	return u
}

type refState uint8

const (
	refGround refState = iota
	refEscape
	refEscapeIntermediate
	refCSIEntry
	refCSIParam
	refCSIIntermediate
	refCSIIgnore
	refString
	refStringEsc
)

func refTokens(p []byte, lone, apcBEL bool, maxPayload int64) []Token {
	r := &refDecoder{lone: lone, apcBEL: apcBEL, maxPayload: maxPayload, p: p, text: -1}
	if r.maxPayload <= 0 {
		r.maxPayload = DefaultMaxPayload
	}
	for i := range p {
		for !r.step(int64(i)) {
		}
	}
	r.end(int64(len(p)))
	return r.out
}

func (r *refDecoder) emit(t Token) {
	if t.Kind != KindText || !t.Is(FlagEmbedded) {
		r.flushText(t.Off)
	}
	r.out = append(r.out, t)
}

func (r *refDecoder) flushText(at int64) {
	if r.text >= 0 && at > r.text {
		r.out = append(r.out, Token{Off: r.text, Len: at - r.text, Kind: KindText, Command: -1})
	}
	r.text = -1
}

func (r *refDecoder) single(kind Kind, off, n int64, final byte, intro Intro, rn rune) {
	r.emit(Token{Off: off, Len: n, Kind: kind, Final: final, Intro: intro, Rune: rn, Command: -1})
}

func (r *refDecoder) begin(kind Kind, intro Intro, off int64) {
	r.flushText(off)
	r.tok = Token{Off: off, Kind: kind, Intro: intro, Command: -1}
	r.np, r.anyParam, r.cmdDone, r.pendingC2, r.inUnit = 0, false, kind != KindOSC, false, false
	switch {
	case kind == KindCSI:
		r.st = refCSIEntry
	case kind.IsString():
		r.st = refString
	default:
		r.st = refEscape
	}
}

// finish ends the token in progress at end.
func (r *refDecoder) finish(end int64) {
	t := r.tok
	t.Len = end - t.Off
	if t.Kind == KindCSI && r.anyParam {
		t.ParamCount = r.np + 1
		if r.np == 0xFFFF {
			t.ParamCount = 0xFFFF
		}
		t.NParam = uint8(min(int(t.ParamCount), MaxParams))
	}
	if t.Kind.IsString() {
		t.NPrefix = uint8(min(int64(PrefixLen), t.Payload))
		if t.Payload > r.maxPayload {
			t.Flags |= FlagOverlong
		}
	}
	r.st, r.inUnit = refGround, false
	r.emit(t)
	r.text = -1
}

func (r *refDecoder) abort(a Abort, end int64) {
	r.tok.Flags |= FlagAborted
	r.tok.Abort = a
	r.finish(end)
}

func (r *refDecoder) end(n int64) {
	switch {
	case r.st == refGround && r.inUnit:
		r.single(KindInvalid, r.uStart, n-r.uStart, 0, IntroNone, 0)
	case r.st >= refCSIEntry && r.st <= refCSIIgnore && r.inUnit:
		r.abort(AbortNonASCII, n)
		return
	case r.st != refGround:
		if r.st == refStringEsc {
			r.tok.Final = 0x1B
		}
		if r.pendingC2 {
			r.payload(0xC2)
		}
		r.tok.Flags |= FlagUnterminated
		r.finish(n)
		return
	}
	r.flushText(n)
}

// step handles the byte at i and reports whether it was consumed.
func (r *refDecoder) step(i int64) bool {
	b := r.p[i]
	switch r.st {
	case refGround:
		return r.ground(i, b)
	case refEscape, refEscapeIntermediate:
		return r.escape(i, b)
	case refString:
		return r.str(i, b)
	case refStringEsc:
		if b == '\\' {
			r.tok.Term = TermST
			r.finish(i + 1)
			return true
		}
		escOff := i - 1
		r.abort(AbortESC, escOff)
		r.begin(KindESC, Intro7Bit, escOff)
		return false
	}
	return r.csi(i, b)
}

// c1 handles C1 code c spelled intro at off (size bytes).
func (r *refDecoder) c1(c byte, intro Intro, off, size int64) {
	kind := KindC1
	if intro != Intro8Bit || !r.lone {
		switch c {
		case 0x9B:
			kind = KindCSI
		case 0x9D:
			kind = KindOSC
		case 0x90:
			kind = KindDCS
		case 0x98:
			kind = KindSOS
		case 0x9E:
			kind = KindPM
		case 0x9F:
			kind = KindAPC
		}
	}
	if kind == KindC1 {
		r.single(KindC1, off, size, c, intro, 0)
		return
	}
	r.begin(kind, intro, off)
}

func (r *refDecoder) startUnit(i int64, b byte) {
	n, lo, hi := utf8Lead(b)
	r.uStart, r.u, r.inUnit = i, refUnit{need: n, lo: lo, hi: hi, c2: b == 0xC2}, true
}

func (r *refDecoder) ground(i int64, b byte) bool {
	if r.inUnit {
		u := r.u
		switch {
		case u.c2 && b >= 0x80 && b <= 0x9F:
			r.inUnit = false
			r.c1(b, IntroUTF8, r.uStart, 2)
		case b < u.lo || b > u.hi:
			r.inUnit = false
			r.single(KindInvalid, r.uStart, i-r.uStart, 0, IntroNone, 0)
			return false
		case u.need > 1:
			r.u = u.advance()
		default:
			r.inUnit = false
			rn, _, cls := decodeUTF8(r.p[r.uStart : i+1])
			if cls == utfFormat {
				r.single(KindFormat, r.uStart, i+1-r.uStart, 0, IntroNone, rn)
			} else if r.text < 0 {
				r.text = r.uStart
			}
		}
		return true
	}
	switch {
	case b >= 0x20 && b < 0x7F || b == '\t' || b == '\n':
		if r.text < 0 {
			r.text = i
		}
	case b == 0x1B:
		r.begin(KindESC, Intro7Bit, i)
	case b < 0x20:
		r.single(KindC0, i, 1, b, IntroNone, 0)
	case b == 0x7F:
		r.single(KindDEL, i, 1, b, IntroNone, 0)
	case b <= 0x9F:
		r.c1(b, Intro8Bit, i, 1)
	case b < 0xC2 || b > 0xF4:
		r.single(KindInvalid, i, 1, 0, IntroNone, 0)
	default:
		r.startUnit(i, b)
	}
	return true
}

// inSequence handles C0, DEL and ESC inside an escape or CSI; ok is false
// when b is none of them.
func (r *refDecoder) inSequence(i int64, b byte) (consumed, ok bool) {
	switch {
	case b == 0x18 || b == 0x1A:
		r.abort(abortFor(b), i)
		return false, true
	case b == 0x1B:
		r.abort(AbortESC, i)
		r.begin(KindESC, Intro7Bit, i)
		return true, true
	case b == '\t' || b == '\n':
		r.out = append(r.out, Token{Off: i, Len: 1, Kind: KindText, Final: b, Flags: FlagEmbedded, Command: -1})
		return true, true
	case b < 0x20:
		r.out = append(r.out, Token{Off: i, Len: 1, Kind: KindC0, Final: b, Flags: FlagEmbedded, Command: -1})
		return true, true
	case b == 0x7F:
		return true, true
	}
	return false, false
}

func (r *refDecoder) escape(i int64, b byte) bool {
	if c, ok := r.inSequence(i, b); ok {
		return c
	}
	t := &r.tok
	switch {
	case b >= 0x80:
		r.abort(AbortNonASCII, i)
		return false
	case b < 0x30:
		if t.NInter < MaxIntermediate {
			t.Inter[t.NInter] = b
			t.NInter++
		} else {
			t.Flags |= FlagOverflow
		}
		r.st = refEscapeIntermediate
		return true
	}
	if r.st == refEscape {
		if k := escIntroduces(b); k != KindESC {
			r.tok.Kind = k
			r.cmdDone = k != KindOSC
			if k == KindCSI {
				r.st = refCSIEntry
			} else {
				r.st = refString
			}
			return true
		}
	}
	t.Final = b
	if t.NInter > 0 || t.Flags&FlagOverflow != 0 {
		t.Kind = KindNF
	}
	r.finish(i + 1)
	return true
}

func (r *refDecoder) csi(i int64, b byte) bool {
	t := &r.tok
	if r.inUnit {
		u := r.u
		switch {
		case u.c2 && b >= 0x80 && b <= 0x9F:
			r.abort(AbortC1, r.uStart)
			r.c1(b, IntroUTF8, i-1, 2)
		case b < u.lo || b > u.hi:
			r.abort(AbortNonASCII, i)
			return false
		case u.need > 1:
			r.u = u.advance()
		default:
			r.abort(AbortNonASCII, i+1)
		}
		return true
	}
	if c, ok := r.inSequence(i, b); ok {
		return c
	}
	switch {
	case b >= 0x40 && b <= 0x7E:
		t.Final = b
		r.finish(i + 1)
	case b >= 0x80 && b <= 0x9F && !r.lone:
		r.abort(AbortC1, i)
		return false
	case b >= 0x80 && (b < 0xC2 || b > 0xF4):
		r.abort(AbortNonASCII, i+1)
	case b >= 0x80:
		r.startUnit(i, b)
	case r.st == refCSIIgnore:
	case b < 0x30: // intermediate
		if r.st == refCSIEntry || r.st == refCSIParam || r.st == refCSIIntermediate {
			if t.NInter < MaxIntermediate {
				t.Inter[t.NInter] = b
				t.NInter++
			} else {
				t.Flags |= FlagOverflow
			}
			r.st = refCSIIntermediate
		}
	case r.st == refCSIIntermediate: // a parameter byte after an intermediate
		t.Flags |= FlagMalformed
		r.st = refCSIIgnore
	case b >= 0x3C: // private marker
		if r.st == refCSIEntry {
			t.Private = b
			r.st = refCSIParam
		} else {
			t.Flags |= FlagMalformed
			r.st = refCSIIgnore
		}
	case b <= '9':
		r.st, r.anyParam = refCSIParam, true
		if r.np < MaxParams {
			v := uint32(t.Param[r.np])*10 + uint32(b-'0')
			if v > MaxParamValue {
				v = MaxParamValue
				t.Flags |= FlagOverflow
			}
			t.Param[r.np] = uint16(v)
		}
	default: // ':' or ';'
		r.st, r.anyParam = refCSIParam, true
		if r.np < 0xFFFF {
			r.np++
		}
		if r.np >= MaxParams {
			t.Flags |= FlagOverflow
		} else if b == ':' {
			t.Sub |= 1 << r.np
		}
	}
	return true
}

// payload counts b as payload: prefix and OSC number.
func (r *refDecoder) payload(b byte) {
	t := &r.tok
	if t.Payload < PrefixLen {
		t.Prefix[t.Payload] = b
	}
	t.Payload++
	if r.cmdDone {
		return
	}
	switch {
	case b >= '0' && b <= '9':
		t.Command = int32(min(int64(max(t.Command, 0))*10+int64(b-'0'), 1<<30))
	case b == ';':
		r.cmdDone = true
	default:
		t.Command, r.cmdDone = -1, true
	}
}

func (r *refDecoder) str(i int64, b byte) bool {
	t := &r.tok
	c1Ends := t.Intro != Intro7Bit
	if r.inUnit {
		u := r.u
		if r.pendingC2 {
			r.pendingC2 = false
			if b == 0x9C && c1Ends {
				t.Term = TermC1
				r.finish(i + 1)
				return true
			}
			r.payload(0xC2)
		}
		switch {
		case b < u.lo || b > u.hi:
			r.inUnit = false
			return false
		case u.c2 && b == 0x9C:
			t.Flags |= FlagAmbiguous
		}
		r.payload(b)
		r.u = u.advance()
		r.inUnit = u.need > 1
		return true
	}
	switch {
	case b == 0x1B:
		r.st = refStringEsc
	case b == 0x18 || b == 0x1A:
		r.abort(abortFor(b), i)
		return false
	case b == 0x07 && (t.Kind == KindOSC || t.Kind == KindScreenTitle || t.Kind == KindAPC && r.apcBEL):
		t.Term = TermBEL
		r.finish(i + 1)
	case b == 0x9C && !r.lone && c1Ends:
		t.Term = TermC1
		r.finish(i + 1)
	case b == 0x9C && !r.lone:
		t.Flags |= FlagAmbiguous
		r.payload(b)
	case b >= 0xC2 && b <= 0xF4:
		r.startUnit(i, b)
		if b == 0xC2 {
			r.pendingC2 = true
		} else {
			r.payload(b)
		}
	default:
		r.payload(b)
	}
	return true
}
