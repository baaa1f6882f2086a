package sanitize

import (
	"unicode"
	"unicode/utf8"
)

// The joining characters (ZWNJ, ZWJ, LRM, RLM, ALM, SHY) shape or order
// the text next to them in some scripts and change nothing a reader sees
// in others: after an ASCII letter each of them, or none, looks the same,
// and one per character of a log would carry almost three bits of hidden
// text. joiningRules says in which neighbourhood each is kept; anywhere
// else the format character policy removes (or escapes) it.

// context is a set of classes of the character next to a joining
// character.
type context uint8

const (
	// ctxEmoji: a non-ASCII character of emoji-data.txt's Emoji property
	// (variationBases, with U+FE0F), an emoji modifier, or U+FE0F: the
	// parts of an emoji ZWJ sequence (UTS #51 2.3).
	ctxEmoji context = 1 << iota
	// ctxJoining: a letter or mark of a script whose letters join
	// (ArabicShaping.txt: Arabic, Syriac, N'Ko, Mongolian...) or of an
	// Indic script, where ZWJ and ZWNJ choose a conjunct or a half form
	// (Unicode 15 chapter 12.2).
	ctxJoining
	// ctxRTL: a letter, mark or digit of a right-to-left script (Bidi
	// class R or AL in UAX #9 for the scripts of rtlScripts).
	ctxRTL
	// ctxNeutral: no letter and no mark: spaces, punctuation, digits,
	// symbols, or no character (the start or end of the text).
	ctxNeutral
	// ctxLetter: any letter.
	ctxLetter
	// ctxWideLetter: a letter outside ASCII.
	ctxWideLetter

	ctxAny context = 1<<iota - 1
)

// joiningRules is the decision table for the joining characters: r is
// kept when the character before it is in before and the one after it in
// after (ctxAny: whatever follows). A rune may have several rows; none
// matching, it is removed.
var joiningRules = [...]struct {
	r             rune
	before, after context
}{
	{0x200C, ctxJoining, ctxJoining},   // ZWNJ: between letters of joining or Indic scripts
	{0x200D, ctxEmoji, ctxEmoji},       // ZWJ: inside an emoji ZWJ sequence
	{0x200D, ctxJoining, ctxJoining},   // ZWJ: between letters of joining or Indic scripts
	{0x200E, ctxRTL, ctxAny},           // LRM after right-to-left text
	{0x200E, ctxNeutral, ctxRTL},       // LRM between a neutral or number and RTL text
	{0x200F, ctxRTL, ctxAny},           // RLM likewise
	{0x200F, ctxNeutral, ctxRTL},       //
	{0x061C, ctxRTL, ctxAny},           // ALM likewise
	{0x061C, ctxNeutral, ctxRTL},       //
	{0x00AD, ctxWideLetter, ctxLetter}, // SHY between two letters, not both ASCII
	{0x00AD, ctxLetter, ctxWideLetter}, //
}

// joiningDecision returns, for the joining character r after a character
// of the classes prev, whether it is kept whatever follows (now), and
// otherwise the classes of the next character that keep it (after; 0: it
// is removed).
func joiningDecision(r rune, prev context) (now bool, after context) {
	for _, j := range joiningRules {
		if j.r != r || j.before&prev == 0 {
			continue
		}
		if j.after == ctxAny {
			return true, ctxAny
		}
		after |= j.after
	}
	return false, after
}

// Script tables behind contextOf (the standard library's Script property).
var (
	joiningScripts = []*unicode.RangeTable{
		unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian,
		unicode.Mandaic, unicode.Manichaean, unicode.Psalter_Pahlavi,
		unicode.Adlam, unicode.Hanifi_Rohingya, unicode.Sogdian, unicode.Phags_Pa,
		unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati,
		unicode.Oriya, unicode.Tamil, unicode.Telugu, unicode.Kannada,
		unicode.Malayalam, unicode.Sinhala, unicode.Myanmar, unicode.Khmer,
		unicode.Tibetan, unicode.Balinese, unicode.Javanese,
	}
	rtlScripts = []*unicode.RangeTable{
		unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana,
		unicode.Nko, unicode.Samaritan, unicode.Mandaic, unicode.Adlam,
		unicode.Hanifi_Rohingya, unicode.Yezidi, unicode.Imperial_Aramaic,
		unicode.Phoenician, unicode.Kharoshthi, unicode.Avestan,
	}
)

// contextOf returns the classes of r (-1: no character).
func contextOf(r rune) context {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			return ctxLetter
		}
		return ctxNeutral
	}
	var c context
	if r == 0xFE0F || r >= 0x1F3FB && r <= 0x1F3FF || isBase(r, 0xFE0F) {
		c |= ctxEmoji
	}
	letter, mark := unicode.IsLetter(r), unicode.IsMark(r)
	switch {
	case letter:
		c |= ctxLetter | ctxWideLetter
	case !mark:
		c |= ctxNeutral
	}
	if letter || mark || unicode.IsDigit(r) {
		if (letter || mark) && unicode.In(r, joiningScripts...) {
			c |= ctxJoining
		}
		if unicode.In(r, rtlScripts...) {
			c |= ctxRTL
		}
	}
	return c
}
