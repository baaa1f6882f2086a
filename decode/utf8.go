package decode

// UTF-8, the additions to the DEC diagram. A unit is a lead byte and the
// continuation bytes it calls for (Unicode 15 Table 3-7, Well-Formed UTF-8
// Byte Sequences); an ill-formed one ends at its maximal subpart (3.9):
// the byte that does not fit is not part of it and is read again. The same
// unit states run in three places, with three outcomes:
//
//   - ground (groundUnit): a character is text, or a format character, or
//     a C1 control (C2 80–C2 9F); a maximal subpart is one invalid unit;
//   - CSI (csiUnit): any character aborts the sequence and is dropped with
//     it, except a C1 control, which aborts it and is then read in ground;
//   - control strings (stringUnit): the unit is payload, and its
//     continuation bytes are not C1 controls (the 9C of U+671C ends
//     nothing); U+009C is C1 ST.

// leadUnit returns the unit that lead byte b (C2–F4) starts.
func leadUnit(b byte) unit {
	n, lo, hi := utf8Lead(b)
	return unit{have: 1, need: n, lo: lo, hi: hi, c2: b == 0xC2}
}

// advance returns u after one more continuation byte.
func (u unit) advance() unit {
	u.have++
	u.need--
	u.lo, u.hi = 0x80, 0xBF
	return u
}

// fits reports whether b is the continuation byte u expects.
func (u unit) fits(b byte) bool { return b >= u.lo && b <= u.hi }

// groundUnit is a UTF-8 unit in ground.
func groundUnit(u unit, b byte, o options) step {
	switch {
	case u.c2 && b >= 0x80 && b <= 0x9F:
		return c1(b, IntroUTF8, o) // U+0080–U+009F
	case !u.fits(b):
		return redo(sGround, op{code: opInvalidBefore, n: u.have})
	case u.need > 1:
		return to(stateDesc{fam: famGroundUnit, u: u.advance()})
	case u.check:
		return to(sGround, op{code: opCheck, n: u.have + 1})
	}
	return to(sGround)
}

// csiUnit is a non-ASCII character inside a CSI.
func csiUnit(u unit, b byte, o options) step {
	switch {
	case u.c2 && b >= 0x80 && b <= 0x9F:
		// A C1 control in UTF-8: it aborts the CSI and starts afresh.
		st := groundUnit(u, b, o)
		st.a = prepend(op{code: opAbortPrev, n: uint8(AbortC1)}, st.a)
		return st
	case !u.fits(b):
		return redo(sGround, op{code: opAbort, n: uint8(AbortNonASCII)})
	case u.need > 1:
		return to(stateDesc{fam: famCSIUnit, u: u.advance()})
	}
	return to(sGround, op{code: opAbortAt})
}

// prepend returns a with x run first.
func prepend(x op, a action) action {
	var out action
	out.ops[0] = x
	out.n = 1 + uint8(copy(out.ops[1:], a.ops[:a.n]))
	return out
}

// stringUnit is a UTF-8 unit in the payload of a control string of group g.
func stringUnit(g group, u unit, b byte) step {
	str := stateDesc{fam: famString, g: g}
	switch {
	case !u.fits(b):
		return redo(str)
	case u.c2 && b == 0x9C && g.c1:
		return to(sGround, op{code: opEndC1UTF8})
	case u.c2 && b == 0x9C:
		return to(str, op{code: opAmbiguous})
	case u.need > 1:
		return to(stateDesc{fam: famStringUnit, g: g, u: u.advance()})
	}
	return to(str)
}

// checkLead marks the lead bytes that may start a format character
// (leadMayStartFormat) or, for C2, a C1 control: a character they start is
// decoded and classified. TestCheckLead walks every code point.
var checkLead = func() (t [256]bool) {
	for b := 0xC2; b <= 0xF4; b++ {
		t[b] = b == 0xC2 || leadMayStartFormat(byte(b))
	}
	return t
}()

// plainLead gives the length of the characters that the other common lead
// bytes start, for skipPlainUTF8: 2 for C3–DF, 3 for E0 (whose second byte
// must be A0–BF) and E1–EF; 0 for bytes that are checked, for ED
// (surrogates) and for four-byte leads.
var plainLead = func() (t [256]uint8) {
	for b := 0xC3; b <= 0xEF; b++ {
		switch {
		case checkLead[b] || b == 0xED:
		case b < 0xE0:
			t[b] = 2
		default:
			t[b] = 3
		}
	}
	return t
}()

