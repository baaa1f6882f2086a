package decode

// escape is the DEC parser's escape state, the byte after ESC (ECMA-48
// 5.3): an introducer of a CSI or control string (ECMA-48 5.3, the 7-bit
// spelling of C1; ESC k for the screen title), an intermediate (ECMA-35
// 13.2, nF), or the final byte of a two-byte escape (Fe, Fp, Fs).
func escape(b byte, o options) step {
	switch {
	case b < 0x20 || b == 0x7F || b >= 0x80:
		return inSequence(b, sEscape)
	case b < 0x30:
		return to(sEscapeIntermediate)
	}
	if kind := escIntroduces(b); kind != KindESC {
		return to(opened(kind, Intro7Bit, o), op{code: opIntro})
	}
	return to(sGround, op{code: opEndFinal})
}

// escapeIntermediate is the DEC parser's escape intermediate state: more
// intermediates, then any byte 0x30–0x7E ends the nF sequence (ECMA-35
// 13.2: ESC ( B, ESC # 8, ESC SP F).
func escapeIntermediate(b byte) step {
	switch {
	case b < 0x20 || b == 0x7F || b >= 0x80:
		return inSequence(b, sEscapeIntermediate)
	case b < 0x30:
		return to(sEscapeIntermediate)
	}
	return to(sGround, op{code: opEndFinal})
}

// inSequence handles, in state s of an escape or CSI, the bytes the DEC
// diagram handles alike there: CAN and SUB abort the sequence and are then
// read in ground, ESC aborts it and starts a new escape (the "anywhere"
// transitions); any other C0 control is executed in place, an embedded
// token, and DEL is ignored (ECMA-48 5.3, 5.4). A non-ASCII byte aborts an
// escape and is read again in ground (csi has its own rule).
func inSequence(b byte, s stateDesc) step {
	switch {
	case b == 0x18 || b == 0x1A:
		return redo(sGround, op{code: opAbort, n: uint8(abortFor(b))})
	case b == 0x1B:
		return to(sEscape, op{code: opAbort, n: uint8(AbortESC)}, op{code: opBeginESC})
	case b < 0x20:
		return to(s, op{code: opEmbedded})
	case b == 0x7F:
		return to(s)
	}
	return redo(sGround, op{code: opAbort, n: uint8(AbortNonASCII)})
}

func abortFor(b byte) Abort {
	if b == 0x18 {
		return AbortCAN
	}
	return AbortSUB
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

// escapeBytes reads the intermediates of an escape from its bytes after
// the ESC (the builder's detail pass): C0 controls executed inside it and
// DEL are skipped.
func (d *Decoder) escapeBytes(p []byte) {
	for _, b := range p {
		if b >= 0x20 && b < 0x30 {
			d.intermediate(b)
		}
	}
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
