package sanitize

import (
	"strings"
	"testing"
)

// TestLinkSplits: whether LinksAppend shows a link's target does not
// depend on how Writes cut the string, at the limits of the history
// (histLen): a payload of MaxLinkURI+256 bytes before ESC \, one byte
// more, and introducers with C0 controls executed between ESC and ],
// which make the string longer than its payload says.
func TestLinkSplits(t *testing.T) {
	open := func(intro string, params, uri int) string {
		return "a" + intro + "8;id=" + strings.Repeat("i", params) + ";http://x/" + strings.Repeat("u", uri)
	}
	o := Options{Links: LinksAppend}
	for _, tc := range []struct {
		name, in string
		shown    bool
	}{
		{"at the limit", open("\x1b]", 250, 2039) + "\x1b\\label\x1b]8;;\x1b\\b", true},
		{"a byte past", open("\x1b]", 251, 2039) + "\x1b\\label\x1b]8;;\x1b\\b", false},
		{"BEL at the limit", open("\x1b]", 250, 2039) + "\alabel\x1b]8;;\x1b\\b", true},
		{"NULs after ESC", open("\x1b"+strings.Repeat("\x00", 3)+"]", 247, 2039) + "\x1b\\label\x1b]8;;\x1b\\b", true},
		{"NULs past the limit", open("\x1b"+strings.Repeat("\x00", 300)+"]", 250, 2039) + "\x1b\\label\x1b]8;;\x1b\\b", false},
		{"C1", open("\xc2\x9d", 250, 2039) + "\xc2\x9clabel\x1b]8;;\x1b\\b", true},
	} {
		p := []byte(tc.in)
		whole, _ := Bytes(p, o)
		if got := strings.Contains(string(whole), "<http://x/"); got != tc.shown {
			t.Errorf("%s: Bytes shows the target %v, want %v: %.40q", tc.name, got, tc.shown, whole)
		}
		for _, size := range []int{1, 3, 4, 7, 64, 1000} {
			var cuts []int
			for i := size; i < len(p); i += size {
				cuts = append(cuts, i)
			}
			for _, path := range []pathChoice{pathTokens, pathRecords, pathAuto} {
				if got := string(writeCut(p, o, cuts, false, path).out); got != string(whole) {
					t.Errorf("%s: Writes of %d bytes, path %v: %.60q, want Bytes' %.60q", tc.name, size, path, got, whole)
				}
			}
		}
	}
}
