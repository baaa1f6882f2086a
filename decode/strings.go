package decode

// Control strings (ECMA-48 5.6): OSC, DCS, SOS, PM, APC and the GNU screen
// title ESC k. Their payload is skipped, not kept: the builder counts it
// from the token's span and reads only a bounded prefix (for naming) and
// an OSC's number. DCS is a control string here; its parameters are read
// from the prefix when it is named.
//
// Which terminator ends which string is the group's: ESC \ ends any; BEL
// ends OSC and ESC k (xterm), and APC under APCBEL; C1 ST, raw or U+009C,
// ends only a string that a C1 introducer opened (xterm in UTF-8 mode,
// kitty and alacritty keep an ESC-opened string open), and is flagged
// ambiguous where it does not.

// controlString is the DEC parser's OSC string, DCS passthrough and
// SOS/PM/APC string, for a string of group g.
func controlString(g group, b byte, o options) step {
	str := stateDesc{fam: famString, g: g}
	switch {
	case b == 0x1B:
		return to(sStringEsc)
	case b == 0x18 || b == 0x1A:
		return redo(sGround, op{code: opAbort, n: uint8(abortFor(b))})
	case b == 0x07 && g.bel:
		return to(sGround, op{code: opEndBEL})
	case b == 0x9C && !o.loneC1 && g.c1:
		return to(sGround, op{code: opEndC1})
	case b == 0x9C && !o.loneC1:
		return to(str, op{code: opAmbiguous})
	case b >= 0xC2 && b <= 0xF4:
		return to(stateDesc{fam: famStringUnit, g: g, u: leadUnit(b)})
	}
	return to(str) // payload, C0 controls included
}

// stringEsc is an ESC inside a control string: '\' completes ST (ECMA-48
// 8.3.143); anything else aborts the string, and the ESC starts a new
// escape that reads this byte.
func stringEsc(b byte) step {
	if b == '\\' {
		return to(sGround, op{code: opEndST})
	}
	return redo(sEscape, op{code: opAbortPrev, n: uint8(AbortESC)}, op{code: opBeginESCPrev})
}

// payloadBytes reads the payload bytes p of the string in progress, the
// first of them at payload index at: it keeps the prefix and an OSC's
// number (digits up to ';' or the end; -1 when anything else comes first).
func (d *Decoder) payloadBytes(p []byte, at int64) {
	t := &d.tok
	if at < PrefixLen {
		t.NPrefix = uint8(at) + uint8(copy(t.Prefix[at:], p))
	}
	if d.cmdDone {
		return
	}
	for _, b := range p {
		switch {
		case b >= '0' && b <= '9':
			v := int64(max(t.Command, 0))*10 + int64(b-'0')
			t.Command = int32(min(v, 1<<30))
			continue
		case b != ';':
			t.Command = -1
		}
		d.cmdDone = true
		return
	}
}
