package decode

// The control sequence states, ECMA-48 5.4: CSI P… I… F, with parameter
// bytes P in 0x30–0x3F, intermediate bytes I in 0x20–0x2F and a final
// byte F in 0x40–0x7E. Each state reads the bytes of its row of the DEC
// diagram; a final byte dispatches the sequence from every state
// (dispatchCSI), and the other bytes that every CSI state treats alike
// (DEL, C0 controls, non-ASCII bytes) go to csiAnywhere.

// csiEntry handles the first byte after the introducer (9B, C2 9B or ESC
// [): a private marker 0x3C–0x3F is kept and enters csi_param, as does a
// digit or separator (read again there), and an intermediate enters
// csi_intermediate. DEC parser state: csi_entry.
func (d *Decoder) csiEntry(p []byte, i int, base int64, emit func(*Token)) int {
	if i == len(p) { // escape goes on here after ESC [ at the end of p
		return i
	}
	switch b := p[i]; {
	case b >= '0' && b <= ';':
		d.state = stateCSIParam
		return d.csiParam(p, i, base, emit)
	case b >= '<' && b <= '?':
		d.tok.Private = b
		d.state = stateCSIParam
		return d.csiParam(p, i+1, base, emit)
	case b >= 0x20 && b <= 0x2F:
		d.collect(b)
		d.state = stateCSIIntermediate
		return d.csiIntermediate(p, i+1, base, emit)
	case b >= 0x40 && b <= 0x7E:
		return d.dispatchCSI(p, i, base, emit)
	}
	i, _ = d.csiAnywhere(p, i, base, emit)
	return i
}

// csiParam reads parameters: digits accumulate into the current one
// (saturating at MaxParamValue, FlagOverflow), ';' and ':' (an ITU T.416
// sub-parameter) start the next one (past MaxParams they are counted
// only, FlagOverflow). A private marker here makes the sequence malformed
// (csi_ignore); an intermediate enters csi_intermediate. DEC parser state:
// csi_param; ECMA-48 5.4.2.
func (d *Decoder) csiParam(p []byte, i int, base int64, emit func(*Token)) int {
	t := &d.tok
	for i < len(p) {
		switch b := p[i]; {
		case b >= '0' && b <= '9':
			d.anyParam = true
			if d.np >= MaxParams {
				i = d.skipParams(p, i)
				continue
			}
			v := uint32(t.Param[d.np])
			for ; i < len(p) && p[i] >= '0' && p[i] <= '9'; i++ {
				v = v*10 + uint32(p[i]-'0')
				if v > MaxParamValue {
					v = MaxParamValue
					t.Flags |= FlagOverflow
				}
			}
			t.Param[d.np] = uint16(v)
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
			i++
		case b >= 0x40 && b <= 0x7E:
			return d.dispatchCSI(p, i, base, emit)
		case b >= '<' && b <= '?':
			t.Flags |= FlagMalformed
			d.state = stateCSIIgnore
			return d.csiIgnore(p, i+1, base, emit)
		case b >= 0x20 && b <= 0x2F:
			d.collect(b)
			d.state = stateCSIIntermediate
			return d.csiIntermediate(p, i+1, base, emit)
		default:
			var stay bool
			if i, stay = d.csiAnywhere(p, i, base, emit); !stay {
				return i
			}
		}
	}
	return i
}

// skipParams reads digits, ';' and ':' from p[i:] past the stored
// parameters (MaxParams): the digits are not stored and the separators
// only counted, so that an overlong parameter list is skipped in one tight
// loop. It returns the index of the first other byte.
func (d *Decoder) skipParams(p []byte, i int) int {
	for ; i < len(p) && p[i] >= '0' && p[i] <= ';'; i++ {
		if p[i] >= ':' && d.np < 0xFFFF {
			d.np++
		}
	}
	return i
}

// extendParams is Extend in csi_param past MaxParams: it counts the
// separators of p when all of it is digits and separators (skipParams).
func (d *Decoder) extendParams(p []byte) bool {
	np := d.np
	if d.skipParams(p, 0) != len(p) {
		d.np = np
		return false
	}
	return true
}

