package screen

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fnCase is one control function's behaviour in xterm: the bytes, the
// screen rows after them (trailing blank rows may be left out) and the
// cursor.
type fnCase struct {
	name string
	in   string
	rows []string
	x, y int
	// notTmux marks cases where tmux is known to differ from xterm:
	// capture-pane keeps DEC graphics as letters; tmux keeps the pending
	// wrap over LF and BS, where xterm cancels it (mattiase/wraptest);
	// tmux leaves the cursor column alone on IL and DL, stops REP at the
	// margin, ignores LNM and CHT, drops invalid UTF-8 where xterm shows
	// U+FFFD, and keeps DECAWM off over DECSTR, where xterm restores its
	// initial modes.
	notTmux bool
}

// fnCases run on a 10×4 screen in pseudo-terminal mode (LF is only LF).
var fnCases = []fnCase{
	{name: "text", in: "abc", rows: []string{"abc"}, x: 3},
	{name: "autowrap", in: "0123456789AB", rows: []string{"0123456789", "AB"}, x: 2, y: 1},
	{name: "pending wrap then CR", in: "0123456789\rX", rows: []string{"X123456789"}, x: 1},
	{name: "pending wrap then LF", in: "0123456789\nX", rows: []string{"0123456789", "         X"}, x: 9, y: 1, notTmux: true},
	{name: "pending wrap stays at last column", in: "0123456789", rows: []string{"0123456789"}, x: 9},
	{name: "DECAWM off clips", in: "\x1b[?7l0123456789AB", rows: []string{"012345678B"}, x: 9},
	{name: "BS", in: "abc\b\bX", rows: []string{"aXc"}, x: 2},
	{name: "BS at first column", in: "\bX", rows: []string{"X"}, x: 1},
	{name: "BS in pending wrap", in: "0123456789\bX", rows: []string{"01234567X9"}, x: 9, notTmux: true},
	{name: "HT", in: "a\tb", rows: []string{"a       b"}, x: 9},
	{name: "HT stops at margin", in: "a\t\t\tb", rows: []string{"a        b"}, x: 9},
	{name: "CUP", in: "\x1b[2;3HX", rows: []string{"", "  X"}, x: 3, y: 1},
	{name: "CUP clamps", in: "\x1b[99;99HX", rows: []string{"", "", "", "         X"}, x: 9, y: 3},
	{name: "CUU clamps", in: "\x1b[3;1H\x1b[5AX", rows: []string{"X"}, x: 1},
	{name: "CUD CUF CUB", in: "\x1b[2B\x1b[4C\x1b[2DX", rows: []string{"", "", "  X"}, x: 3, y: 2},
	{name: "CNL CPL", in: "ab\x1b[2Ec\x1b[1Fd", rows: []string{"ab", "d", "c"}, x: 1, y: 1},
	{name: "CHA HPA VPA", in: "\x1b[5GX\x1b[3dY\x1b[2`Z", rows: []string{"    X", "", " Z   Y"}, x: 2, y: 2},
	{name: "EL 0", in: "abcdefghij\x1b[1;5H\x1b[K", rows: []string{"abcd"}, x: 4},
	{name: "EL 1", in: "abcdefghij\x1b[1;5H\x1b[1K", rows: []string{"     fghij"}, x: 4},
	{name: "EL 2", in: "abcdefghij\x1b[1;5H\x1b[2K", rows: []string{""}, x: 4},
	{name: "ECH", in: "abcdefghij\x1b[1;5H\x1b[3X", rows: []string{"abcd   hij"}, x: 4},
	{name: "ED 0", in: "ab\r\ncd\r\nef\x1b[2;2H\x1b[J", rows: []string{"ab", "c"}, x: 1, y: 1},
	{name: "ED 1", in: "ab\r\ncd\r\nef\x1b[2;1H\x1b[1J", rows: []string{"", " d", "ef"}, y: 1},
	{name: "ED 2", in: "ab\r\ncd\x1b[2J", rows: []string{""}, x: 2, y: 1},
	{name: "ICH", in: "abcdef\x1b[1;3H\x1b[2@", rows: []string{"ab  cdef"}, x: 2},
	{name: "ICH pushes past margin", in: "0123456789\x1b[1;1H\x1b[3@", rows: []string{"   0123456"}},
	{name: "DCH", in: "abcdef\x1b[1;3H\x1b[2P", rows: []string{"abef"}, x: 2},
	{name: "IL", in: "a\r\nb\r\nc\r\nd\x1b[2;3H\x1b[L", rows: []string{"a", "", "b", "c"}, y: 1, notTmux: true},
	{name: "DL", in: "a\r\nb\r\nc\r\nd\x1b[2;3H\x1b[M", rows: []string{"a", "c", "d", ""}, y: 1, notTmux: true},
	{name: "LF scrolls", in: "a\r\nb\r\nc\r\nd\r\ne", rows: []string{"b", "c", "d", "e"}, x: 1, y: 3},
	{name: "DECSTBM region scroll", in: "a\r\nb\r\nc\r\nd\x1b[2;3r\x1b[3;1H\nX", rows: []string{"a", "c", "X", "d"}, x: 1, y: 2},
	{name: "DECSTBM homes cursor", in: "abc\x1b[2;3rX", rows: []string{"Xbc"}, x: 1},
	{name: "DECOM", in: "\x1b[2;3r\x1b[?6h\x1b[1;1HX\x1b[9;1HY", rows: []string{"", "X", "Y"}, x: 1, y: 2},
	{name: "CUU stops at top margin", in: "\x1b[2;4r\x1b[4;1H\x1b[9AX", rows: []string{"", "X"}, x: 1, y: 1},
	{name: "SU", in: "a\r\nb\r\nc\r\nd\x1b[S", rows: []string{"b", "c", "d", ""}, x: 1, y: 3},
	{name: "SD", in: "a\r\nb\r\nc\r\nd\x1b[T", rows: []string{"", "a", "b", "c"}, x: 1, y: 3},
	{name: "RI at top scrolls down", in: "a\r\nb\x1b[H\x1bMX", rows: []string{"X", "a", "b"}, x: 1},
	{name: "IND NEL", in: "ab\x1bDc\x1bEd", rows: []string{"ab", "  c", "d"}, x: 1, y: 2},
	{name: "DECSC DECRC", in: "ab\x1b7\x1b[3;3Hx\x1b8c", rows: []string{"abc", "", "  x"}, x: 3},
	{name: "SCOSC SCORC", in: "ab\x1b[s\x1b[3;3Hx\x1b[uc", rows: []string{"abc", "", "  x"}, x: 3},
	{name: "REP", in: "a\x1b[3b", rows: []string{"aaaa"}, x: 4},
	{name: "REP wraps", in: "a\x1b[11b", rows: []string{"aaaaaaaaaa", "aa"}, x: 2, y: 1, notTmux: true},
	{name: "IRM", in: "abc\x1b[1G\x1b[4hX\x1b[4lY", rows: []string{"XYbc"}, x: 2},
	{name: "DEC special graphics", in: "\x1b(0lqk\x1b(B", rows: []string{"┌─┐"}, x: 3, notTmux: true},
	{name: "SO SI", in: "\x1b)0a\x0eq\x0fq", rows: []string{"a─q"}, x: 3, notTmux: true},
	{name: "alternate screen 1049", in: "main\x1b[?1049h\x1b[Halt\x1b[?1049l", rows: []string{"main"}, x: 4},
	{name: "alternate screen shown", in: "main\x1b[?1049h\x1b[2;1Halt", rows: []string{"", "alt"}, x: 3, y: 1},
	{name: "alternate screen 47 keeps cursor", in: "main\x1b[?47hX", rows: []string{"    X"}, x: 5},
	{name: "wide character", in: "終x", rows: []string{"終x"}, x: 3},
	{name: "wide character at last column wraps", in: "012345678終", rows: []string{"012345678", "終"}, x: 2, y: 1},
	{name: "wide character half overwritten", in: "終y\rx", rows: []string{"x y"}, x: 1},
	{name: "combining mark", in: "e\u0301x", rows: []string{"e\u0301x"}, x: 2},
	{name: "two combining marks", in: "\u0e17\u0e35\u0e48x", rows: []string{"\u0e17\u0e35\u0e48x"}, x: 2},
	// xterm keeps two (combiningChars); tmux keeps more.
	{name: "a third combining mark only extends the span", in: "z\u0301\u0302\u0303x", rows: []string{"z\u0301\u0302x"}, x: 2, notTmux: true},
	{name: "LNM", in: "\x1b[20hab\ncd", rows: []string{"ab", "cd"}, x: 2, y: 1, notTmux: true},
	{name: "DECALN", in: "\x1b#8", rows: []string{"EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"}},
	{name: "RIS", in: "abc\x1bc", rows: []string{""}},
	{name: "TBC HTS", in: "\x1b[3g\x1b[3G\x1bH\r\tX", rows: []string{"  X"}, x: 3},
	{name: "CBT", in: "\x1b[10G\x1b[ZX", rows: []string{"        X"}, x: 9},
	{name: "CHT", in: "\x1b[2IX", rows: []string{"         X"}, x: 9, notTmux: true},
	{name: "invalid UTF-8 shows U+FFFD", in: "a\xffb", rows: []string{"a\uFFFDb"}, x: 3, notTmux: true},
	{name: "controls strings change nothing", in: "a\x1b]0;title\x07b\x1bPq#0\x1b\\c", rows: []string{"abc"}, x: 3},
	{name: "SGR keeps pending wrap", in: "0123456789\x1b[31mX", rows: []string{"0123456789", "X"}, x: 1, y: 1},
	{name: "CR LF in text", in: "ab\r\ncd", rows: []string{"ab", "cd"}, x: 2, y: 1},
	{name: "DECSTR", in: "\x1b[?7l\x1b[!p0123456789AB", rows: []string{"0123456789", "AB"}, x: 2, y: 1, notTmux: true},
}

