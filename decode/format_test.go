package decode

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestFormatTokens checks that every character of the format table comes
// out as one KindFormat token between plain characters of its own script
// and of others, whole and split across Feed calls, and that the
// characters next to each range are text: ground's fast path must not skip
// a format character whose lead byte it takes for plain text.
func TestFormatTokens(t *testing.T) {
	for _, r := range formatRanges {
		for c := r.lo - 1; c <= r.hi+1; c++ {
			if c < 0xA0 || c >= 0xD800 && c <= 0xDFFF {
				continue
			}
			want := ClassifyFormat(c) != FormatNone
			for _, around := range []string{"a", "é", "中", "가"} {
				p := []byte(around + string(c) + around)
				for _, ts := range [][]Token{collect(Decoder{}, p), feedSplit(Decoder{}, p, []int{len(around) + 1})} {
					got := false
					for _, tk := range ts {
						if tk.Kind == KindFormat {
							got = tk.Rune == c && tk.Len == int64(utf8.RuneLen(c))
						}
					}
					if got != want {
						t.Fatalf("U+%04X in %q: format token %v, want %v (%q)", c, around, got, want, sigs(ts))
					}
				}
			}
		}
	}
}

func TestClassifyFormat(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want FormatClass
	}{
		{'a', FormatNone}, {0xAC, FormatNone}, {0xAD, FormatJoining}, {0x034F, FormatHiding},
		{0x115F, FormatJamoFiller}, {0x1161, FormatNone}, {0x180E, FormatMongolian},
		{0x200D, FormatJoining}, {0x2028, FormatLineSeparator}, {0x202E, FormatHiding},
		{0x206F, FormatHiding}, {0x3164, FormatHiding}, {0x3165, FormatNone},
		{0xFE0F, FormatSelector}, {0xFFA0, FormatHiding}, {0xFFFB, FormatHiding},
		{0x1BCA3, FormatHiding}, {0x1D17A, FormatHiding}, {0x1D17B, FormatNone},
		{0xE0041, FormatHiding}, {0xE01EF, FormatSelector}, {0xE01F0, FormatHiding}, {0xE1000, FormatNone},
		{0x10FFFF, FormatNone}, {0x110000, FormatNone}, {-1, FormatNone},
	} {
		if got := ClassifyFormat(tc.r); got != tc.want {
			t.Errorf("ClassifyFormat(U+%04X) = %d, want %d", tc.r, got, tc.want)
		}
	}
}

// TestInvisibleClassified checks that every format character (Cf), variation
// selector and other default-ignorable code point, assigned or not, has a
// format class, so that none passes as text: a renderer draws them as
// nothing (U+E01F0–U+E0FFF alone would carry 11 hidden bits a character).
// Prepended concatenation marks (U+0600–U+0605, U+06DD…) draw a glyph and
// stay text.
func TestInvisibleClassified(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) &&
			!unicode.Is(unicode.Prepended_Concatenation_Mark, r) && ClassifyFormat(r) == FormatNone {
			t.Errorf("U+%04X is invisible and has no format class", r)
		}
	}
}

// TestLeadMayStartFormat: a lead byte is checked only when a well-formed
// character it starts has a format class, so that whole scripts (E0:
// Devanagari to Thai, U+0800–U+0FFF) keep the fast path.
func TestLeadMayStartFormat(t *testing.T) {
	want := map[byte]bool{}
	for r := rune(0x80); r < 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if ClassifyFormat(r) != FormatNone {
			want[string(r)[0]] = true
		}
	}
	for b := 0xC2; b <= 0xEF; b++ {
		if got := leadMayStartFormat(byte(b)); got != want[byte(b)] {
			t.Errorf("leadMayStartFormat(%02X) = %v, want %v", b, got, want[byte(b)])
		}
	}
}
