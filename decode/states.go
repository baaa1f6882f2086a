package decode

// begin starts a token of kind at off.
func (d *Decoder) begin(kind Kind, intro Intro, off int64) {
	d.tok = Token{Off: off, Kind: kind, Intro: intro, Command: -1}
	d.np = 0
	d.anyParam = false
}

// finish ends the token in progress at end (exclusive), emits it and
// returns to ground.
func (d *Decoder) finish(end int64, emit func(*Token)) {
	t := &d.tok
	t.Len = end - t.Off
	if t.Kind == KindCSI && d.anyParam {
		t.ParamCount = d.np + 1
		if d.np == 0xFFFF {
			t.ParamCount = 0xFFFF
		}
		t.NParam = uint8(min(int(t.ParamCount), MaxParams))
	}
	if t.Kind.IsString() && t.Payload > d.overlong {
		t.Flags |= FlagOverlong
	}
	d.state = stateGround
	emit(t)
}

// abort ends the token in progress just before off, cut short by a.
func (d *Decoder) abort(a Abort, off int64, emit func(*Token)) {
	d.tok.Flags |= FlagAborted
	d.tok.Abort = a
	d.finish(off, emit)
}

// sequenceC0 handles a C0 byte b at off inside an escape or CSI, as the
// DEC parser's "anywhere" and "execute" transitions do: CAN and SUB abort
// the sequence and are then handled in ground, ESC aborts it and starts a
// new escape, any other C0 is executed in place (an embedded token) and
// the sequence goes on. It returns how many bytes it consumed (0 or 1).
func (d *Decoder) sequenceC0(b byte, off int64, emit func(*Token)) int {
	switch b {
	case 0x18, 0x1A:
		d.abort(abortFor(b), off, emit)
		return 0
	case 0x1B:
		d.abort(AbortESC, off, emit)
		d.begin(KindESC, Intro7Bit, off)
		d.state = stateEscape
		return 1
	}
	kind := KindC0
	if b == '\t' || b == '\n' {
		kind = KindText
	}
	d.single(emit, kind, off, 1, b, IntroNone, FlagEmbedded, 0)
	return 1
}

func abortFor(b byte) Abort {
	if b == 0x18 {
		return AbortCAN
	}
	return AbortSUB
}

// escape handles one byte after ESC. DEC parser states: escape, escape
// intermediate; ECMA-48 5.3 (escape sequences), ECMA-35 13.2 (nF).
func (d *Decoder) escape(p []byte, i int, base int64, emit func(*Token)) int {
	b := p[i]
	off := base + int64(i)
	switch {
	case b < 0x20:
		return i + d.sequenceC0(b, off, emit)
	case b == 0x7F:
		return i + 1 // ignored, as in the DEC parser
	case b >= 0x80:
		// A non-ASCII byte aborts the escape and is read again in ground.
		d.abort(AbortNonASCII, off, emit)
		return i
	case b < 0x30:
		d.intermediate(b)
		d.state = stateEscapeIntermediate
		return i + 1
	}
	if d.state == stateEscape {
		// The sequence or string goes on in this call: a sequence ends in
		// ground without a trip through Feed.
		if kind := escIntroduces(b); kind != KindESC {
			d.tok.Kind = kind
			if kind == KindCSI {
				d.state = stateCSIParam
				return d.csi(p, i+1, base, emit)
			}
			d.beginString()
			return d.str(p, i+1, base, emit)
		}
	}
	d.tok.Final = b
	if d.tok.NInter > 0 || d.tok.Flags&FlagOverflow != 0 {
		d.tok.Kind = KindNF
	}
	d.finish(off+1, emit)
	return i + 1
}

// escIntroduces returns what ESC b introduces (ECMA-48 5.3: the 7-bit
// spelling of a C1 introducer), or KindESC for a two-byte escape.
func escIntroduces(b byte) Kind {
	switch b {
	case '[':
		return KindCSI
	case ']':
		return KindOSC
	case 'P':
		return KindDCS
	case 'X':
		return KindSOS
	case '^':
		return KindPM
	case '_':
		return KindAPC
	case 'k':
		return KindScreenTitle
	}
	return KindESC
}

