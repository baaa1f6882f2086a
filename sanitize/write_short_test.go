package sanitize

import (
	"strings"
	"testing"
)

// TestShortWrites: Writes of one to nine bytes (two sizes under -short), frames marked at every
// cut or at none, give on the record path and by piece what the token
// path gives (text, report, InGround after each Write; assertPaths) where
// short Writes take their own ways (feed): the
// payload of strings in every spelling and of links whose URI ends on
// either side of what the history keeps (histLen, MaxLinkURI), the
// parameters of a CSI past MaxParams, text between, and CSIs begun in one
// Write and ended in the next, recalled from the memo or split by a frame.
func TestShortWrites(t *testing.T) {
	uri := func(n int) string { return "http://x/" + strings.Repeat("u", n-len("http://x/")) }
	var inputs []string
	for _, n := range []int{20, MaxLinkURI - 1, MaxLinkURI, MaxLinkURI + 1, histLen - 8, histLen + 8} {
		inputs = append(inputs,
			"a\x1b]8;;"+uri(n)+"\x1b\\label\x1b]8;;\x1b\\b",
			"\x9d8;;"+uri(n)+"\x9clabel\xc2\x9d8;;\xc2\x9cc",
		)
	}
	payload := strings.Repeat("payload é ", 40)
	for _, open := range []string{"\x1b]0;", "\x1bP$q", "\x1b_", "\x1bX", "\x1b^", "\x1bk", "\x9d2;", "\xc2\x9d2;"} {
		inputs = append(inputs, "t"+open+payload+"\x1b\\u"+open+payload+"\x07v"+open+payload)
	}
	sgr := strings.Repeat("\x1b[1;31mred\x1b[0m \x1b[38;5;208mo\x1b[m\x1b[?25l\x1b[2K", 20)
	inputs = append(inputs,
		"\x1b["+strings.Repeat("1;", 3*16)+"m"+sgr+"\x1b["+strings.Repeat("12:3;", 40),
		sgr+"\x1b[1\x00;2\nm\x1b[6n\x1b[8m",
	)
	opts := append([]Options{{Links: LinksAppend}}, recordPolicies...)
	sizes := []int{1, 2, 3, 5, 7, 9}
	if testing.Short() {
		sizes = []int{3, 7}
	}
	for _, in := range inputs {
		p := []byte(in)
		for _, size := range sizes {
			cuts := cutsEvery(size, len(p))
			for _, o := range opts {
				assertPaths(t, "short", p, o, cuts, false)
				assertPaths(t, "short", p, o, cuts, true)
			}
		}
	}
}