// utfClass is what decodeUTF8 found at the start of its input.
type utfClass uint8

const (
	utfText    utfClass = iota // a well-formed character that is text
	utfInvalid                 // a maximal subpart of ill-formed UTF-8
	utfShort                   // a well-formed prefix cut by the end of the input
	utfC1                      // U+0080–U+009F encoded in UTF-8
	utfFormat                  // a format character (ClassifyFormat)
)

// utf8Lead returns, for a lead byte b in C2–F4, how many continuation
// bytes follow and the accepted range of the first one (Unicode 15 Table
// 3-7, Well-Formed UTF-8 Byte Sequences).
func utf8Lead(b byte) (n, lo, hi byte) {
	switch {
	case b <= 0xDF:
		return 1, 0x80, 0xBF
	case b == 0xE0:
		return 2, 0xA0, 0xBF
	case b == 0xED:
		return 2, 0x80, 0x9F
	case b <= 0xEF:
		return 2, 0x80, 0xBF
	case b == 0xF0:
		return 3, 0x90, 0xBF
	case b == 0xF4:
		return 3, 0x80, 0x8F
	}
	return 3, 0x80, 0xBF
}

// decodeUTF8 classifies the unit at the start of s, whose first byte is a
// lead byte C2–F4, and returns its code point and length in bytes.
// Ill-formed input is cut at its maximal subpart. utfShort means s ended
// inside a unit that was well formed so far (size 0).
func decodeUTF8(s []byte) (r rune, size int, cls utfClass) {
	n, lo, hi := utf8Lead(s[0])
	r = rune(s[0]) & (0x3F >> n)
	for k := 1; k <= int(n); k++ {
		if k >= len(s) {
			return 0, 0, utfShort
		}
		c := s[k]
		if c < lo || c > hi {
			return 0, k, utfInvalid
		}
		lo, hi = 0x80, 0xBF
		r = r<<6 | rune(c&0x3F)
	}
	size = int(n) + 1
	switch {
	case r <= 0x9F:
		return r, size, utfC1
	case ClassifyFormat(r) != FormatNone:
		return r, size, utfFormat
	}
	return r, size, utfText
}

// saveUTF8 keeps a unit cut by the end of a Feed (s is its well-formed
// prefix, at most 3 bytes) to be completed by the next Feed.
func (d *Decoder) saveUTF8(s []byte, off int64) {
	n, _, _ := utf8Lead(s[0])
	d.u8n = uint8(copy(d.u8[:], s))
	d.u8need = n + 1
	d.u8off = off
}

// resumeUTF8 continues a unit saved by saveUTF8 with the first bytes of p
// and returns how many bytes of p it consumed. A character completed here
// is a token of its own (a text token carries its Rune).
func (d *Decoder) resumeUTF8(m *machine, p []byte, out *sink) int {
	var buf [4]byte
	have := int(d.u8n)
	copy(buf[:], d.u8[:have])
	take := copy(buf[have:d.u8need], p)
	r, size, cls := decodeUTF8(buf[:have+take])
	if cls == utfShort {
		copy(d.u8[have:], p[:take])
		d.u8n += uint8(take)
		return take
	}
	d.u8n = 0
	off, n := d.u8off, int64(size)
	d.pos = off + n
	switch cls {
	case utfText:
		d.single(out, KindText, off, n, 0, IntroNone, 0, r)
	case utfInvalid:
		d.single(out, KindInvalid, off, n, 0, IntroNone, 0, 0)
	case utfFormat:
		d.single(out, KindFormat, off, n, 0, IntroNone, 0, r)
	case utfC1:
		o := d.options()
		if kind := c1Kind(byte(r)); kind != KindC1 {
			d.begin(kind, IntroUTF8, off, 2)
			d.pos = off
			d.st = m.stateOf(opened(kind, IntroUTF8, o))
		} else {
			d.single(out, KindC1, off, n, byte(r), IntroUTF8, 0, 0)
		}
	}
	return size - have
}
