package render

import (
	"bytes"
	"fmt"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// checkSafe fails unless s holds only graphic runes, spaces and, when
// lines is set, LF: no C0, C1, DEL, ESC, format characters, private-use,
// unassigned or invalid UTF-8. It does not trust displayable, the
// function under test.
func checkSafe(t testing.TB, what string, s string, lines bool) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s: invalid UTF-8: %q", what, s)
	}
	for i, r := range s {
		switch {
		case r == '\n' && lines, r == ' ':
			continue
		case r < 0x20, r >= 0x7F && r <= 0x9F,
			unicode.Is(unicode.Cf, r), unicode.Is(unicode.Cc, r),
			unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r),
			unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r),
			unicode.Is(unicode.Variation_Selector, r),
			!unicode.IsGraphic(r):
			t.Fatalf("%s: unsafe rune %U at byte %d in %q", what, r, i, s)
		}
	}
}

var allStreamOptions = func() []StreamOptions {
	var out []StreamOptions
	for _, payloads := range []bool{false, true} {
		for _, chips := range []bool{false, true} {
			for _, lone := range []sanitize.C1Policy{sanitize.C1Introducers, sanitize.C1Lone} {
				out = append(out, StreamOptions{Payloads: payloads, Chips: chips, Policy: sanitize.Options{C1: lone}})
			}
		}
	}
	return out
}()

var allGlyphOptions = func() []GlyphOptions {
	var out []GlyphOptions
	for i := range 8 {
		out = append(out, GlyphOptions{HidePayloads: i&1 != 0, ASCII: i&2 != 0, WidePairs: i&4 != 0})
	}
	return out
}()

// checkAll runs every renderer over data and checks every Safe it makes.
func checkAll(t testing.TB, data []byte) {
	for _, o := range allStreamOptions {
		checkSafe(t, fmt.Sprintf("Glyphs %+v", o), Glyphs(data, o).String(), true)
	}
	checkSafe(t, "Text", Text(data).String(), true)
	checkSafe(t, "Line", Line(data).String(), false)

	w := DecodeEnd(decode.Decoder{}, data)
	for i := range w.Tokens {
		tk := &w.Tokens[i]
		checkSafe(t, "Describe", Describe(tk).String(), false)
		checkSafe(t, "Decision", Decision(tk, sanitize.Options{}).String(), false)
		checkSafe(t, "DecisionIn", DecisionIn(&w, i, sanitize.Options{CR: sanitize.CRLines}).String(), false)
	}
	const row = 16
	for off := int64(0); off < int64(len(data)); off += row {
		hex := HexCells(&w, off, row)
		for _, c := range hex {
			if s := c.Text.String(); len(s) != 2 || !isHex(s) {
				t.Fatalf("hex cell %q at %d", s, c.Off)
			}
		}
		for _, o := range allGlyphOptions {
			cells := GlyphCells(&w, off, row, o)
			if len(cells) != len(hex) {
				t.Fatalf("%d glyph cells, %d hex cells", len(cells), len(hex))
			}
			for k := 0; k < len(cells); k++ {
				c := cells[k]
				checkSafe(t, "GlyphCell", c.Text.String(), false)
				if c.Class != hex[k].Class || c.Off != hex[k].Off {
					t.Fatalf("byte %d: glyph class %v, hex class %v", c.Off, c.Class, hex[k].Class)
				}
				switch wd := c.Text.Width(); {
				case wd == 1:
				case wd == 2 && o.WidePairs && k+1 < len(cells) && cells[k+1].Text.Width() == 0 && cells[k+1].Text.IsZero():
					k++
				default:
					t.Fatalf("byte %d: glyph %q is %d cells wide (options %+v)", c.Off, c.Text, wd, o)
				}
			}
		}
	}
	var b bytes.Buffer
	if err := HexDump(&b, bytes.NewReader(data), int64(len(data)), HexOptions{}); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "HexDump", b.String(), true)
	b.Reset()
	if err := HexDump(&b, bytes.NewReader(data), int64(len(data)), HexOptions{Payloads: true, Width: 7}); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "HexDump payloads", b.String(), true)
	b.Reset()
	if err := WriteDescriptions(&b, bytes.NewReader(data), int64(len(data)), StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "WriteDescriptions", b.String(), true)
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// FuzzSafe checks that for any bytes every Safe render produces is safe
// and every glyph cell is one cell wide.
func FuzzSafe(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAll(t, data)
	})
}

// hostileSeeds are inputs that exercise every token kind and anomaly.
var hostileSeeds = []string{
	"",
	"plain text\n",
	"hello \x1b[31mred\x1b[0m world\r\nsecret\rHIDE\n",
	"\x1b]0;evil title\x07\x1b]52;c;ZWNobyBwd25lZA==\x1b\\\x1b]8;;http://x.example/\x1b\\link\x1b]8;;\x1b\\\n",
	"\x9b31mC1\x9bm \xff\xfe bad utf8 caf\xc3\xa9 \xe4\xb8\xad\t tab\x08\x08XX",
	"\x1b[2K\x1b[8mconceal\x1b[28m\x1b[?1049h\x1bP+q544e\x1b\\\n",
	"\xc2\x9b31m\xc2\x9d0;t\xc2\x9c\xc2\x85",
	"\u202eevil\u202c \u200b\u2066x\u2069 \U000e0041\ufe0f\u00ad",
	"\x1b[3\n1m\x1b[1\x07m\x1b[?25\x18l",
	"\x1b]0;unterminated",
	"\x1bP1;2q#0;2;0;0;0~-\x1b\\\x1b_Gf=100;AAAA\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\\x1bktitle\x1b\\",
	"\x1b(B\x1b#8\x1b F\x1b7\x1b8\x1bc\x1b=\x1b>",
	"\x1b[38;5;196m\x1b[48;2;1;2;3m\x1b[4:3m\x1b[58:2::1:2:3m",
	"\xe6\x9bh\xf0\x9f\x98\x80\xed\xa0\x80\xc0\xaf",
	"\x1b[\xe4\xb8\xadm\x1b\x1b\x1b",
	"\x1b]52;c;?\x07\x1b]11;?\x07\x1b[6n\x1b[c\x1b[>c\x1b[=c\x1b[>q\x1b[?2004$p",
	"\u4e2d\u6587\u3042 \U0001F600 e\u0301 \u115f\u3164 \ue000 \u2028",
	"\x1b]8;;\x9c\x1b\\",
	"\x00\x01\x7f\x80\x9f\xa0\xff",
	"␛]0;T␇ ⋄ ‹CSI 31m› ‹5 bytes› ░ ␦ ␢ › \x1b]0;‹1 byte›\x07",
}
