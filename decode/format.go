package decode

// FormatClass groups the Unicode format characters the sanitizer has a
// policy for.
type FormatClass uint8

// Format character classes.
const (
	// FormatNone: not a format character with a policy.
	FormatNone FormatClass = iota
	// FormatHiding: characters that reorder or hide text: bidi embeddings,
	// overrides and isolates (U+202A–U+202E, U+2066–U+2069), U+200B,
	// U+2060–U+2064, U+FEFF, U+180E and the Tags block U+E0000–U+E007F.
	// The default policy removes them.
	FormatHiding
	// FormatJoining: characters that shape ordinary text: ZWNJ, ZWJ, LRM,
	// RLM, ALM, variation selectors and the soft hyphen. The default
	// policy keeps them.
	FormatJoining
)

// ClassifyFormat returns the format class of r.
func ClassifyFormat(r rune) FormatClass {
	switch {
	case r < 0xAD:
		return FormatNone
	case r == 0xAD, r == 0x061C, r == 0x200C, r == 0x200D, r == 0x200E, r == 0x200F,
		r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return FormatJoining
	case r == 0x180E, r == 0x200B, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069,
		r == 0xFEFF, r >= 0xE0000 && r <= 0xE007F:
		return FormatHiding
	}
	return FormatNone
}
