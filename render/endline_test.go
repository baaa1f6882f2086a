package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestGlyphsEndLine checks that EndLine ends a glyph stream that is not
// empty with exactly one line feed, read whole and as a stream.
func TestGlyphsEndLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"a", "a\n"},
		{"a\n", "a\n"},
		{"a\n\n", "a\n\n"},
		{"a\x1b[31m", "a␛[31m\n"},
		{"\x1b]0;t", "␛]0;‹1 byte›‹unterminated›\n"},
	} {
		o := StreamOptions{EndLine: true}
		var whole, stream bytes.Buffer
		if err := WriteGlyphs(&whole, strings.NewReader(tc.in), int64(len(tc.in)), o); err != nil || whole.String() != tc.want {
			t.Errorf("WriteGlyphs(%q) = %q, %v; want %q", tc.in, whole.String(), err, tc.want)
		}
		if err := WriteGlyphsReader(&stream, strings.NewReader(tc.in), o); err != nil || stream.String() != tc.want {
			t.Errorf("WriteGlyphsReader(%q) = %q, %v; want %q", tc.in, stream.String(), err, tc.want)
		}
		if got := Glyphs([]byte(tc.in), StreamOptions{}).String(); tc.in == "a" && got != "a" {
			t.Errorf("without EndLine: %q", got)
		}
	}
}

func TestDescriptionJSONLine(t *testing.T) {
	d := Description{Off: 3, Len: 5, Count: 1, Name: TextString("CSI 31m"), Text: TextString("red")}
	got := d.JSONLine("out\x1b[2J")
	want := DescribeLine{Schema: DescribeSchema, Stream: Safe{"out␛[2J"}, Offset: 3, Length: 5, Count: 1, Name: Safe{"CSI 31m"}, Description: Safe{"red"}}
	if got != want {
		t.Errorf("JSONLine = %+v, want %+v", got, want)
	}
}
