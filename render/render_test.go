package render

import (
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

func joinCells(cells []Cell) (text string, classes []string) {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.Text.String())
		classes = append(classes, c.Class.String())
	}
	return b.String(), classes
}

// TestCells checks the glyph and class of every byte of a hostile line,
// in both glyph sets, with payloads shown and hidden.
func TestCells(t *testing.T) {
	in := "a \t\x00\x01\x1b[1m\x7f\x85\xc3\xa9\xff\u202e\x1b]0;P\x07\xc2\x85\x1b"
	w := DecodeEnd(decode.Decoder{}, []byte(in))
	wantClasses := []string{
		"text", "space", "whitespace", "nul", "c0", // a SP TAB NUL SOH
		"sequence", "sequence", "sequence", "sequence", // ESC [ 1 m
		"del", "c1", "utf8-lead", "utf8-cont", "invalid", // DEL 85 é FF
		"format", "format", "format", // U+202E
		"sequence", "sequence", "payload", "payload", "payload", "sequence", // ESC ] 0 ; P BEL
		"c1", "c1", // U+0085
		"esc", // a lone ESC at the end
	}
	tests := []struct {
		name string
		o    GlyphOptions
		want string
	}{
		{"unicode", GlyphOptions{}, "a ␉␀␁␛[1m␡⋄é›␦␢››␛]0;P␇⋄›␛"},
		{"hidden", GlyphOptions{HidePayloads: true}, "a ␉␀␁␛[1m␡⋄é›␦␢››␛]░░░␇⋄›␛"},
		{"ascii", GlyphOptions{ASCII: true}, "a _..^[1m.!é~?%~~^]0;P.!~^"},
		{"ascii hidden", GlyphOptions{ASCII: true, HidePayloads: true}, "a _..^[1m.!é~?%~~^]###.!~^"},
	}
	hexText, hexClasses := joinCells(HexCells(&w, 0, len(in)))
	if want := "6120090001" + "1b5b316d" + "7f85c3a9ff" + "e280ae" + "1b5d303b5007" + "c285" + "1b"; hexText != want {
		t.Errorf("hex %q, want %q", hexText, want)
	}
	if strings.Join(hexClasses, " ") != strings.Join(wantClasses, " ") {
		t.Errorf("hex classes\n got %v\nwant %v", hexClasses, wantClasses)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cells := GlyphCells(&w, 0, len(in), tc.o)
			got, classes := joinCells(cells)
			if got != tc.want {
				t.Errorf("glyphs %q, want %q", got, tc.want)
			}
			if strings.Join(classes, " ") != strings.Join(wantClasses, " ") {
				t.Errorf("classes\n got %v\nwant %v", classes, wantClasses)
			}
			for i, c := range cells {
				if c.Off != int64(i) || c.Len != 1 {
					t.Errorf("cell %d: Off %d Len %d", i, c.Off, c.Len)
				}
			}
		})
	}
}