// lines returns the rows of the screen shown as text.
func lines(m *Model) []string {
	_, rows := m.Size()
	out := make([]string, rows)
	for y := range rows {
		out[y] = string(m.AppendLine(nil, y))
	}
	return out
}

func padRows(rows []string, n int) []string {
	out := append([]string(nil), rows...)
	for len(out) < n {
		out = append(out, "")
	}
	return out
}

func feed(t *testing.T, o Options, in string) *Model {
	t.Helper()
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	m.Feed([]byte(in))
	m.End()
	return m
}

func TestControlFunctions(t *testing.T) {
	for _, c := range fnCases {
		t.Run(c.name, func(t *testing.T) {
			m := feed(t, Options{Cols: 10, Rows: 4}, c.in)
			got, want := lines(m), padRows(c.rows, 4)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%q:\n got %q\nwant %q", c.in, got, want)
			}
			if x, y := m.Cursor(); x != c.x || y != c.y {
				t.Errorf("%q: cursor (%d,%d), want (%d,%d)", c.in, x, y, c.x, c.y)
			}
		})
	}
}

// TestRepeatLimit: Options.RepeatLimit caps the characters one REP draws,
// below the screen's own cap of Cols × Rows cells.
func TestRepeatLimit(t *testing.T) {
	for _, c := range []struct {
		limit int
		rows  []string
		x, y  int
	}{
		{0, []string{"aaaaaaaaaa", "aaaaaaaaaa", "aaaaaaaaaa", "a"}, 1, 3}, // the screen's cap, 40: the 41st cell scrolls
		{5, []string{"aaaaaa"}, 6, 0},
		{12, []string{"aaaaaaaaaa", "aaa"}, 3, 1},
	} {
		m := feed(t, Options{Cols: 10, Rows: 4, RepeatLimit: c.limit}, "a\x1b[65535b")
		if got, want := lines(m), padRows(c.rows, 4); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("limit %d:\n got %q\nwant %q", c.limit, got, want)
		}
		if x, y := m.Cursor(); x != c.x || y != c.y {
			t.Errorf("limit %d: cursor (%d,%d), want (%d,%d)", c.limit, x, y, c.x, c.y)
		}
	}
}

