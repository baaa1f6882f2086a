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
