package screen

import (
	"slices"
	"testing"
)

// lsRow is one row of an ls -l listing for a file name.
func lsRow(size, name string) string {
	return "-rw-r--r-- 1 dev dev " + size + " Jan  1 10:00 " + name
}

// TestRankOnDifference: a row redrawn with the same start is ranked on
// the part that differs, so that a command hidden in an ls -l row ranks
// as a deception while a row redrawn with a new size or name does not.
func TestRankOnDifference(t *testing.T) {
	for _, c := range []struct {
		name, in   string
		rank       int
		has, hasnt string
	}{
		{"ls -l row hides a command", lsRow("  64", "run.sh; rm -rf ~/ #") + "\r\x1b[K" + lsRow("  64", "cache.o") + "\n",
			80, "soon replaced by unrelated text", "replaced by similar text"},
		{"ls -l row with a new size", lsRow("  64", "cache.o") + "\r\x1b[K" + lsRow("  65", "cache.o") + "\n",
			0, "replaced by similar text", "soon replaced by unrelated text"},
		{"ls -l row with a new name", lsRow("  64", "cache.o") + "\r\x1b[K" + lsRow("  64", "main.o") + "\n",
			50, "soon replaced by unrelated text", "shell-command shape"},
		{"command with a new argument", "rm -rf build\r\x1b[Krm -rf dist\n",
			50, "soon replaced by unrelated text", "shell-command shape"},
		{"the same row back", lsRow("  64", "cache.o") + "\r\x1b[K" + lsRow("  64", "cache.o") + "\n",
			0, "the same text came back", "one or two characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := feed(t, Options{NewlineCRLF: true, Findings: true}, c.in).Findings()
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			f := fs[0]
			if f.Rank != c.rank || !slices.Contains(f.Reasons, c.has) || slices.Contains(f.Reasons, c.hasnt) {
				t.Errorf("rank %d %q, want %d with %q without %q", f.Rank, f.Reasons, c.rank, c.has, c.hasnt)
			}
		})
	}
}

func TestDiffering(t *testing.T) {
	for _, c := range []struct {
		text, repl string
		cut        bool
		diff, with string
	}{
		{"abc XYZ def", "abc Q def", false, "XYZ", "Q"},
		{"abc XYZ def", "abc Q def", true, "XYZ def", "Q def"},
		{"abcXYZdef", "abcQdef", false, "abcXYZdef", "abcQdef"}, // no whole word in common
		{"rm -rf ~/", "report.txt", false, "rm -rf ~/", "report.txt"},
		{"same", "same", false, "", ""},
		{"ab", "ab cd", false, "", " cd"},
		{"x é z", "x è z", false, "é", "è"}, // é and è share their first byte
		{"xéz", "xèz", false, "xéz", "xèz"},
	} {
		d, w := differing([]byte(c.text), []byte(c.repl), c.cut)
		if string(d) != c.diff || string(w) != c.with {
			t.Errorf("differing(%q, %q, %v) = %q, %q, want %q, %q", c.text, c.repl, c.cut, d, w, c.diff, c.with)
		}
	}
}

// TestMayProgress: mayProgress passes every row whose text progress
// accepts (it only saves reading the others), and turns away ASCII rows
// with none of the syntax: rows of random ASCII from a small alphabet of
// the characters progress looks at, and the table's rows.
func TestMayProgress(t *testing.T) {
	row := func(s string) []Cell {
		cells := make([]Cell, 0, len(s))
		for _, r := range s {
			if r == '_' {
				r = 0 // an empty cell
			}
			cells = append(cells, Cell{Rune: r, Width: 1})
		}
		return cells
	}
	for _, c := range []struct {
		text string
		may  bool
	}{
		{"ls /usr/bin", false}, {"10 MB/s", true}, {"3/4 done", true}, {"E T A", false}, {"ETA 5s", true},
		{"a=b c#d", false}, {"[====   ]", true}, {"## x", true}, {"50%", true}, {"|/-\\", true}, {"é", true},
		{"1/_2", false}, {"_", true}, {"=_=", false},
	} {
		if got := mayProgress(row(c.text)); got != c.may {
			t.Errorf("mayProgress(%q) = %v, want %v", c.text, got, c.may)
		}
	}
	const alphabet = "=#/sETA01 ._|-ab%"
	seed := uint32(1)
	for n := 0; n < 20000; n++ {
		b := make([]byte, 1+n%9)
		for i := range b {
			seed = seed*1664525 + 1013904223
			b[i] = alphabet[seed>>16%uint32(len(alphabet))]
		}
		r := row(string(b))
		if text := appendCells(nil, r, 0, false, true, nil); progress(text) && !mayProgress(r) {
			t.Fatalf("progress(%q) but not mayProgress", text)
		}
	}
}