func TestUnknownCounted(t *testing.T) {
	for _, in := range []string{"\x1b[5y", "\x1b[?9999h", "\x1b#3", "\x1b[99J", "\x1b[3$z"} {
		m := feed(t, Options{Cols: 10, Rows: 4}, "ab"+in)
		if got := m.Stats().Unknown; got != 1 {
			t.Errorf("%q: Unknown = %d, want 1", in, got)
		}
		if got := lines(m)[0]; got != "ab" {
			t.Errorf("%q changed the screen: %q", in, got)
		}
	}
}

func TestCellSpans(t *testing.T) {
	// Each cell knows the bytes that drew it: "a" at 0, "é" at 1 (2 bytes),
	// "c" after an SGR at 8, the REP's three cells the REP at 9.
	in := "aé\x1b[31mc\x1b[3b"
	m := feed(t, Options{Cols: 10, Rows: 4}, in)
	want := []struct {
		off int64
		n   uint32
	}{{0, 1}, {1, 2}, {8, 1}, {9, 4}, {9, 4}, {9, 4}}
	for x, w := range want {
		c := m.Cell(x, 0)
		if c.Off != w.off || c.Len != w.n {
			t.Errorf("cell %d (%q): span %d+%d, want %d+%d", x, c.Rune, c.Off, c.Len, w.off, w.n)
		}
	}
	if c := m.Cell(2, 0); c.Pen.Fg != Palette(1) {
		t.Errorf("pen of c = %+v, want red foreground", c.Pen)
	}
	// A combining mark extends the span of its base.
	m = feed(t, Options{Cols: 10, Rows: 4}, "e\u0301")
	if c := m.Cell(0, 0); c.Off != 0 || c.Len != 3 {
		t.Errorf("e + U+0301: span %d+%d, want 0+3", c.Off, c.Len)
	}
}

