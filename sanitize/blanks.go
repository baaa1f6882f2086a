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
// cleaned text b, valid UTF-8, holds. Blocks of 32 ASCII bytes are
// skipped at once; elsewhere the UTF-8 forms are matched byte by byte:
// C2 A0, E1 9A 80, E2 80 80–8A, E2 80 AF, E2 81 9F, E3 80 80 (the table
// TestBlankBytes checks against unicode.Zs).
func countBlanks(b []byte) int64 {
	var n int64
	for i := 0; i < len(b); {
		end := min(i+32, len(b))
		if end-i == 32 && (binary.LittleEndian.Uint64(b[i:])|binary.LittleEndian.Uint64(b[i+8:])|
			binary.LittleEndian.Uint64(b[i+16:])|binary.LittleEndian.Uint64(b[i+24:]))&0x8080808080808080 == 0 {
			i = end
			continue
		}
		for ; i < end; i++ {
			if c := b[i]; c >= 0xC2 && c <= 0xE3 && isBlankAt(b[i:]) {
				n++
			}
		}
	}
	return n
}

// isBlankAt reports whether the valid UTF-8 text b begins with a
// non-ASCII blank.
func isBlankAt(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	if b[0] == 0xC2 {
		return b[1] == 0xA0
	}
	if len(b) < 3 {
		return false
	}
	switch b[0] {
	case 0xE1:
		return b[1] == 0x9A && b[2] == 0x80
	case 0xE2:
		return b[1] == 0x80 && (b[2] <= 0x8A || b[2] == 0xAF) || b[1] == 0x81 && b[2] == 0x9F
	case 0xE3:
		return b[1] == 0x80 && b[2] == 0x80
	}
	return false
}
