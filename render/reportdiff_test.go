package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

func TestDiffQuoteLine(t *testing.T) {
	for _, tc := range []struct {
		n     int
		s     string
		from  int
		trunc bool
		want  string
	}{
		{0, "", 0, false, "(no line)"},
		{1, "ok\n", 0, false, `"ok"`},
		{1, "last", 0, false, `"last" (no newline at end)`},
		{1, "\ttab \u202e\u200d\n", 0, false, `"\ttab \u202e\u200d"`},
		{7, "middle of a long line", 4000, true, `(from byte 4000) "middle of a long line"...`},
	} {
		if got := quoteLine(tc.n, tc.s, tc.from, tc.trunc); got != tc.want {
			t.Errorf("quoteLine(%q) = %s, want %s", tc.s, got, tc.want)
		}
	}
}

// TestDiffMoreCounts: the count of differing lines and findings left
// out agrees with its noun.
func TestDiffMoreCounts(t *testing.T) {
	for _, tc := range []struct {
		more int
		want string
	}{
		{1, "  ... 1 more differing line (--lines shows more)\n"},
		{2, "  ... 2 more differing lines (--lines shows more)\n"},
	} {
		var b bytes.Buffer
		writeTextDiff(NewWriter(&b), &sanitize.TextDiff{LinesA: 9, LinesB: 9, Differing: 1 + tc.more, Lines: make([]sanitize.LineDiff, 1)})
		if got := b.String(); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%d more lines: %q, want it to end with %q", tc.more, got, tc.want)
		}
	}
	for _, tc := range []struct {
		more int
		want string
	}{
		{1, "  ... 1 more differing finding (--json lists all)\n"},
		{3, "  ... 3 more differing findings (--json lists all)\n"},
	} {
		var b bytes.Buffer
		writeFindings(NewWriter(&b), &sanitize.FindingsDiff{OnlyA: make([]sanitize.Finding, maxFindingRows+tc.more)})
		if got := b.String(); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%d more findings: %q, want it to end with %q", tc.more, got, tc.want)
		}
	}
}
