package sanitize

import (
	"encoding/binary"
	"unicode"
	"unicode/utf8"
)

// IsNonASCIIBlank reports whether r is a space separator (Unicode general
// category Zs) other than U+0020: NO-BREAK SPACE, OGHAM SPACE MARK, the
// spaces U+2000–U+200A, NARROW NO-BREAK SPACE, MEDIUM MATHEMATICAL SPACE
// and IDEOGRAPHIC SPACE. They are text and the sanitizer keeps them, but
// a reader cannot tell them from U+0020, so one can stand for an ASCII
// space to carry hidden bits; Report.Kept.NonASCIIBlanks counts them.
func IsNonASCIIBlank(r rune) bool {
	return r >= utf8.RuneSelf && unicode.Is(unicode.Zs, r)
}

// countBlanks returns how many non-ASCII blanks (IsNonASCIIBlank) the
// cleaned text b holds. Only the lead bytes C2, E1, E2 and E3 begin one;
// runs of ASCII are skipped eight bytes at a time.
func countBlanks(b []byte) int64 {
	var n int64
	for i := 0; i < len(b); {
		if i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		switch b[i] {
		case 0xC2, 0xE1, 0xE2, 0xE3:
			r, size := utf8.DecodeRune(b[i:])
			if IsNonASCIIBlank(r) {
				n++
			}
			i += size
		default:
			i++
		}
	}
	return n
}
