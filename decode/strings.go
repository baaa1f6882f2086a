package decode

import "encoding/binary"

// The control string states, ECMA-48 5.6: an introducer (OSC, DCS, SOS,
// PM, APC, in either spelling, or ESC k), a payload of any bytes, and a
// terminator: ST (ESC \, or C1 ST as 9C or C2 9C when a C1 introducer
// opened the string), BEL for the strings that xterm ends with it. CAN
// and SUB abort the string, an ESC that does not begin ST aborts it and
// starts an escape. The payload is counted and skipped, never kept, but
// for a prefix of PrefixLen bytes (Token.Prefix) and the OSC number. See
// DESIGN.md for which terminator ends which string.

// oscCommand reads the number Ps of OSC Ps ; Pt into Token.Command: digits
// accumulate, ';' ends the number and enters osc_string. A terminator or
// abort is read again in osc_string and keeps the number; a C2 (perhaps
// the first byte of U+009C) enters osc_command_c2; any other byte ends the
// string's chance of a number (Command -1) and is read again in
// osc_string. Decoder state osc_command, an addition to the DEC diagram,
// whose osc_string has no number; xterm ctlseqs ("Operating System
// Commands").
func (d *Decoder) oscCommand(p []byte, i int, base int64, emit func(*Token)) int {
	t := &d.tok
	for ; i < len(p); i++ {
		switch b := p[i]; {
		case b >= '0' && b <= '9':
			d.keepPayload(b)
			t.Command = int32(min(int64(max(t.Command, 0))*10+int64(b-'0'), 1<<30))
		case b == ';':
			d.keepPayload(b)
			d.state = stateOSCString
			return d.oscString(p, i+1, base, emit)
		case b == 0xC2:
			d.keepPayload(b)
			d.state = stateOSCCommandC2
			return i + 1
		case b == 0x07 || b == 0x1B || b == 0x18 || b == 0x1A || b == 0x9C && !d.LoneC1 && d.c1Terminates():
			d.state = stateOSCString
			return i
		default:
			d.endCommand()
			d.state = stateOSCString
			return i
		}
	}
	return i
}

// oscCommandC2 settles a C2 read in osc_command (and counted as payload):
// 9C completes U+009C, the UTF-8 spelling of C1 ST, which ends a string
// that a C1 introducer opened, its number kept and the C2 no longer
// payload; any other byte ends the number and continues the C2's unit in
// string_utf8. Decoder state osc_command_c2, an addition to the DEC
// diagram.
func (d *Decoder) oscCommandC2(p []byte, i int, base int64, emit func(*Token)) int {
	if p[i] == 0x9C && d.c1Terminates() {
		d.dropC2()
		d.tok.Term = TermC1
		d.finish(base+int64(i)+1, emit)
		return i + 1
	}
	d.endCommand()
	d.beginUnit(0xC2, base+int64(i)-1)
	d.unitRet = stateOSCString
	d.state = stateStringUTF8
	return i
}

// oscString reads an OSC payload (after its number) or a GNU screen title
// (ESC k … ST); BEL ends both, as in xterm. DEC parser state: osc_string;
// ECMA-48 8.3.89.
func (d *Decoder) oscString(p []byte, i int, base int64, emit func(*Token)) int {
	return d.controlString(p, i, base, emit, true)
}

// dcsPassthrough reads a DCS payload, parameters included (Token reads
// them back from the prefix); only ST ends it. DEC parser state:
// dcs_passthrough, with dcs_entry, dcs_param, dcs_intermediate and
// dcs_ignore folded in; ECMA-48 8.3.27.
func (d *Decoder) dcsPassthrough(p []byte, i int, base int64, emit func(*Token)) int {
	return d.controlString(p, i, base, emit, false)
}

// sosPMAPCString reads an SOS, PM or APC payload; only ST ends it, but for
// an APC with Decoder.APCBEL, which BEL ends too. DEC parser state:
// sos_pm_apc_string; ECMA-48 8.3.128, 8.3.94, 8.3.2.
func (d *Decoder) sosPMAPCString(p []byte, i int, base int64, emit func(*Token)) int {
	return d.controlString(p, i, base, emit, d.APCBEL && d.tok.Kind == KindAPC)
}

