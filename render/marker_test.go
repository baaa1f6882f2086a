package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// lookalikes are texts that imitate render's own output: escaped
// controls, chips, payload sizes, anomaly notes, grid glyphs. Each is
// plain text in the capture; want is how Text, Line and the glyph stream
// show it.
var lookalikes = []struct{ name, in, want string }{
	{"escaped OSC title", "␛]0;T␇", "<U+241B>]0;T<U+2407>"},
	{"escaped CSI", "␛[31m", "<U+241B>[31m"},
	{"raw C1 glyph", "⋄", "<U+22C4>"},
	{"chip", "‹CSI 31m›", "<U+2039>CSI 31m<U+203A>"},
	{"payload size", "‹5 bytes›", "<U+2039>5 bytes<U+203A>"},
	{"anomaly note", "‹unterminated›", "<U+2039>unterminated<U+203A>"},
	{"hidden payload", "░░░", "<U+2591><U+2591><U+2591>"},
	{"invalid byte", "␦", "<U+2426>"},
	{"format character", "␢", "<U+2422>"},
	{"continuation", "›", "<U+203A>"},
	{"DEL", "␡", "<U+2421>"},
	{"CR LF pictures", "␍␊", "<U+240D><U+240A>"},
	{"undrawn picture", "␤", "<U+2424>"},
	{"between text", "a⋄b c‹d", "a<U+22C4>b c<U+2039>d"},
}

// TestLookalikesEscaped checks that text imitating render's markers comes
// out escaped in Text, Line, every glyph stream, and the per-byte grid.
func TestLookalikesEscaped(t *testing.T) {
	for _, tc := range lookalikes {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte(tc.in)
			if got := Text(in).String(); got != tc.want {
				t.Errorf("Text %q, want %q", got, tc.want)
			}
			if got := Line(in).String(); got != tc.want {
				t.Errorf("Line %q, want %q", got, tc.want)
			}
			for _, o := range allStreamOptions {
				if got := Glyphs(in, o).String(); got != tc.want {
					t.Errorf("Glyphs %+v: %q, want %q", o, got, tc.want)
				}
			}
			w := DecodeEnd(decode.Decoder{}, in)
			for _, o := range allGlyphOptions {
				got, _ := joinCells(GlyphCells(&w, 0, len(in), o))
				if want := gridOf(tc.in, o.ASCII); got != want {
					t.Errorf("GlyphCells %+v: %q, want %q", o, got, want)
				}
			}
		})
	}
}

// gridOf is the per-byte grid of plain text s in which every non-ASCII
// character is one render cannot draw: ‹ on its lead byte, › on each
// continuation byte (* and ~ in the ASCII set).
func gridOf(s string, ascii bool) string {
	lead, cont := "‹", "›"
	if ascii {
		lead, cont = "*", "~"
	}
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		b.WriteString(lead)
		b.WriteString(strings.Repeat(cont, utf8.RuneLen(r)-1))
	}
	return b.String()
}

// TestEveryMarkerEscaped checks each rune of the marker table, alone in
// text, in Text, the glyph stream and the grid, and in a payload shown
// with Payloads.
func TestEveryMarkerEscaped(t *testing.T) {
	for _, r := range markers.runes {
		in := "x" + string(r) + "y"
		want := fmt.Sprintf("x<U+%04X>y", r)
		if got := Text([]byte(in)).String(); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
		for _, o := range allStreamOptions {
			if got := Glyphs([]byte(in), o).String(); got != want {
				t.Errorf("Glyphs(%q, %+v) = %q, want %q", in, o, got, want)
			}
		}
		w := DecodeEnd(decode.Decoder{}, []byte(in))
		for _, o := range allGlyphOptions {
			cells := GlyphCells(&w, 0, len(in), o)
			if got, _ := joinCells(cells); got != gridOf(in, o.ASCII) {
				t.Errorf("GlyphCells(%q, %+v) = %q", in, o, got)
			}
			if cells[1].Class != ClassUTF8Lead {
				t.Errorf("GlyphCells(%q): lead class %v", in, cells[1].Class)
			}
		}
		osc := "\x1b]0;" + in + "\x07"
		if got, want := Glyphs([]byte(osc), StreamOptions{Payloads: true}).String(), "␛]0;"+want+"␇"; got != want {
			t.Errorf("Glyphs(%q, payloads) = %q, want %q", osc, got, want)
		}
	}
}

