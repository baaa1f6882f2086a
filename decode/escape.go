package decode

// escape handles the byte after ESC. An intermediate 0x20–0x2F is
// collected and enters escape_intermediate; a final byte 0x30–0x7E either
// introduces a sequence or string in its 7-bit spelling (ESC [ csi_entry,
// ESC ] osc, ESC P dcs, ESC X sos, ESC ^ pm, ESC _ apc, and ESC k, the GNU
// screen title) or dispatches a two-byte escape (KindESC). DEC parser
// state: escape; ECMA-48 5.3 (Fe, Fp, Fs).
func (d *Decoder) escape(p []byte, i int, base int64, emit func(*Token)) int {
	b := p[i]
	switch {
	case b >= 0x20 && b <= 0x2F:
		d.collect(b)
		d.state = stateEscapeIntermediate
		return i + 1
	case b >= 0x30 && b <= 0x7E:
		switch kind := escIntroduces(b); kind {
		case KindESC:
			d.dispatchEscape(b, base+int64(i), emit)
			return i + 1
		case KindCSI:
			// The sequence goes on in this call: it ends in ground
			// without a trip through Feed.
			d.introduced(kind)
			return d.csiEntry(p, i+1, base, emit)
		default:
			d.introduced(kind)
			return i + 1
		}
	}
	return i + d.escapeExecute(b, base+int64(i), emit)
}

// escapeIntermediate handles a byte after ESC and an intermediate: more
// intermediates are collected, a final byte 0x30–0x7E dispatches the
// escape as KindNF. DEC parser state: escape_intermediate; ECMA-35 13.2
// (nF escape sequences: ESC ( B, ESC # 8, ESC SP F).
func (d *Decoder) escapeIntermediate(p []byte, i int, base int64, emit func(*Token)) int {
	b := p[i]
	switch {
	case b >= 0x20 && b <= 0x2F:
		d.collect(b)
		return i + 1
	case b >= 0x30 && b <= 0x7E:
		d.tok.Kind = KindNF
		d.dispatchEscape(b, base+int64(i), emit)
		return i + 1
	}
	return i + d.escapeExecute(b, base+int64(i), emit)
}

// escapeExecute handles the bytes both escape states treat alike and
// returns how many it consumed: a C0 is executed (execute), DEL is
// ignored as in the DEC parser, and a non-ASCII byte aborts the escape
// and is read again in ground.
func (d *Decoder) escapeExecute(b byte, off int64, emit func(*Token)) int {
	switch {
	case b < 0x20:
		n, _ := d.execute(b, off, emit)
		return n
	case b == 0x7F:
		return 1
	}
	d.abort(AbortNonASCII, off, emit)
	return 0
}

// dispatchEscape ends the escape in progress with its final byte b at off.
func (d *Decoder) dispatchEscape(b byte, off int64, emit func(*Token)) {
	d.tok.Final = b
	d.finish(off+1, emit)
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

// collect stores an intermediate byte 0x20–0x2F of an escape or CSI; past
// MaxIntermediate the token is flagged FlagOverflow.
func (d *Decoder) collect(b byte) {
	t := &d.tok
	if t.NInter < MaxIntermediate {
		t.Inter[t.NInter] = b
		t.NInter++
	} else {
		t.Flags |= FlagOverflow
	}
}
