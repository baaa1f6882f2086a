package excerpt

import (
	"bytes"
	"errors"
	"testing"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
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
		want string
	}{
		{"lines, more", Excerpt{Stream: render.LineString("stdout"), TotalLines: 9, Lines: lines, Next: 3},
			"      1  [0:4]  a␛[31m\n>     2  [4:9]  hit\nnext: --lines 3: (9 lines in stdout)\n"},
		{"lines, more of a range", Excerpt{Stream: render.LineString("stdout"), TotalLines: 9, Lines: lines, Next: 3, to: 5},
			"      1  [0:4]  a␛[31m\n>     2  [4:9]  hit\nnext: --lines 3:5 (9 lines in stdout)\n"},
		{"grep, more", Excerpt{Lines: lines[1:], Matches: 1, Next: 7, grep: true}, ">     2  [4:9]  hit\nnext: --cursor 7 (1 matches shown)\n"},
		{"grep, none", Excerpt{grep: true}, "no match\n"},
		{"lines, end", Excerpt{Lines: lines[:1]}, "      1  [0:4]  a␛[31m\n"},
	} {
		var b bytes.Buffer
		if err := tc.ex.WriteText(render.NewWriter(&b)); err != nil || b.String() != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.name, b.String(), err, tc.want)
		}
	}
}

func TestRangeReportText(t *testing.T) {
	finding := sanitize.Finding{Offset: 12, Kind: "title", Sequence: "OSC 0", Bytes: 10}
	for _, tc := range []struct {
		name string
		rr   RangeReport
		want string
	}{
		{"findings", RangeReport{Ref: "restricted:sha256:ab", Stream: render.LineString("stdout"), From: 2, To: 2, RawStart: 6, RawEnd: 27, BytesIn: 21, BytesOut: 12,
			Findings: []sanitize.Finding{finding}, FindingsComplete: true},
			"restricted:sha256:ab stdout lines 2:2: raw [6:27], 21 bytes in, 12 bytes of text out\nfindings:\n  0x0000000c  12  title  OSC 0  10 bytes\n"},
		{"none", RangeReport{Ref: "r", Stream: render.LineString("stderr\x1b[2J"), From: 1, To: 1, RawEnd: 4, BytesIn: 4, BytesOut: 4, FindingsComplete: true},
			"r stderr␛[2J lines 1:1: raw [0:4], 4 bytes in, 4 bytes of text out\nno findings in these lines\n"},
		{"capped", RangeReport{Ref: "r", Stream: render.LineString("stdout"), From: 1, To: 1},
			"r stdout lines 1:1: raw [0:0], 0 bytes in, 0 bytes of text out\n  … the stream report lists only its first 1000 findings: more may fall in these lines\n"},
	} {
		var b bytes.Buffer
		if err := tc.rr.WriteText(render.NewWriter(&b)); err != nil || b.String() != tc.want {
			t.Errorf("%s: %q (%v), want %q", tc.name, b.String(), err, tc.want)
		}
	}
}
