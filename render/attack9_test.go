package render

import (
	"strings"
	"testing"
)

// TestAttack9GlyphsTrailingESC: a control string left open by an ESC at
// the end of the stream shows its introducer and collapses its whole
// payload: no payload byte is written as a sequence byte, whatever the
// introducer's spelling.
func TestAttack9GlyphsTrailingESC(t *testing.T) {
	for _, intro := range []string{"\x1b]", "\x1b\x00]", "\x1bP", "\x1bk", "\x9d", "\xc2\x9d"} {
		for _, tail := range []string{"", "\x1b"} {
			in := "a" + intro + "Zsecret" + tail
			got := Glyphs([]byte(in), StreamOptions{}).String()
			if strings.Contains(got, "Z") {
				t.Errorf("%q: glyphs %q show a payload byte", in, got)
			}
		}
	}
}