// TestWordSet: a word is found at the start, middle and end of a text,
// capitals match only with fold, and a text holding the first byte of a
// word alone is not taken for it.
func TestWordSet(t *testing.T) {
	for _, c := range []struct {
		set  *wordSet
		text string
		fold bool
		want bool
	}{
		{shellSet, "rm -rf /", false, true},
		{shellSet, "x && y", false, true},
		{shellSet, "echo $(", false, true},
		{shellSet, "$", false, false},
		{shellSet, "RM -rf", false, false},
		{shellSet, "r", false, false},
		{instructionSet, "IGNORE all", true, true},
		{instructionSet, "the api key", true, true},
		{instructionSet, "the Token", true, true},
		{instructionSet, "tok", true, false},
		{instructionSet, "ignored", true, false},
	} {
		if got := c.set.in([]byte(c.text), c.fold); got != c.want {
			t.Errorf("in(%q, %v) = %v, want %v", c.text, c.fold, got, c.want)
		}
	}
}

// TestCloneCompacts: a clone of a model that has compacted its findings
// goes on compacting apart from it: fed in turn the same bytes with
// different commands hidden, each reports its own, since compaction's
// spare buffers are not shared. The text hidden before the copy is the
// longer, so that an arena shared by mistake would hold the other's texts
// without growing.
func TestCloneCompacts(t *testing.T) {
	m, err := New(Options{Cols: 20, Rows: 4, Findings: true})
	if err != nil {
		t.Fatal(err)
	}
	hide := func(m *Model, text string) { m.Feed([]byte(text + "\x1b[2J\x1b[H")) }
	for range 3 * MaxFindings {
		hide(m, "ok ok ok ok")
	}
	c := m.Clone()
	for range 3 * MaxFindings {
		hide(m, "rm -rf aa")
		hide(c, "rm -rf bb")
	}
	for _, x := range []struct {
		m           *Model
		own, others string
	}{{m, "rm -rf aa", "rm -rf bb"}, {c, "rm -rf bb", "rm -rf aa"}} {
		x.m.End()
		own := 0
		for _, f := range x.m.Findings() {
			switch f.Text {
			case x.own:
				own++
			case x.others:
				t.Fatalf("finding %q in the model that hid %q", f.Text, x.own)
			}
		}
		if own == 0 {
			t.Errorf("no finding %q", x.own)
		}
	}
}

// TestFindingKeepsMarks: the text of an overwritten or erased finding
// holds the combining marks its cells kept (two a cell, MaxMarks), as
// the screen showed it: a Thai word keeps its vowel and tone marks.
func TestFindingKeepsMarks(t *testing.T) {
	for _, c := range []struct{ name, in, text string }{
		{"overwritten", "rm \u0e17\u0e35\u0e48 e\u0301\r# ok        \n", "rm \u0e17\u0e35\u0e48 e\u0301"},
		{"erased", "x\u0e19\u0e35\u0e48\x1b[2K\n", "x\u0e19\u0e35\u0e48"},
		{"a third mark is not shown", "z\u0301\u0302\u0303 rm\r#        \n", "z\u0301\u0302 rm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := feed(t, Options{NewlineCRLF: true, Findings: true}, c.in).Findings()
			if len(fs) == 0 || fs[0].Text != c.text {
				t.Fatalf("findings %+v, want one with text %q", fs, c.text)
			}
		})
	}
}
