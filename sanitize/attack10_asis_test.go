package sanitize

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAttack10AsIsEveryRune: every code point of 2 and 3 bytes (and the
// surrogates, overlong and cut spellings around them), alone, between
// ASCII, and cut at stringAsIs's 256-byte buffer edge: Bytes, String and
// Text give what a fresh cleaner gives, under options that the as-is test
// accepts and one it does not.
func TestAttack10AsIsEveryRune(t *testing.T) {
	opts := []Options{{}, {CR: CRDrop, Links: LinksAppend, FormatChars: FormatKeep, C1: C1Lone, APCBEL: true, MaxPayload: 8}}
	step := 5
	if testing.Short() {
		step = 41
	}
	check := func(s string, o Options) {
		t.Helper()
		want, wantRep := freshBytes([]byte(s), o)
		out, rep := Bytes([]byte(s), o)
		if !bytes.Equal(out, want) || !reflect.DeepEqual(rep, wantRep) {
			t.Fatalf("Bytes(%q) under %v = %q %+v, fresh %q %+v", s, o, out, rep, want, wantRep)
		}
		str, rep := String(s, o)
		if str != string(want) || !reflect.DeepEqual(rep, wantRep) {
			t.Fatalf("String(%q) under %v = %q %+v, fresh %q %+v", s, o, str, rep, want, wantRep)
		}
		if txt := Text(s, o); txt != string(want) {
			t.Fatalf("Text(%q) under %v = %q, fresh %q", s, o, txt, want)
		}
	}
	pad := strings.Repeat("a", 255)
	for r := rune(0x80); r < 0x10000; r += rune(step) {
		var enc []byte
		if r >= 0xD800 && r <= 0xDFFF {
			enc = []byte{0xED, byte(0x80 | (r>>6)&0x3F), byte(0x80 | r&0x3F)} // a surrogate's spelling
		} else {
			enc = utf8.AppendRune(nil, r)
		}
		for _, o := range opts {
			if !asIs(append([]byte("a"), enc...), o) && !stringAsIs(string(enc), o) {
				continue // the cleaner cleans it: the other tests hold that
			}
			check(string(enc), o)
			check("x"+string(enc)+"y", o)
			check(pad+string(enc)+"z", o)     // cut at the buffer edge
			check(pad+"b"+string(enc[:1]), o) // a lead byte at the end
		}
	}
	// Overlong spellings and a lead byte cut at the end of a full buffer.
	for _, s := range []string{"\xc0\xaf", "\xe0\x80\xaf", "\xc1\xbf", pad + "\xe4", pad + "\xe4\xb8", pad[:254] + "\xe4\xb8", strings.Repeat("中", 86) + "\xe4"} {
		for _, o := range opts {
			check(s, o)
		}
	}
}
