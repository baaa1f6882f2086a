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

// keptBlanks returns how many non-ASCII blanks c.out[held:], the cleaned
// text of the chunk p just fed, holds. When the decoder's Feed (or
// AppendText) read all of p and the text it emitted went out as it
// stands (no line emulation, no screen), they are the blanks it met as it
// decoded (decode.Decoder.TakeTextBlanks), and the text is not read
// again; otherwise, after Scan or where the policy rewrites lines, the
// cleaned text is counted (countBlanks).
func (c *cleaner) keptBlanks(held int, p []byte) int64 {
	blanks, fed := c.dec.TakeTextBlanks()
	if fed == int64(len(p)) && !c.lineMode && c.scr == nil {
		return blanks
	}
	return countBlanks(c.out[held:])
}

// countBlanks returns how many non-ASCII blanks (IsNonASCIIBlank) the
// cleaned text b, valid UTF-8, holds. Their UTF-8 forms are C2 A0,
// E1 9A 80, E2 80 80–8A, E2 80 AF, E2 81 9F and E3 80 80 (the table
// TestBlankBytes checks against unicode.Zs): a block of 32 bytes of
// ASCII, and a word of 8 bytes none of which is C2 or E1–E3
// (blankLeads), are skipped at once, so that text of most scripts costs
// little and ASCII less.
func countBlanks(b []byte) int64 {
	var n int64
	i := 0
	for ; i+32 <= len(b); i += 32 {
		q := b[i : i+32]
		if (binary.LittleEndian.Uint64(q)|binary.LittleEndian.Uint64(q[8:])|binary.LittleEndian.Uint64(q[16:])|binary.LittleEndian.Uint64(q[24:]))&highs != 0 {
			n += countWords(b[i:], 4)
		}
	}
	n += countWords(b[i:], (len(b)-i)/8)
	i += (len(b) - i) &^ 7
	return n + countBlanksIn(b[i:], len(b)-i)
}

// ones and highs are a uint64's bytes 01 and 80.
const ones, highs = 0x0101010101010101, 0x8080808080808080

// countWords counts the blanks whose first byte is in the first words
// 8-byte words of b (a blank may end past them).
func countWords(b []byte, words int) int64 {
	var n int64
	for i := 0; i < 8*words; i += 8 {
		if blankLeads(binary.LittleEndian.Uint64(b[i:])) {
			n += countBlanksIn(b[i:], 8)
		}
	}
	return n
}

// countBlanksIn counts the blanks whose first byte is one of the first k
// bytes of b.
func countBlanksIn(b []byte, k int) int64 {
	var n int64
	for j := range k {
		if c := b[j]; (c == 0xC2 || c-0xE1 <= 2) && isBlankAt(b[j:]) {
			n++
		}
	}
	return n
}

// blankLeads reports whether the 8 bytes of x may hold the first byte of a
// non-ASCII blank: C2, E1, E2 or E3. The test for a zero byte in a word
// is the usual one: it may also flag the byte above a true zero, never
// miss one.
func blankLeads(x uint64) bool {
	zeros := func(v uint64) uint64 { return (v - ones) &^ v }
	return (zeros(x^(0xC2*ones))|zeros(x^(0xE1*ones))|zeros(x^(0xE2*ones))|zeros(x^(0xE3*ones)))&highs != 0
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
