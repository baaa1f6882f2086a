package decode

// FormatClass groups the Unicode format and invisible characters the
// sanitizer has a policy for. The decoder emits each such character as
// one KindFormat token; the class says which rule of the sanitizer's
// format policy applies to it (see package sanitize, "Format characters").
type FormatClass uint8

// Format character classes.
const (
	// FormatNone: not a character with a format policy; it is text.
	FormatNone FormatClass = iota
	// FormatHiding: characters that reorder text or are invisible
	// whatever surrounds them: bidi embeddings, overrides and isolates
	// (U+202A–U+202E, U+2066–U+2069; see IsBidiControl), zero-width and
	// invisible operators (U+200B, U+2060–U+2064), the deprecated format
	// characters U+206A–U+206F, the interlinear annotation characters
	// U+FFF9–U+FFFB, U+FEFF, the combining grapheme joiner U+034F, the
	// Hangul fillers U+3164 and U+FFA0, the Khmer inherent vowels
	// U+17B4–U+17B5, the musical formatting characters U+1D173–U+1D17A,
	// the shorthand format controls U+1BCA0–U+1BCA3, the Egyptian
	// hieroglyph format controls U+13430–U+1343F, the Tags block
	// U+E0000–U+E007F, and the unassigned default-ignorable code points
	// U+2065, U+FFF0–U+FFF8, U+E0080–U+E00FF and U+E01F0–U+E0FFF, which a
	// renderer draws as nothing (Unicode 5.21, DerivedCoreProperties.txt).
	// The default policy removes them.
	FormatHiding
	// FormatJoining: characters that shape ordinary text: ZWNJ, ZWJ, LRM,
	// RLM, ALM and the soft hyphen. The sanitizer keeps them where a
	// script next to them needs them.
	FormatJoining
	// FormatSelector: the variation selectors U+FE00–U+FE0F and
	// U+E0100–U+E01EF. The default policy keeps one directly after a base
	// character (an emoji or ideographic variation sequence) and removes
	// every other.
	FormatSelector
	// FormatMongolian: the Mongolian free variation selectors and vowel
	// separator U+180B–U+180F. The default policy keeps one directly after
	// a Mongolian character and removes every other.
	FormatMongolian
	// FormatJamoFiller: the Hangul choseong and jungseong fillers U+115F
	// and U+1160. The default policy keeps them inside a conjoining jamo
	// sequence (U+115F before a vowel jamo, U+1160 after a leading
	// consonant jamo) and removes them elsewhere.
	FormatJamoFiller
	// FormatLineSeparator: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH
	// SEPARATOR. The default policy writes LF for each.
	FormatLineSeparator
)

// formatRanges is the decision table behind ClassifyFormat: sorted,
// disjoint, inclusive ranges of code points.
var formatRanges = []struct {
	lo, hi rune
	class  FormatClass
}{
	{0x00AD, 0x00AD, FormatJoining},    // SOFT HYPHEN
	{0x034F, 0x034F, FormatHiding},     // COMBINING GRAPHEME JOINER
	{0x061C, 0x061C, FormatJoining},    // ARABIC LETTER MARK
	{0x115F, 0x1160, FormatJamoFiller}, // HANGUL CHOSEONG / JUNGSEONG FILLER
	{0x17B4, 0x17B5, FormatHiding},     // KHMER VOWEL INHERENT AQ, AA
	{0x180B, 0x180F, FormatMongolian},  // MONGOLIAN FVS1–FVS3, MVS, FVS4
	{0x200B, 0x200B, FormatHiding},     // ZERO WIDTH SPACE
	{0x200C, 0x200F, FormatJoining},    // ZWNJ, ZWJ, LRM, RLM
	{0x2028, 0x2029, FormatLineSeparator},
	{0x202A, 0x202E, FormatHiding}, // LRE, RLE, PDF, LRO, RLO
	{0x2060, 0x2064, FormatHiding}, // WORD JOINER, invisible operators
	{0x2065, 0x2065, FormatHiding}, // unassigned, default ignorable
	{0x2066, 0x2069, FormatHiding}, // LRI, RLI, FSI, PDI
	{0x206A, 0x206F, FormatHiding}, // deprecated format characters
	{0x3164, 0x3164, FormatHiding}, // HANGUL FILLER
	{0xFE00, 0xFE0F, FormatSelector},
	{0xFEFF, 0xFEFF, FormatHiding},   // ZERO WIDTH NO-BREAK SPACE (BOM)
	{0xFFA0, 0xFFA0, FormatHiding},   // HALFWIDTH HANGUL FILLER
	{0xFFF0, 0xFFF8, FormatHiding},   // unassigned, default ignorable
	{0xFFF9, 0xFFFB, FormatHiding},   // interlinear annotation anchor, separator, terminator
	{0x13430, 0x1343F, FormatHiding}, // EGYPTIAN HIEROGLYPH format controls
	{0x1BCA0, 0x1BCA3, FormatHiding}, // SHORTHAND FORMAT controls
	{0x1D173, 0x1D17A, FormatHiding}, // MUSICAL SYMBOL BEGIN BEAM … END PHRASE
	{0xE0000, 0xE00FF, FormatHiding}, // Tags, then unassigned default ignorable
	{0xE0100, 0xE01EF, FormatSelector},
	{0xE01F0, 0xE0FFF, FormatHiding}, // unassigned, default ignorable
}

// formatBlocks has bit k set when the 64 code points from k<<6 hold a
// character of formatRanges: most characters are settled by one test.
var formatBlocks = func() (t [0x110000 >> 6 >> 6]uint64) {
	for _, r := range formatRanges {
		for k := r.lo >> 6; k <= r.hi>>6; k++ {
			t[k>>6] |= 1 << (k & 63)
		}
	}
	return t
}()

// ClassifyFormat returns the format class of r.
func ClassifyFormat(r rune) FormatClass {
	if r < 0xAD || r > 0x10FFFF || formatBlocks[r>>12]&(1<<(r>>6&63)) == 0 {
		return FormatNone
	}
	lo, hi := 0, len(formatRanges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch e := &formatRanges[m]; {
		case e.hi < r:
			lo = m + 1
		case e.lo > r:
			hi = m
		default:
			return e.class
		}
	}
	return FormatNone
}

// IsBidiControl reports whether r is one of the bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069, Unicode UAX #9
// 2.1–2.4), the characters that reorder text (Trojan Source, CVE-2021-42574).
func IsBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069
}

// leadMayStartFormat reports whether some character whose UTF-8 encoding
// begins with the 2- or 3-byte lead b (C2–EF) has a format class: ground's
// fast path for text skips only characters whose lead byte rules that out.
func leadMayStartFormat(b byte) bool {
	var first, blocks rune
	switch {
	case b >= 0xC2 && b <= 0xDF:
		first, blocks = rune(b&0x1F)<<6, 1
	case b == 0xE0: // U+0800–U+0FFF: the second byte is A0–BF
		first, blocks = 0x800, 32
	case b >= 0xE1 && b <= 0xEF:
		first, blocks = rune(b&0x0F)<<12, 64
	default:
		return true
	}
	for k := first >> 6; k < first>>6+blocks; k++ {
		if formatBlocks[k>>6]&(1<<(k&63)) != 0 {
			return true
		}
	}
	return false
}