// intermediate stores an intermediate byte 0x20–0x2F.
func (d *Decoder) intermediate(b byte) {
	t := &d.tok
	if t.NInter < MaxIntermediate {
		t.Inter[t.NInter] = b
		t.NInter++
	} else {
		t.Flags |= FlagOverflow
	}
}

// csi consumes control sequence bytes from p[i:]. DEC parser states: CSI
// entry, CSI param, CSI intermediate, CSI ignore; ECMA-48 5.4.
func (d *Decoder) csi(p []byte, i int, base int64, emit func(*Token)) int {
	for ; i < len(p); i++ {
		if d.np >= MaxParams && d.state == stateCSIParam {
			// Past the stored parameters only separators count: digits,
			// ':' and ';' in a tight loop.
			for ; i < len(p) && p[i] >= '0' && p[i] <= ';'; i++ {
				if p[i] >= ':' && d.np < 0xFFFF {
					d.np++
				}
			}
			if i == len(p) {
				break
			}
		}
		b := p[i]
		switch {
		case b >= 0x40 && b <= 0x7E:
			d.tok.Final = b
			d.finish(base+int64(i)+1, emit)
			return i + 1
		case b >= '0' && b <= '9' && d.state == stateCSIParam && d.np < MaxParams:
			// The common case of param, inline: the digits that follow
			// accumulate in a register.
			d.anyParam = true
			v := uint32(d.tok.Param[d.np])
			for {
				v = v*10 + uint32(b-'0')
				if v > MaxParamValue {
					v = MaxParamValue
					d.tok.Flags |= FlagOverflow
				}
				if i+1 == len(p) || p[i+1] < '0' || p[i+1] > '9' {
					break
				}
				i++
				b = p[i]
			}
			d.tok.Param[d.np] = uint16(v)
		case b >= 0x30 && b <= 0x3F:
			d.param(b)
		case b >= 0x20 && b <= 0x2F:
			if d.state != stateCSIIgnore {
				d.intermediate(b)
				d.state = stateCSIIntermediate
			}
		case b == 0x7F:
			// ignored, as in the DEC parser
		case b < 0x20:
			n := d.sequenceC0(b, base+int64(i), emit)
			if d.state != stateCSIParam && d.state != stateCSIIntermediate && d.state != stateCSIIgnore {
				return i + n
			}
		default:
			return d.csiNonASCII(p, i, base, emit)
		}
	}
	return i
}

// param handles a parameter byte 0x30–0x3F of a CSI: digits, ';' and ':'
// separators (ECMA-48 5.4.2, ITU T.416 sub-parameters) and a private marker
// 0x3C–0x3F in first position. Any parameter byte after an intermediate,
// or a marker elsewhere, makes the sequence malformed.
func (d *Decoder) param(b byte) {
	t := &d.tok
	if d.state != stateCSIParam {
		t.Flags |= FlagMalformed
		d.state = stateCSIIgnore
		return
	}
	switch {
	case b <= '9':
		d.anyParam = true
		if d.np < MaxParams {
			v := uint32(t.Param[d.np])*10 + uint32(b-'0')
			if v > MaxParamValue {
				v = MaxParamValue
				t.Flags |= FlagOverflow
			}
			t.Param[d.np] = uint16(v)
		}
	case b == ';' || b == ':':
		d.anyParam = true
		if d.np < 0xFFFF {
			d.np++
		}
		if d.np >= MaxParams {
			t.Flags |= FlagOverflow
		} else if b == ':' {
			t.Sub |= 1 << d.np
		}
	default: // '<' '=' '>' '?'
		if !d.anyParam && t.Private == 0 {
			t.Private = b
			return
		}
		t.Flags |= FlagMalformed
		d.state = stateCSIIgnore
	}
}

