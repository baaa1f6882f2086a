package excerpt

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bytelens/bytelens/render"
)

func TestParseLines(t *testing.T) {
	for _, tc := range []struct {
		in       string
		from, to int64
		bad      bool
	}{
		{"120:180", 120, 180, false},
		{":5", 1, 5, false},
		{"7:", 7, 1 << 62, false},
		{"3", 3, 3, false},
		{":", 1, 1 << 62, false},
		{"a:3", 0, 0, true},
		{"3:b", 0, 0, true},
		{"1-2", 0, 0, true},
	} {
		from, to, err := ParseLines(tc.in)
		if tc.bad != (err != nil) || from != tc.from || to != tc.to || tc.bad && !errors.Is(err, ErrRange) {
			t.Errorf("ParseLines(%q) = %d, %d, %v", tc.in, from, to, err)
		}
	}
}

func TestWriteText(t *testing.T) {
	lines := []Line{{N: 1, RawStart: 0, RawEnd: 4, Text: "a\x1b[31m"}, {N: 2, RawStart: 4, RawEnd: 9, Text: "hit", Match: true}}
	for _, tc := range []struct {
		name string
		ex   Excerpt
		grep bool
		want string
	}{
		{"lines, more", Excerpt{Stream: "stdout", TotalLines: 9, Lines: lines, Next: 3}, false,
			"      1  [0:4]  a␛[31m\n>     2  [4:9]  hit\nnext: --lines 3: (9 lines in stdout)\n"},
		{"grep, more", Excerpt{Lines: lines[1:], Matches: 1, Next: 7}, true, ">     2  [4:9]  hit\nnext: --cursor 7 (1 matches shown)\n"},
		{"grep, none", Excerpt{}, true, "no match\n"},
		{"lines, end", Excerpt{Lines: lines[:1]}, false, "      1  [0:4]  a␛[31m\n"},
	} {
		var b bytes.Buffer
		if err := tc.ex.WriteText(render.NewWriter(&b), tc.grep); err != nil || b.String() != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.name, b.String(), err, tc.want)
		}
	}
}