// TestMarkerTableCoversGlyphs checks that every non-ASCII rune that the
// glyph stream, the grid and the hex dump draw for hostile inputs, and
// that the input does not hold, is in the marker table: a glyph added to
// render without going through its tables would fail here.
func TestMarkerTableCoversGlyphs(t *testing.T) {
	inputs := append([]string(nil), hostileSeeds...)
	for _, g := range goldenInputs {
		inputs = append(inputs, g.in)
	}
	inputs = append(inputs, "\x1b["+strings.Repeat("1;", 200)+"m", "\x1b]0;x\x18", "\xc2\x9d0;x\xc2\x9c")
	seen := map[rune]bool{}
	for _, in := range inputs {
		data := []byte(in)
		own := func(s string) {
			for _, r := range s {
				if r >= utf8.RuneSelf && !strings.ContainsRune(in, r) {
					seen[r] = true
				}
			}
		}
		for _, o := range allStreamOptions {
			own(Glyphs(data, o).String())
		}
		w := DecodeEnd(decode.Decoder{}, data)
		for _, o := range allGlyphOptions {
			got, _ := joinCells(GlyphCells(&w, 0, len(data), o))
			own(got)
		}
		var b bytes.Buffer
		if err := HexDump(&b, bytes.NewReader(data), int64(len(data)), HexOptions{}); err != nil {
			t.Fatal(err)
		}
		own(b.String())
	}
	for r := range seen {
		if !isMarker(r) {
			t.Errorf("render draws %q (%U), which is not in the marker table", r, r)
		}
	}
	for _, r := range []rune{'␀', '␛', '␡', '␢', '␤', '␦', '⋄', '‹', '›', '░'} {
		if !isMarker(r) {
			t.Errorf("%q (%U) is not a marker", r, r)
		}
	}
	for _, r := range []rune{'a', 'é', '中', '─', '…', '→', '▒'} {
		if isMarker(r) {
			t.Errorf("%q (%U) is a marker", r, r)
		}
	}
}

// TestRemovalMarks checks the markers for removed text: one per class,
// all different in each set, one cell in every width mode (Control
// Pictures), none a per-byte glyph of another meaning (␢ is a format
// character in both), escaped when a capture's text holds them; and the
// class of some removed tokens.
func TestRemovalMarks(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		seen := map[string]Removal{}
		for r := range NumRemovals {
			g := r.Mark(ascii).String()
			if prev, ok := seen[g]; ok {
				t.Errorf("ascii %v: %s and %s share the marker %q", ascii, prev, r, g)
			}
			seen[g] = r
			if r.Mark(ascii).Width() != 1 {
				t.Errorf("marker %q is %d cells wide", g, r.Mark(ascii).Width())
			}
			if ascii {
				continue
			}
			if c := []rune(g)[0]; c < controlPicturesFirst || c > controlPicturesLast {
				t.Errorf("marker %q (%U) is not a Control Picture: it may be wide in East Asian ambiguous-width mode", g, c)
			}
			if got := TextString(g).String(); got == g {
				t.Errorf("TextString(%q) is not escaped", g)
			}
			for _, other := range []string{glyphC1, glyphInvalid, glyphLead, glyphCont, glyphHidden, markOpen, markClose} {
				if g == other || g == glyphFormat && r != RemovalInvisible {
					t.Errorf("marker of %s is the glyph %q, which means something else", r, g)
				}
			}
		}
	}
	for in, want := range map[string]Removal{
		"\x1b[31m": RemovalStyle, "\x1b[8m": RemovalStyle, "\x1b[2K": RemovalCursor, "\r": RemovalCursor,
		"\x1b]8;;http://x/\x1b\\": RemovalString, "\x1b]52;c;?\x07": RemovalQuery, "\x1b[6n": RemovalQuery,
		"\u202e": RemovalInvisible, "\x1bP$qm\x1b\\": RemovalQuery, "\x1b_G\x1b\\": RemovalString,
	} {
		for tk := range decode.Tokens([]byte(in)) {
			if got := RemovalOf(&tk); got != want {
				t.Errorf("RemovalOf(%q) = %s, want %s", in, got, want)
			}
		}
	}
	// Width measures rendered text as it is, markers one cell each.
	if got := Width("⋄‹›░␛a中"); got != 8 {
		t.Errorf("Width = %d, want 8", got)
	}
}

// TestGlyphsEscapeSpellings checks that capture text spelled like the glyph
// stream's own escapes ("<9B>", "<U+202E>") cannot pass for them: its '<'
// is written "<3C>", also when a page boundary cuts the spelling, while
// other uses of '<' stay as they are.
func TestGlyphsEscapeSpellings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<9B>", "<3C>9B>"},
		{"a<FF>b", "a<3C>FF>b"},
		{"<U+202E>", "<3C>U+202E>"},
		{"<U+E0041> <U+10FFFF>", "<3C>U+E0041> <3C>U+10FFFF>"},
		{"\x9b1m<9B>1m", "<9B>1m<3C>9B>1m"}, // the real one first, then the text
		{"<b> <9b> <U+12> <U+1234567> <AB x<", "<b> <9b> <U+12> <U+1234567> <AB x<"},
		{"<<9B>>", "<<3C>9B>>"},
	} {
		for _, o := range allStreamOptions {
			if o.Policy.C1 == sanitize.C1Lone || o.Chips {
				continue // the real CSI is spelled otherwise there
			}
			if got := Glyphs([]byte(tc.in), o).String(); got != tc.want {
				t.Errorf("Glyphs(%q) %+v = %q, want %q", tc.in, o, got, tc.want)
			}
		}
	}
	// Cut by a page boundary at every place.
	for cut := 1; cut < len("<U+202E>"); cut++ {
		data := append(bytes.Repeat([]byte("a"), pageSize-cut), "<U+202E> <9B>"...)
		got := Glyphs(data, StreamOptions{}).String()
		if want := strings.Repeat("a", pageSize-cut) + "<3C>U+202E> <3C>9B>"; got != want {
			t.Errorf("cut %d: ends %q", cut, got[len(got)-30:])
		}
	}
}