// csiNonASCII handles a byte >= 0x80 inside a CSI. A C1 introducer (raw
// or UTF-8) aborts the CSI and starts its own sequence, as the DEC
// parser's "anywhere" transitions do. Any other character (or invalid
// unit) aborts the CSI and is dropped with it.
func (d *Decoder) csiNonASCII(p []byte, i int, base int64, emit func(*Token)) int {
	off := base + int64(i)
	r, size, cls := decodeUTF8(p[i:])
	switch cls {
	case utfC1:
		d.abort(AbortC1, off, emit)
		return i
	case utfRawC1:
		if !d.LoneC1 {
			d.abort(AbortC1, off, emit)
			return i
		}
	case utfShort:
		d.state = stateCSIAbortChar
		d.saveUTF8(p[i:], off)
		return len(p)
	}
	d.state = stateCSIAbortChar
	return i + d.unit(r, size, cls, off, emit)
}

// beginString enters a control string after its introducer.
func (d *Decoder) beginString() {
	d.state = stateString
	d.cmdDone = d.tok.Kind != KindOSC
	d.strRem = 0
	d.overlong = d.MaxPayload
	if d.overlong <= 0 {
		d.overlong = DefaultMaxPayload
	}
}

// payloadByte counts b as payload, keeping the prefix and the OSC number.
func (d *Decoder) payloadByte(b byte) {
	d.keepPayload(b)
	if d.cmdDone {
		return
	}
	switch {
	case b >= '0' && b <= '9':
		v := int64(max(d.tok.Command, 0))*10 + int64(b-'0')
		d.tok.Command = int32(min(v, 1<<30))
	case b == ';':
		d.cmdDone = true
	default:
		d.endCommand()
	}
}

// keepPayload counts b as payload and keeps it in the prefix.
func (d *Decoder) keepPayload(b byte) {
	t := &d.tok
	if t.Payload < PrefixLen {
		t.Prefix[t.Payload] = b
		t.NPrefix++
	}
	t.Payload++
}

// endCommand ends the OSC number at a byte that is neither a digit nor
// ';': the string has no number.
func (d *Decoder) endCommand() { d.tok.Command, d.cmdDone = -1, true }

// str consumes control string bytes from p[i:]. DEC parser states: OSC
// string, DCS passthrough, SOS/PM/APC string; ECMA-48 5.6, 8.3.89; xterm
// ctlseqs (BEL ends OSC). See DESIGN.md for which terminator ends which
// string.
func (d *Decoder) str(p []byte, i int, base int64, emit func(*Token)) int {
	t := &d.tok
	for i < len(p) {
		if d.strRem == 0 && d.cmdDone {
			j := plainPayload(p, i)
			if t.Payload < PrefixLen {
				t.NPrefix += uint8(copy(t.Prefix[t.Payload:], p[i:j]))
			}
			t.Payload += int64(j - i)
			if i = j; i >= len(p) {
				break
			}
		}
		b := p[i]
		if d.strRem > 0 {
			if d.strLead == 0xC2 && !d.cmdDone && (b != 0x9C || !d.c1Terminates()) {
				d.endCommand()
			}
			if b >= d.strLo && b <= d.strHi {
				if d.strLead == 0xC2 && b == 0x9C {
					// U+009C, the UTF-8 spelling of C1 ST: the C2 was
					// counted as payload, it belongs to the terminator.
					d.strRem = 0
					if d.c1Terminates() {
						t.Payload--
						if int64(t.NPrefix) > t.Payload {
							t.NPrefix--
							t.Prefix[t.NPrefix] = 0
						}
						t.Term = TermC1
						d.finish(base+int64(i)+1, emit)
						return i + 1
					}
					t.Flags |= FlagAmbiguous
				}
				d.strRem--
				d.strLo, d.strHi = 0x80, 0xBF
				d.payloadByte(b)
				i++
				continue
			}
			d.strRem = 0
		}
		switch {
		case b >= 0x20 && b < 0x7F:
			d.payloadByte(b)
		case b == 0x1B:
			d.escOff = base + int64(i)
			d.state = stateStringEsc
			return i + 1
		case b == 0x18 || b == 0x1A:
			d.abort(abortFor(b), base+int64(i), emit)
			return i
		case b == 0x07 && (t.Kind == KindOSC || t.Kind == KindScreenTitle || t.Kind == KindAPC && d.APCBEL):
			t.Term = TermBEL
			d.finish(base+int64(i)+1, emit)
			return i + 1
		case b >= 0xC2 && b <= 0xF4:
			d.strLead = b
			d.strRem, d.strLo, d.strHi = utf8Lead(b)
			if b == 0xC2 && !d.cmdDone {
				// It may be the first byte of U+009C, which would end the
				// string and the OSC number with it: the next byte settles it.
				d.keepPayload(b)
			} else {
				d.payloadByte(b)
			}
		case b == 0x9C && !d.LoneC1:
			if d.c1Terminates() {
				t.Term = TermC1
				d.finish(base+int64(i)+1, emit)
				return i + 1
			}
			t.Flags |= FlagAmbiguous
			d.payloadByte(b)
		default:
			d.payloadByte(b)
		}
		i++
	}
	return i
}