// TestWideCharacters checks how a wide character keeps one cell per byte.
func TestWideCharacters(t *testing.T) {
	in := "中a\u0301\U0001F600"
	w := DecodeEnd(decode.Decoder{}, []byte(in))
	tests := []struct {
		name   string
		off, n int
		o      GlyphOptions
		want   []string
	}{
		{"strict", 0, 10, GlyphOptions{}, []string{"‹", "›", "›", "a", "‹", "›", "‹", "›", "›", "›"}},
		{"pairs", 0, 10, GlyphOptions{WidePairs: true}, []string{"中", "", "›", "a", "‹", "›", "‹", "›", "›", "›"}},
		{"pairs cut by the row", 0, 1, GlyphOptions{WidePairs: true}, []string{"‹"}},
		{"continuation first", 1, 2, GlyphOptions{WidePairs: true}, []string{"›", "›"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cells := GlyphCells(&w, int64(tc.off), tc.n, tc.o)
			var got []string
			width := 0
			for _, c := range cells {
				got = append(got, c.Text.String())
				width += c.Text.Width()
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if width != len(cells) {
				t.Errorf("%d cells are %d cells wide", len(cells), width)
			}
		})
	}
}

// TestTokenAtAndBoundary checks the innermost token, the enclosing one and
// boundaries around a CSI with an embedded LF.
func TestTokenAtAndBoundary(t *testing.T) {
	in := "ab\x1b[3\n1mcd"
	w := DecodeEnd(decode.Decoder{}, []byte(in))
	tests := []struct {
		off        int64
		kind       decode.Kind
		embedded   bool
		seq        decode.Kind
		start, end bool
	}{
		{0, decode.KindText, false, decode.KindText, false, false},
		{2, decode.KindCSI, false, decode.KindCSI, true, false},
		{4, decode.KindCSI, false, decode.KindCSI, false, false},
		{5, decode.KindText, true, decode.KindCSI, false, false},
		{7, decode.KindCSI, false, decode.KindCSI, false, true},
		{8, decode.KindText, false, decode.KindText, false, false},
	}
	for _, tc := range tests {
		tk, i, ok := w.TokenAt(tc.off)
		if !ok || tk.Kind != tc.kind || tk.Is(decode.FlagEmbedded) != tc.embedded || w.Tokens[i].Off != tk.Off {
			t.Errorf("TokenAt(%d) = %v embedded %v (index %d, ok %v), want %v embedded %v",
				tc.off, tk.Kind, tk.Is(decode.FlagEmbedded), i, ok, tc.kind, tc.embedded)
		}
		if sq, _, _ := w.SequenceAt(tc.off); sq.Kind != tc.seq {
			t.Errorf("SequenceAt(%d) = %v, want %v", tc.off, sq.Kind, tc.seq)
		}
		if s, e := w.Boundary(tc.off); s != tc.start || e != tc.end {
			t.Errorf("Boundary(%d) = %v, %v; want %v, %v", tc.off, s, e, tc.start, tc.end)
		}
	}
	if _, _, ok := w.TokenAt(int64(len(in))); ok {
		t.Error("TokenAt past the end found a token")
	}
	if s, e := w.Boundary(2); !s || e {
		t.Error("Boundary of a CSI start")
	}
	// A one-byte control is both start and end.
	w2 := DecodeEnd(decode.Decoder{}, []byte("a\rb"))
	if s, e := w2.Boundary(1); !s || !e {
		t.Errorf("Boundary(CR) = %v, %v", s, e)
	}
}

// TestWindowFromCheckpoint checks that a window decoded from a
// checkpoint classes every byte as the whole stream does, whatever the
// split, and that tokens open at the end of a window are Open.
func TestWindowFromCheckpoint(t *testing.T) {
	in := []byte(strings.Join(hostileSeeds, ""))
	whole := DecodeEnd(decode.Decoder{}, in)
	want := HexCells(&whole, 0, len(in))
	for k := 0; k <= len(in); k += 7 {
		var d decode.Decoder
		d.Feed(in[:k], func(*decode.Token) {})
		w := DecodeEnd(d, in[k:])
		got := HexCells(&w, int64(k), len(in)-k)
		for i, c := range got {
			if c != want[k+i] {
				t.Fatalf("split at %d: byte %d: %v, want %v", k, c.Off, c, want[k+i])
			}
		}
		g1 := GlyphCells(&w, int64(k), len(in)-k, GlyphOptions{})
		g2 := GlyphCells(&whole, int64(k), len(in)-k, GlyphOptions{})
		for i := range g1 {
			// A character whose lead byte is before the window shows only
			// continuation markers; everything else is the same.
			if g1[i] != g2[i] && !(g1[i].Class == ClassUTF8Cont || g2[i].Class == ClassUTF8Cont) {
				t.Fatalf("split at %d: glyph at %d: %q, want %q", k, g1[i].Off, g1[i].Text, g2[i].Text)
			}
		}
	}

	w := Decode(decode.Decoder{}, []byte("ab\x1b]0;ti"))
	if w.Open != 1 || !w.IsOpen(len(w.Tokens)-1) {
		t.Fatalf("Open = %d, want 1", w.Open)
	}
	last := w.Tokens[len(w.Tokens)-1]
	if last.Kind != decode.KindOSC || last.Is(decode.FlagUnterminated) || last.Len != 6 {
		t.Errorf("open token %+v", last)
	}
	_, classes := joinCells(HexCells(&w, 0, 8))
	if got := strings.Join(classes, " "); got != "text text sequence sequence payload payload payload payload" {
		t.Errorf("classes %s", got)
	}
	if we := DecodeEnd(decode.Decoder{}, []byte("ab\x1b]0;ti")); we.Open != 0 || !we.Tokens[len(we.Tokens)-1].Is(decode.FlagUnterminated) {
		t.Error("DecodeEnd did not report the string unterminated")
	}
	// Out of the window: nothing.
	if c := HexCells(&w, 100, 4); c != nil {
		t.Errorf("cells outside the window: %v", c)
	}
	if c := HexCells(&w, -2, 4); len(c) != 2 || c[0].Off != 0 {
		t.Errorf("clipped cells: %v", c)
	}
}

// TestCellAllocs checks that HexCells and GlyphCells allocate only the
// returned slice (and, for drawn non-ASCII characters, one row string).
func TestCellAllocs(t *testing.T) {
	ascii := DecodeEnd(decode.Decoder{}, []byte("hello \x1b[31mred\x1b[0m\r\n\x1b]52;c;ZZZZ\x07\x00\x01\x02"))
	utf := DecodeEnd(decode.Decoder{}, []byte("café 中文 naïve ok"))
	for _, tc := range []struct {
		name string
		want float64
		f    func()
	}{
		{"hex", 1, func() { HexCells(&ascii, 0, 16) }},
		{"glyph ascii", 1, func() { GlyphCells(&ascii, 0, 16, GlyphOptions{}) }},
		{"glyph hidden", 1, func() { GlyphCells(&ascii, 16, 16, GlyphOptions{HidePayloads: true}) }},
		{"glyph utf-8", 2, func() { GlyphCells(&utf, 0, 16, GlyphOptions{WidePairs: true}) }},
	} {
		if n := testing.AllocsPerRun(100, tc.f); n > tc.want {
			t.Errorf("%s: %v allocations, want %v", tc.name, n, tc.want)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n", "plain text\n"},
		{"a\tb\r\n", "a␉b␍\n"},
		{"\x1b[31mred", "␛[31mred"},
		{"\x00\x7f", "␀␡"},
		{"\xff\xe6\x9b", "<FF><E6><9B>"},
		{"\u0085\u009b", "<U+0085><U+009B>"},
		{"\u202eevil\u202c", "<U+202E>evil<U+202C>"},
		{"a\u200bb\u200dc\ufeff", "a<U+200B>b<U+200D>c<U+FEFF>"},
		{"\u3164\u115f\u034f", "<U+3164><U+115F><U+034F>"},
		{"x\ufe0f\U000e0041", "x<U+FE0F><U+E0041>"},
		{"\ue000\u2028\u2029", "<U+E000><U+2028><U+2029>"},
		{"e\u0301 中文 café", "e\u0301 中文 café"},
		{"\U0001F600", "\U0001F600"},
	}
	for _, tc := range tests {
		if got := Text([]byte(tc.in)).String(); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Line([]byte("a\nb")).String(); got != "a␊b" {
		t.Errorf("Line = %q", got)
	}
	if got := TextString("x\x1b").String(); got != "x␛" {
		t.Errorf("TextString = %q", got)
	}
}

func TestSafeMethods(t *testing.T) {
	s := TextString("中文abc\ne\u0301x\n")
	if w := TextString("中a").Width(); w != 3 {
		t.Errorf("Width(中a) = %d", w)
	}
	if w := TextString("e\u0301").Width(); w != 1 {
		t.Errorf("Width(e + combining acute) = %d", w)
	}
	lines := s.Lines()
	if len(lines) != 2 || lines[0].String() != "中文abc" || lines[1].String() != "e\u0301x" {
		t.Errorf("Lines = %q", lines)
	}
	for _, tc := range []struct {
		from, width int
		want        string
	}{
		{0, 4, "中文"}, {1, 3, " 文"}, {0, 3, "中 "}, {4, 10, "abc"}, {2, 1, " "}, {5, 1, "b"}, {0, 0, ""},
	} {
		got := s.Slice(tc.from, tc.width)
		if got.String() != tc.want {
			t.Errorf("Slice(%d, %d) = %q, want %q", tc.from, tc.width, got, tc.want)
		}
	}
	if got := Concat(TextString("a"), Spaces(2), TextString("b")).String(); got != "a  b" {
		t.Errorf("Concat = %q", got)
	}
	if !Spaces(-1).IsZero() {
		t.Error("Spaces(-1) not empty")
	}
	for off, want := range map[int64]string{0: "0x00000000", 0x1f00: "0x00001f00", 1 << 40: "0x10000000000", -16: "-0x00000010"} {
		if got := Offset(off).String(); got != want {
			t.Errorf("Offset(%d) = %q, want %q", off, got, want)
		}
	}
	for c := range numClasses {
		if c.String() == "class?" || c.String() == "" {
			t.Errorf("class %d has no name", c)
		}
	}
	if len(Classes()) != int(numClasses) {
		t.Error("Classes")
	}
}

func TestDecision(t *testing.T) {
	def := sanitize.Options{}
	tests := []struct {
		in   string
		o    sanitize.Options
		want string
	}{
		{"abc", def, "kept as text"},
		{"\x1b[31m", def, "removed: CSI (control sequence)"},
		{"\x1b[6n", def, "removed: CSI (control sequence); flagged query: a terminal would have replied"},
		{"\x1b[8m", def, "removed: CSI (control sequence); flagged sgr_conceal: a terminal would have hidden the text"},
		{"\x1b[2J", def, "removed: CSI (control sequence); flagged erase: text painted over"},
		{"\x1b[?1049h", def, "removed: CSI (control sequence); flagged alt_screen: the alternate screen would have hidden the scrollback"},
		{"\r", def, "CR: removed; a run followed by LF becomes that LF, any other run one LF (policy cr=lines)"},
		{"\r", sanitize.Options{CR: sanitize.CRScreen}, "CR: removed; the cursor goes to the line's first column, and the line is written as the screen finally showed it (policy cr=screen)"},
		{"\r", sanitize.Options{CR: sanitize.CRDrop}, "CR: removed; dropped (policy cr=drop)"},
		{"\b", def, "BS: removed (policy bs=drop); flagged overwrite"},
		{"\b", sanitize.Options{BS: sanitize.BSOverstrike}, "BS: applied: the next character replaces the one before (policy bs=overstrike); flagged overwrite"},
		{"\v", def, "replaced by LF (xterm moves down a line)"},
		{"\a", def, "removed: C0 control"},
		{"\x7f", def, "removed: DEL"},
		{"\x85", def, "removed: C1 control"},
		{"\x8d", def, "removed: C1 control; flagged cursor_move: text may be painted over"},
		{"\x1b7", def, "removed: escape sequence"},
		{"\x1b8", def, "removed: escape sequence; flagged cursor_move: text may be painted over"},
		{"\x1b]8;;http://x/\x1b\\", def, "label kept, target dropped (policy links=drop); flagged hyperlink: the label would have been a link"},
		{"\x1b]8;;http://x/\x1b\\", sanitize.Options{Links: sanitize.LinksAppend}, "label kept, target appended as \" <URI>\" after it when printable http(s) (policy links=append); flagged hyperlink: the label would have been a link"},
		{"\x1b]8;;\x1b\\", def, "removed: OSC 8 hyperlink close; the label before it was kept"},
		{"\x1b]52;c;ZZ\x07", def, "removed: OSC string, payload dropped; flagged clipboard: the clipboard would have been used"},
		{"\x1b]52;c;?\x07", def, "removed: OSC string, payload dropped; flagged query, clipboard: a terminal would have replied"},
		{"\x1b]0;t\x07", def, "removed: OSC string, payload dropped; flagged title: the window title would have changed"},
		{"\x1b]11;?\x07", def, "removed: OSC string, payload dropped; flagged query: a terminal would have replied"},
		{"\x1bP$qm\x1b\\", def, "removed: DCS string, payload dropped; flagged query: a terminal would have replied"},
		{"\x1b_Gx\x1b\\", def, "removed: APC string, payload dropped"},
		{"\x1b^x\x1b\\", def, "removed: PM string, payload dropped"},
		{"\x1bXx\x1b\\", def, "removed: SOS string, payload dropped"},
		{"\x1bkx\x1b\\", def, "removed: ESC k title string, payload dropped; flagged title: the window title would have changed"},
		{"\xff", def, "replaced by U+FFFD (maximal subpart)"},
		{"\u202e", def, "removed and counted (policy format-chars=strip); flagged reorder: the text would have been shown in another order than it is read"},
		{"\u202e", sanitize.Options{FormatChars: sanitize.FormatKeep}, "kept and counted (policy format-chars=keep); flagged reorder: the text would have been shown in another order than it is read"},
		{"\u202e", sanitize.Options{FormatChars: sanitize.FormatEscape}, "shown as <U+202E> (policy format-chars=escape); flagged reorder: the text would have been shown in another order than it is read"},
		{"\u200b", def, "removed and counted (policy format-chars=strip); a run of them is flagged invisible"},
		{"\ufe0f", def, "kept as the one variation selector directly after a base character; otherwise removed and counted (policy format-chars=strip); a run of them is flagged invisible"},
		{"\u2028", def, "replaced by LF (policy format-chars=strip)"},
		{"\u2028", sanitize.Options{FormatChars: sanitize.FormatEscape}, "shown as <U+2028> (policy format-chars=escape)"},
		{"\u200d", def, "kept and counted where the characters on either side need it (inside an emoji ZWJ sequence, between letters or marks of a joining or Indic script, a bidi mark after right-to-left text or between a neutral or number and right-to-left text, a soft hyphen between letters not both ASCII), not right after another; otherwise removed and counted (policy format-chars=strip); a run of them is flagged invisible"},
		{"\x1b]0;open", def, "removed: OSC string, payload dropped; reported unterminated: 8 bytes swallowed to the end of input"},
		{"\x1b[1\x18", def, "removed: CSI (control sequence); reported aborted"},
	}
	for _, tc := range tests {
		tk := firstToken(t, tc.in)
		if got := Decision(&tk, tc.o).String(); got != tc.want {
			t.Errorf("Decision(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}

	// In a window, a CR knows what follows it.
	w := DecodeEnd(decode.Decoder{}, []byte("a\r\r\nb\rc"))
	for i, want := range map[int]string{
		1: "CR: removed; run followed by LF, which is the line break (policy cr=lines)",
		2: "CR: removed; run followed by LF, which is the line break (policy cr=lines)",
		4: "CR: removed; run not followed by LF becomes one LF; flagged overwrite (policy cr=lines)",
	} {
		if got := DecisionIn(&w, i, def).String(); got != want {
			t.Errorf("DecisionIn(%d)\n got %q\nwant %q", i, got, want)
		}
	}
	if !DecisionIn(&w, 99, def).IsZero() {
		t.Error("DecisionIn out of range")
	}
}
