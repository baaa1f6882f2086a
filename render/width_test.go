package render

import (
	"testing"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// tableGlyphs returns every string render draws by itself: both glyph
// sets, the Control Pictures and the chip brackets.
func tableGlyphs() []string {
	var out []string
	for _, g := range glyphSets {
		for _, s := range g.ascii {
			out = append(out, s.s)
		}
		out = append(out, g.c1.s, g.invalid.s, g.lead.s, g.cont.s, g.format.s, g.hidden.s)
	}
	for _, s := range c0Pictures {
		if s != "" {
			out = append(out, s)
		}
	}
	return append(out, "‹", "›")
}

// TestGlyphWidths checks that every glyph in render's tables is one rune,
// one cell wide, and not East Asian ambiguous: one cell also in terminals
// that draw ambiguous characters two cells wide.
func TestGlyphWidths(t *testing.T) {
	ea := runewidth.Condition{EastAsianWidth: true}
	narrow := runewidth.Condition{EastAsianWidth: false}
	for _, s := range tableGlyphs() {
		if utf8.RuneCountInString(s) != 1 {
			t.Errorf("glyph %q is %d runes", s, utf8.RuneCountInString(s))
			continue
		}
		r, _ := utf8.DecodeRuneInString(s)
		if w := ea.RuneWidth(r); w != 1 {
			t.Errorf("glyph %q (%U) is %d cells wide in East-Asian-ambiguous-wide mode", s, r, w)
		}
		if w := narrow.RuneWidth(r); w != 1 {
			t.Errorf("glyph %q (%U) is %d cells wide", s, r, w)
		}
		if w := (Safe{s}).Width(); w != 1 {
			t.Errorf("glyph %q: Width() = %d", s, w)
		}
	}
}

// TestRuneWidthAgrees compares render's width table with go-runewidth for
// the characters the glyph grid draws: they must agree wherever a
// character is drawn alone in a cell.
func TestRuneWidthAgrees(t *testing.T) {
	c := runewidth.Condition{EastAsianWidth: false}
	bad := 0
	for r := rune(0xA0); r <= 0x3FFFF; r++ {
		w, ok := gridDrawable(r)
		if !ok {
			continue
		}
		if rw := c.RuneWidth(r); rw != w {
			if bad < 20 {
				t.Errorf("%U: render width %d, runewidth %d", r, w, rw)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d disagreements", bad)
	}
}