// plainPayload returns the end of the run of payload from p[i:] that needs
// no decision: bytes marked in strPlain, and UTF-8 units (whole or a
// maximal subpart of an ill-formed one) that are not U+009C and are not
// cut by the end of p. str handles what stops it, as the byte-at-a-time
// path does.
func plainPayload(p []byte, i int) int {
	for i < len(p) {
		b := p[i]
		if b >= 0x20 && b < 0x7F {
			// Printable ASCII (base64 in OSC 52, sixel data), eight bytes
			// at a time.
			i = skipPrintable(p, i+1)
			continue
		}
		if strPlain[b] {
			i++
			continue
		}
		if b < 0xC2 || b > 0xF4 {
			return i
		}
		n, lo, hi := utf8Lead(b)
		k := 1
		for ; k <= int(n) && i+k < len(p) && p[i+k] >= lo && p[i+k] <= hi; k++ {
			if b == 0xC2 && p[i+k] == 0x9C {
				return i
			}
			lo, hi = 0x80, 0xBF
		}
		if k <= int(n) && i+k == len(p) {
			return i // cut by the end of p: carried to the next Feed
		}
		i += k
	}
	return i
}

// strPlain marks the bytes that are payload in every control string when
// no UTF-8 unit is open: all but ESC, CAN, SUB, BEL, the UTF-8 lead bytes
// C2–F4 and 9C (C1 ST).
var strPlain = func() (t [256]bool) {
	for b := range t {
		t[b] = true
	}
	for _, b := range []byte{0x1B, 0x18, 0x1A, 0x07, 0x9C} {
		t[b] = false
	}
	for b := 0xC2; b <= 0xF4; b++ {
		t[b] = false
	}
	return t
}()

// c1Terminates reports whether C1 ST ends the string in progress: only a
// string that a C1 introducer opened (xterm in UTF-8 mode, kitty and
// alacritty keep an ESC-opened string open).
func (d *Decoder) c1Terminates() bool { return d.tok.Intro != Intro7Bit }

// stringEsc handles the byte after an ESC inside a control string: '\'
// completes ST (ECMA-48 8.3.143); anything else aborts the string, and the
// ESC starts a new escape.
func (d *Decoder) stringEsc(p []byte, i int, base int64, emit func(*Token)) int {
	if p[i] == '\\' {
		d.tok.Term = TermST
		d.finish(base+int64(i)+1, emit)
		return i + 1
	}
	d.abort(AbortESC, d.escOff, emit)
	d.begin(KindESC, Intro7Bit, d.escOff)
	d.state = stateEscape
	return i
}