func TestSGR(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Pen
	}{
		{"\x1b[1;3;4;7;8;9m", Pen{Attr: AttrBold | AttrItalic | AttrUnderline | AttrReverse | AttrConceal | AttrStrike}},
		{"\x1b[1;2;22m", Pen{}},
		{"\x1b[8;28m", Pen{}},
		{"\x1b[31;42m", Pen{Fg: Palette(1), Bg: Palette(2)}},
		{"\x1b[91;102m", Pen{Fg: Palette(9), Bg: Palette(10)}},
		{"\x1b[38;5;196;48;5;21m", Pen{Fg: Palette(196), Bg: Palette(21)}},
		{"\x1b[38;2;1;2;3m", Pen{Fg: RGB(1, 2, 3)}},
		{"\x1b[38:2::1:2:3m", Pen{Fg: RGB(1, 2, 3)}},
		{"\x1b[38:5:9m", Pen{Fg: Palette(9)}},
		{"\x1b[4:3;31m", Pen{Fg: Palette(1), Attr: AttrUnderline}},
		{"\x1b[31m\x1b[39m", Pen{}},
		{"\x1b[1m\x1b[m", Pen{}},
	} {
		m := feed(t, Options{Cols: 10, Rows: 4}, c.in+"x")
		if got := m.Cell(0, 0).Pen; got != c.want {
			t.Errorf("%q: pen %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestEraseUsesBackground(t *testing.T) {
	m := feed(t, Options{Cols: 10, Rows: 4}, "abc\x1b[41m\x1b[2K")
	if c := m.Cell(5, 0); c.Pen.Bg != Palette(1) || !c.Blank() || c.Off != 8 {
		t.Errorf("erased cell %+v, want blank with red background drawn by the EL at 8", c)
	}
}

func TestNewlineCRLF(t *testing.T) {
	m := feed(t, Options{Cols: 10, Rows: 4, NewlineCRLF: true}, "ab\ncd")
	if got := lines(m); got[1] != "cd" {
		t.Errorf("LF as CR LF: rows %q", got)
	}
}

func TestSize(t *testing.T) {
	if _, err := New(Options{Cols: 1001, Rows: 24}); err == nil {
		t.Error("1001 columns accepted")
	}
	if _, err := New(Options{Cols: 1000, Rows: 1000}); err != nil {
		t.Errorf("1000x1000 refused: %v", err)
	}
	for _, c := range []struct {
		s          string
		cols, rows int
		ok         bool
	}{{"80x24", 80, 24, true}, {"1000x1", 1000, 1, true}, {"2000x10", 0, 0, false}, {"80", 0, 0, false}, {"80x24x", 0, 0, false}, {"0x5", 0, 0, false}} {
		cols, rows, err := ParseSize(c.s)
		if (err == nil) != c.ok || c.ok && (cols != c.cols || rows != c.rows) {
			t.Errorf("ParseSize(%q) = %d, %d, %v", c.s, cols, rows, err)
		}
	}
	m := feed(t, Options{Cols: 10, Rows: 4}, "0123456789\r\nabc")
	if err := m.Resize(5, 2); err != nil {
		t.Fatal(err)
	}
	if got := lines(m); strings.Join(got, "|") != "01234|abc" {
		t.Errorf("after resize: %q", got)
	}
	if err := m.Resize(0, 2); err == nil {
		t.Error("resize to 0 columns accepted")
	}
}

// TestCheckpoint: a clone (and a Snapshot, without findings) fed the
// rest of the stream ends where the original does, and feeding it leaves
// the original alone.
func TestCheckpoint(t *testing.T) {
	in := []byte("one\r\n\x1b[31mtwo\x1b[?1049hthree\x1b[2;3r\nfour\x1b[?1049l five\x1b[1;1H\x1b[2K")
	whole := feed(t, Options{Cols: 10, Rows: 4, Findings: true}, string(in))
	for cut := range in {
		m, _ := New(Options{Cols: 10, Rows: 4, Findings: true})
		m.Feed(in[:cut])
		before := strings.Join(lines(m), "|")
		c := m.Clone()
		c.Feed(in[cut:])
		c.End()
		if got := strings.Join(lines(m), "|"); got != before {
			t.Fatalf("cut %d: feeding the clone changed the original", cut)
		}
		if got, want := strings.Join(lines(c), "|"), strings.Join(lines(whole), "|"); got != want {
			t.Fatalf("cut %d: clone gives %q, want %q", cut, got, want)
		}
		if len(c.Findings()) != len(whole.Findings()) {
			t.Fatalf("cut %d: clone has %d findings, want %d", cut, len(c.Findings()), len(whole.Findings()))
		}
		// Snapshot: the same screen, without findings, and the original
		// keeps its own.
		n := len(m.Findings())
		k := m.Snapshot().Model()
		k.Feed(in[cut:])
		k.End()
		if got, want := strings.Join(lines(k), "|"), strings.Join(lines(whole), "|"); got != want {
			t.Fatalf("cut %d: snapshot gives %q, want %q", cut, got, want)
		}
		if len(k.Findings()) != 0 || len(m.Findings()) != n {
			t.Fatalf("cut %d: snapshot has %d findings, original %d of %d", cut, len(k.Findings()), len(m.Findings()), n)
		}
	}
}

func TestFeedAllocs(t *testing.T) {
	m, _ := New(Options{})
	p := []byte("progress 42%\r\x1b[2K\x1b[31mhello, world\x1b[0m \x1b[3;4Hx\x1b[K\n")
	n := testing.AllocsPerRun(100, func() { m.Feed(p) })
	if n != 0 {
		t.Errorf("Feed allocates %v times per call", n)
	}
}

// TestText: lines for a reader of text, as sanitize's screen policy takes
// them: scrolled-off lines in order, a wrapped row joined to the next,
// concealed text blank.
func TestText(t *testing.T) {
	m := feed(t, Options{Cols: 5, Rows: 2, NewlineCRLF: true, Scrollback: true},
		"one\ntwo\nabcdefg\n\x1b[8mhid\x1b[0m x\nlast")
	text, segs := m.AppendScreenText(m.TakeScrolled(nil, nil))
	if want := "one\ntwo\nabcdefg\n    x\nlast\n"; string(text) != want || segs != nil {
		t.Errorf("text %q, want %q; segments %v without Options.Segments", text, want, segs)
	}
	if rest, _ := m.TakeScrolled(nil, nil); len(rest) != 0 {
		t.Errorf("TakeScrolled kept %q", rest)
	}
}

// TestSegments: with Options.Segments each piece of the text is tied to
// the bytes that drew it: a line written in one go is one Segment, a row
// autowrap continued joins it, blanks (concealed text among them) and
// line feeds have none, and Out counts from the start of dst, across
// TakeScrolled and AppendScreenText.
func TestSegments(t *testing.T) {
	in := "one\ntwo\nabcdefg\n\x1b[8mhid\x1b[0m x\nlast"
	m := feed(t, Options{Cols: 5, Rows: 2, NewlineCRLF: true, Scrollback: true, Segments: true}, in)
	text, segs := m.TakeScrolled([]byte("prev"), nil)
	text, segs = m.AppendScreenText(text, segs)
	if want := "prevone\ntwo\nabcdefg\n    x\nlast\n"; string(text) != want {
		t.Fatalf("text %q, want %q", text, want)
	}
	want := []Segment{{4, 0, 3}, {7, -1, 0}, {8, 4, 3}, {11, -1, 0}, {12, 8, 7}, {19, -1, 0}, {23, 27, 2}, {25, -1, 0}, {26, 30, 4}, {30, -1, 0}}
	if !slices.Equal(segs, want) {
		t.Errorf("segments %v\nwant       %v", segs, want)
	}
	// Text copied byte for byte is the input's; other pieces are one cell.
	for _, r := range recordings(t) {
		m, _ := New(Options{Rows: 10, Scrollback: true, Segments: true})
		m.Feed(r.data)
		m.End()
		text, segs := m.AppendScreenText(m.TakeScrolled(nil, nil))
		for i, s := range segs {
			end := len(text)
			if i+1 < len(segs) {
				end = segs[i+1].Out
			}
			switch out := text[s.Out:end]; {
			case s.Off < 0:
				if strings.Trim(string(out), " \n") != "" {
					t.Fatalf("%s: %q at %d has no input", r.name, out, s.Out)
				}
			case int64(len(out)) == s.Len:
				if in := r.data[s.Off : s.Off+s.Len]; string(out) != string(in) {
					t.Fatalf("%s: %q at %d maps to input %q", r.name, out, s.Out, in)
				}
			case len(strings.Trim(string(out), string([]rune(string(out))[:1]))) > 0 && utf8.RuneCount(out) > 2: // one character, with its mark, or REP's copies
				t.Fatalf("%s: %q at %d maps to %d bytes of input %q", r.name, out, s.Out, s.Len, r.data[s.Off:s.Off+s.Len])
			}
		}
	}
}

// TestFindingsBounded feeds far more findings than MaxFindings: ordinary
// redraws (each line's text erased by ED) and then one concealed command.
// The model keeps at most 2×MaxFindings records, Findings returns
// MaxFindings with the concealed one first, and Counts and Omitted still
// account for every finding.
func TestFindingsBounded(t *testing.T) {
	m, err := New(Options{Cols: 20, Rows: 4, Findings: true})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*MaxFindings + 17
	p := []byte("ok\x1b[2J\x1b[H")
	for range n {
		m.Feed(p)
		if len(m.finds) > 2*MaxFindings || len(m.names) > 2*MaxFindings+1 {
			t.Fatalf("%d records and %d token names kept, want at most %d", len(m.finds), len(m.names), 2*MaxFindings)
		}
	}
	m.Feed([]byte("\x1b[8mrm -rf ~\x1b[0m\n"))
	m.End()
	fs := m.Findings()
	if len(fs) != MaxFindings {
		t.Fatalf("%d findings, want %d", len(fs), MaxFindings)
	}
	if fs[0].Cause != CauseConcealed || fs[0].Text != "rm -rf ~" {
		t.Errorf("first finding %v %q, want the concealed command", fs[0].Cause, fs[0].Text)
	}
	if f := fs[len(fs)-1]; f.Cause != CauseErased || f.Text != "ok" || f.By.Name != "ED 2" {
		t.Errorf("last finding %v %q by %q, want an erased \"ok\" by ED 2", f.Cause, f.Text, f.By.Name)
	}
	counts := m.Counts()
	if counts[CauseErased] != n || counts[CauseConcealed] != 1 {
		t.Errorf("counts erased %d concealed %d, want %d and 1", counts[CauseErased], counts[CauseConcealed], n)
	}
	if got := m.Omitted(); got != n+1-MaxFindings {
		t.Errorf("Omitted() = %d, want %d", got, n+1-MaxFindings)
	}
}