// controlString reads payload from p[i:] in bulk (plainPayload) and
// handles the bytes that stop it, the transitions every string state
// shares: BEL ends the string when belEnds and is payload otherwise; ESC
// enters string_esc; CAN and SUB abort the string and are read again in
// ground; 9C is C1 ST, which ends a string that a C1 introducer opened
// and is flagged FlagAmbiguous payload in one that ESC opened (unless
// Decoder.LoneC1); a UTF-8 lead byte enters string_utf8.
func (d *Decoder) controlString(p []byte, i int, base int64, emit func(*Token), belEnds bool) int {
	t := &d.tok
	for i < len(p) {
		j := plainPayload(p, i)
		d.payload(p[i:j])
		if i = j; i == len(p) {
			break
		}
		b := p[i]
		switch {
		case b == 0x07 && belEnds:
			t.Term = TermBEL
			d.finish(base+int64(i)+1, emit)
			return i + 1
		case b == 0x1B:
			d.escOff = base + int64(i)
			d.state = stateStringEsc
			return i + 1
		case b == 0x18 || b == 0x1A:
			d.abort(abortFor(b), base+int64(i), emit)
			return i
		case b == 0x9C && !d.LoneC1:
			if d.c1Terminates() {
				t.Term = TermC1
				d.finish(base+int64(i)+1, emit)
				return i + 1
			}
			t.Flags |= FlagAmbiguous
			d.keepPayload(b)
		case b >= 0xC2 && b <= 0xF4:
			d.keepPayload(b)
			d.beginUnit(b, base+int64(i))
			d.unitRet = d.state
			d.state = stateStringUTF8
			return d.stringUTF8(p, i+1, base, emit)
		default:
			d.keepPayload(b)
		}
		i++
	}
	return i
}

// payload counts b as payload of the string in progress, the first
// PrefixLen bytes of which the token keeps.
func (d *Decoder) payload(b []byte) {
	t := &d.tok
	if t.Payload < PrefixLen {
		t.NPrefix += uint8(copy(t.Prefix[t.Payload:], b))
	}
	t.Payload += int64(len(b))
}

// stringEsc handles the byte after an ESC inside a control string: '\'
// completes ST (ECMA-48 8.3.143) and ends the string; anything else aborts
// the string, and the ESC starts a new escape. Decoder state string_esc,
// an addition to the DEC diagram, where ESC leaves the string for escape.
func (d *Decoder) stringEsc(p []byte, i int, base int64, emit func(*Token)) int {
	if p[i] == '\\' {
		d.tok.Term = TermST
		d.finish(base+int64(i)+1, emit)
		return i + 1
	}
	d.abort(AbortESC, d.escOff, emit)
	d.begin(KindESC, Intro7Bit, d.escOff)
	return i
}

// stringUTF8 reads the continuation bytes of a UTF-8 unit in a control
// string payload, so that a continuation byte 9C is payload, not C1 ST.
// C2 9C, U+009C, is C1 ST: it ends a string that a C1 introducer opened
// (the C2 is then not payload) and is FlagAmbiguous payload in one that
// ESC opened. A byte that does not continue the unit ends it (a maximal
// subpart, payload all the same) and is read again in the string's state.
// Decoder state string_utf8, an addition to the DEC diagram.
func (d *Decoder) stringUTF8(p []byte, i int, base int64, emit func(*Token)) int {
	for ; i < len(p); i++ {
		b := p[i]
		if !d.unitTakes(b) {
			d.state = d.unitRet
			return i
		}
		if d.unitLead == 0xC2 && b == 0x9C {
			if d.c1Terminates() {
				d.dropC2()
				d.tok.Term = TermC1
				d.finish(base+int64(i)+1, emit)
				return i + 1
			}
			d.tok.Flags |= FlagAmbiguous
		}
		d.keepPayload(b)
		if d.unitRem == 0 {
			d.state = d.unitRet
			return i + 1
		}
	}
	return i
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

// dropC2 takes back the C2 counted as payload when it turns out to begin
// U+009C, the terminator.
func (d *Decoder) dropC2() {
	t := &d.tok
	t.Payload--
	if int64(t.NPrefix) > t.Payload {
		t.NPrefix--
		t.Prefix[t.NPrefix] = 0
	}
}

// endCommand ends the OSC number at a byte that is neither a digit nor
// ';': the string has no number.
func (d *Decoder) endCommand() { d.tok.Command = -1 }

// c1Terminates reports whether C1 ST ends the string in progress: only a
// string that a C1 introducer opened (xterm in UTF-8 mode, kitty and
// alacritty keep an ESC-opened string open).
func (d *Decoder) c1Terminates() bool { return d.tok.Intro != Intro7Bit }

// plainPayload returns the end of the run of payload from p[i:] that needs
// no decision: bytes marked in strPlain, and UTF-8 units (whole or a
// maximal subpart of an ill-formed one) that are not U+009C and are not
// cut by the end of p. controlString handles what stops it.
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
			return i // cut by the end of p: read on in string_utf8
		}
		i += k
	}
	return i
}

// printable reports whether p is printable ASCII (0x20–0x7E) only, in
// loads of eight bytes (skipPrintable): p's, then its last eight, which
// overlap the ones before; for p of four to seven bytes, its first four
// and its last four (shortWord).
func printable(p []byte) bool {
	switch n := len(p); {
	case n > 8:
		return skipPrintable(p, 0) >= n-8 && notPrintable(binary.LittleEndian.Uint64(p[n-8:])) == 0
	case n >= 4:
		return notPrintable(shortWord(p)) == 0
	}
	for _, b := range p {
		if b < 0x20 || b >= 0x7F {
			return false
		}
	}
	return true
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
