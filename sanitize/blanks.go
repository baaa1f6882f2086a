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
// TestBlankBytes checks against unicode.Zs). b goes in blocks of 32
// bytes, with one branch each: a block of ASCII, or one whose four words
// hold no byte C2 or E0–E3 (blankLeads), is passed over, and only the
// others are read a byte at a time. Text of most scripts, and the U+FFFD
// of cleaned random bytes, costs a few instructions a byte.
func countBlanks(b []byte) int64 {
	var n int64
	for {
		b = b[plainBlocks(b):]
		if len(b) < 32 {
			return n + countBlanksIn(b, len(b))
		}
		n += countBlanksIn(b, 32)
		b = b[32:]
	}
}

// plainBlocks returns the length of the longest prefix of b made of
// 32-byte blocks that hold no byte a blank may begin with: ASCII, or no
// byte C2 or E0–E3 in any of the four words (blankLeads). It calls
// nothing, so that its loop keeps its words in registers.
func plainBlocks(b []byte) int {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		q := b[i : i+32]
		w0, w1 := binary.LittleEndian.Uint64(q), binary.LittleEndian.Uint64(q[8:])
		w2, w3 := binary.LittleEndian.Uint64(q[16:]), binary.LittleEndian.Uint64(q[24:])
		if (w0|w1|w2|w3)&highs != 0 && (blankLeads(w0)|blankLeads(w1)|blankLeads(w2)|blankLeads(w3))&highs != 0 {
			break
		}
	}
	return i
}

// ones and highs are a uint64's bytes 01 and 80.
const ones, highs = 0x0101010101010101, 0x8080808080808080

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

// blankLeads returns, for the 8 bytes of x, a word whose high bits
// (highs) are set where a byte may be the first of a non-ASCII blank, C2
// or E1–E3, and clear when none is: bytes E0–E3 are those whose top six
// bits are those of E0, so two tests for a zero byte suffice (E0 passes
// too). The test for a zero byte is the usual one: it may also flag the
// byte above a true zero, never miss one.
func blankLeads(x uint64) uint64 {
	zeros := func(v uint64) uint64 { return (v - ones) &^ v }
	return zeros(x&(0xFC*ones)^(0xE0*ones)) | zeros(x^(0xC2*ones))
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
