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

// decodeUTF8 classifies the unit at the start of s (s[0] >= 0x80) and
// returns its code point and length in bytes. Ill-formed input is cut at
// its maximal subpart (Unicode 15 3.9): a lead byte and the fitting
// continuation bytes after it. Unlike utf8.DecodeRune it never splits
// "E6 9B" into an invalid E6 and a lone 9B. utfShort means s ended inside
// a unit that was well formed so far (size 0).
func decodeUTF8(s []byte) (r rune, size int, cls utfClass) {
	b := s[0]
	if b < 0xC2 {
		if b <= 0x9F {
			return rune(b), 1, utfRawC1
		}
		return 0, 1, utfInvalid
	}
	if b > 0xF4 {
		return 0, 1, utfInvalid
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

// saveUTF8 keeps a unit cut by the end of a Feed (s is its well-formed
// prefix, at most 3 bytes) to be completed by the next Feed.
func (d *Decoder) saveUTF8(s []byte, off int64) {
	n, _, _ := utf8Lead(s[0])
	d.u8n = uint8(copy(d.u8[:], s))
	d.u8need = n + 1
	d.u8off = off
}

// resumeUTF8 continues a unit saved by saveUTF8 with the first bytes of p
// and returns how many bytes of p it consumed.
func (d *Decoder) resumeUTF8(p []byte, emit func(*Token)) int {
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
	d.unit(r, size, cls, d.u8off, emit)
	return size - have
}
