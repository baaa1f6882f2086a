package sanitize

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// plainText reports whether p is valid UTF-8 with no controls (but TAB and
// LF) and none of the format characters the default policy removes: the
// input that invariant 6 says comes out byte for byte.
func plainText(p []byte) bool {
	if !utf8.Valid(p) {
		return false
	}
	for _, r := range string(p) {
		if r < 0x20 && r != '\t' && r != '\n' || r >= 0x7F && r <= 0x9F ||
			decode.ClassifyFormat(r) != decode.FormatNone { // joining ones too: kept by context
			return false
		}
	}
	return true
}

// FuzzSanitize checks DESIGN.md invariants 1, 2, 3 and 6 on any input,
// under the policy set chosen by pol, and that cleaning the cleaned text
// changes nothing (but under FormatEscape).
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"plain text\n", "\x1b[1;31mred\x1b[0m\r\n", "\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\",
		"\x1b]52;c;QUFBQUFBQUE=\x07", "\x9b31m\xc2\x9b0m", "\x1b]0;a\x9cbcdefghijk\x07", "\xe6\x9bh\xc0\x9b",
		"\x1bPtmux;\x1b\x1b]0;xxxxxxxxxx\x07\x1b\\", "ab\bc\rd\r\r\n", "a\u202eb\U000E0041\u200d",
		"\U0001F600\ufe0f\ufe0f\U000E0100", "\u115f\u1161\u115f", "\u1820\u180b\u180b", "<U+202E>\u202e<U+20\x1b[m2E>", "a\u2028b", "\u0915\x00\u200f\u0628",
	} {
		f.Add([]byte(s), uint8(0), uint16(1))
	}
	f.Fuzz(func(t *testing.T, p []byte, pol uint8, cut uint16) {
		o := policies[int(pol)%len(policies)]
		out, rep := Bytes(p, o)
		checkInvariants(t, p, out)
		checkNoPayload(t, "fuzz", p, o, out, rep)
		c := int(cut) % (len(p) + 1)
		assertSplit(t, "fuzz", p, o, []int{c}, out, rep)
		if o.FormatChars != FormatEscape { // escape's second pass differs by design (TestIdempotent)
			if twice, _ := Bytes(out, o); !bytes.Equal(twice, out) {
				t.Fatalf("clean(clean(x)) != clean(x): %q -> %q -> %q", p, out, twice)
			}
		}
		if int(pol)%len(policies) == 0 && plainText(p) && !bytes.Equal(out, p) {
			t.Fatalf("plain text changed: %q -> %q", p, out)
		}
	})
}