// dispatchCSI ends the sequence with its final byte p[i] and returns the
// index after it.
func (d *Decoder) dispatchCSI(p []byte, i int, base int64, emit func(*Token)) int {
	d.tok.Final = p[i]
	d.finish(base+int64(i)+1, emit)
	return i + 1
}

// csiIntermediate collects intermediates; a parameter byte after one makes
// the sequence malformed (csi_ignore). DEC parser state: csi_intermediate.
func (d *Decoder) csiIntermediate(p []byte, i int, base int64, emit func(*Token)) int {
	for i < len(p) {
		switch b := p[i]; {
		case b >= 0x20 && b <= 0x2F:
			d.collect(b)
			i++
		case b >= 0x30 && b <= 0x3F:
			d.tok.Flags |= FlagMalformed
			d.state = stateCSIIgnore
			return d.csiIgnore(p, i+1, base, emit)
		case b >= 0x40 && b <= 0x7E:
			return d.dispatchCSI(p, i, base, emit)
		default:
			var stay bool
			if i, stay = d.csiAnywhere(p, i, base, emit); !stay {
				return i
			}
		}
	}
	return i
}

// csiIgnore consumes a malformed sequence (FlagMalformed) up to its final
// byte: parameter and intermediate bytes are ignored. The sequence is
// emitted, not dropped. DEC parser state: csi_ignore.
func (d *Decoder) csiIgnore(p []byte, i int, base int64, emit func(*Token)) int {
	for i < len(p) {
		switch b := p[i]; {
		case b >= 0x20 && b <= 0x3F:
			i++
		case b >= 0x40 && b <= 0x7E:
			return d.dispatchCSI(p, i, base, emit)
		default:
			var stay bool
			if i, stay = d.csiAnywhere(p, i, base, emit); !stay {
				return i
			}
		}
	}
	return i
}

// csiAnywhere handles a byte that every CSI state treats alike (DEL, a C0,
// a byte >= 0x80) and returns the index of the next byte and whether the
// sequence stays in its state: DEL is ignored as in the DEC parser, a C0
// is executed (execute), and a byte >= 0x80 aborts the sequence: a C1
// introducer (raw or UTF-8) starts its own sequence, as the DEC parser's
// "anywhere" transitions do; any other character (or invalid unit) is
// dropped with the CSI, read to its end in csi_abort_char.
func (d *Decoder) csiAnywhere(p []byte, i int, base int64, emit func(*Token)) (int, bool) {
	b := p[i]
	off := base + int64(i)
	switch {
	case b == 0x7F:
		return i + 1, true
	case b < 0x20:
		n, stay := d.execute(b, off, emit)
		return i + n, stay
	case b <= 0x9F && !d.LoneC1:
		d.abort(AbortC1, off, emit) // the C1 is read again in ground
		return i, false
	case b >= 0xC2 && b <= 0xF4:
		d.beginUnit(b, off)
		d.state = stateCSIAbortChar
		return d.csiAbortChar(p, i+1, base, emit), false
	}
	// A byte that starts no character: an invalid unit by itself.
	d.abort(AbortNonASCII, off+1, emit)
	return i + 1, false
}

// csiAbortChar reads the rest of the UTF-8 character whose lead byte
// aborted a CSI: C2 80–C2 9F is a C1 control, which aborts the CSI before
// it and is executed or starts its own sequence; a whole character, or
// the maximal subpart of an ill-formed one, is dropped with the CSI
// (AbortNonASCII). Decoder state csi_abort_char, an addition to the DEC
// diagram, which has no UTF-8.
func (d *Decoder) csiAbortChar(p []byte, i int, base int64, emit func(*Token)) int {
	for ; i < len(p); i++ {
		b := p[i]
		if d.unitLead == 0xC2 && b <= 0x9F && b >= 0x80 {
			d.abort(AbortC1, d.unitOff, emit)
			d.c1(b, IntroUTF8, d.unitOff, 2, emit)
			return i + 1
		}
		if !d.unitTakes(b) {
			d.abort(AbortNonASCII, base+int64(i), emit) // b is read again in ground
			return i
		}
		if d.unitRem == 0 {
			d.abort(AbortNonASCII, base+int64(i)+1, emit)
			return i + 1
		}
	}
	return i
}
