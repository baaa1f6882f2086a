package decode

// utfClass is what decodeUTF8 found at the start of its input.
type utfClass uint8

const (
	utfText    utfClass = iota // a well-formed character that is text
	utfInvalid                 // a maximal subpart of ill-formed UTF-8
	utfShort                   // a well-formed prefix cut by the end of the input
	utfRawC1                   // a lone byte 0x80–0x9F
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
// raw C1 (80–9F) or a lead byte (C2–F4): ground takes every other byte
// >= 0x80 as an invalid unit by itself before it calls decodeUTF8. It
// returns the unit's code point and length in bytes. Ill-formed input is
// cut at its maximal subpart (Unicode 15 3.9): a lead byte and the fitting
// continuation bytes after it. Unlike utf8.DecodeRune it never splits
// "E6 9B" into an invalid E6 and a lone 9B. utfShort means s ended inside
// a unit that was well formed so far (size 0).
func decodeUTF8(s []byte) (r rune, size int, cls utfClass) {
	b := s[0]
	if b < 0xC2 {
		return rune(b), 1, utfRawC1
	}
	n, lo, hi := utf8Lead(b)
	r = rune(b) & (0x3F >> n)
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

// saveUTF8 keeps a character cut by the end of a Feed in ground (s is its
// well-formed prefix, at most 3 bytes) and enters utf8, where the next
// Feed completes it.
func (d *Decoder) saveUTF8(s []byte, off int64) {
	n, _, _ := utf8Lead(s[0])
	d.u8n = uint8(copy(d.u8[:], s))
	d.u8need = n + 1
	d.u8off = off
	d.state = stateUTF8
}

// utf8 continues the character kept by saveUTF8 with the bytes of p from
// i and returns the index of the next byte to read: the character (or the
// maximal subpart it turned out to be) is handled as in ground, and the
// decoder is back in ground or in the state a C1 introducer opened.
// Decoder state utf8, an addition to the DEC diagram: ground, inside a
// character cut by the end of a Feed.
func (d *Decoder) utf8(p []byte, i int, emit func(*Token)) int {
	var buf [4]byte
	have := int(d.u8n)
	copy(buf[:], d.u8[:have])
	take := copy(buf[have:d.u8need], p[i:])
	r, size, cls := decodeUTF8(buf[:have+take])
	if cls == utfShort {
		copy(d.u8[have:], p[i:i+take])
		d.u8n += uint8(take)
		return i + take
	}
	d.u8n = 0
	d.state = stateGround
	d.unit(r, size, cls, d.u8off, emit)
	return i + size - have
}

// beginUnit starts the UTF-8 unit whose lead byte b (C2–F4) is at off, for
// csi_abort_char and string_utf8.
func (d *Decoder) beginUnit(b byte, off int64) {
	d.unitLead, d.unitOff = b, off
	d.unitRem, d.unitLo, d.unitHi = utf8Lead(b)
}

// unitTakes reports whether b continues the unit in progress, and if so
// counts it; the unit is complete when d.unitRem is 0.
func (d *Decoder) unitTakes(b byte) bool {
	if b < d.unitLo || b > d.unitHi {
		return false
	}
	d.unitRem--
	d.unitLo, d.unitHi = 0x80, 0xBF
	return true
}

// isBlank returns 1 if r is a space separator (Unicode general category
// Zs) other than U+0020, else 0: U+00A0, U+1680, U+2000–U+200A, U+202F,
// U+205F and U+3000 (TestIsBlank checks them against unicode.Zs). None of
// their lead bytes (C2, E1, E2, E3) is in plainLead, so text skipped
// without decoding holds none.
func isBlank(r rune) int64 {
	if r == 0xA0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A || r == 0x202F || r == 0x205F || r == 0x3000 {
		return 1
	}
	return 0
}

// TakeTextBlanks returns how many non-ASCII blanks (Zs but U+0020) the
// text tokens Feed emitted since the last call hold, and how many bytes
// Feed and AppendText consumed in that time (Scan counts no blanks: when
// fed is short of what the caller gave the decoder, blanks is short
// too). It counts as it decodes, where it decodes the characters anyway,
// so that a sanitizer that writes text as it stands need not read it
// again.
func (d *Decoder) TakeTextBlanks() (blanks, fed int64) {
	blanks, fed = d.blanks, d.fed
	d.blanks, d.fed = 0, 0
	return blanks, fed
}
