package sanitize

import (
	"strings"
	"testing"
	"unicode"
)

// TestNonASCIIBlanks: every space separator but U+0020 that reaches the
// cleaned text counts in Kept.NonASCIIBlanks, under every policy, on both
// paths, whole and written a byte at a time; one in a removed string, or
// painted over, or in a link target LinksAppend does not append, does not, and neither do U+0020, ZWSP (a format character)
// or U+2028 (a line separator).
func TestNonASCIIBlanks(t *testing.T) {
	var all strings.Builder
	var n int64
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Zs, r) {
			all.WriteString("w" + string(r))
			n++
		}
	}
	if n != 16 {
		t.Fatalf("%d space separators past ASCII, want 16 (Unicode %s)", n, unicode.Version)
	}
	for _, tt := range []struct {
		in   string
		o    Options
		want int64
	}{
		{all.String(), Options{}, 16},
		{all.String(), Options{FormatChars: FormatEscape}, 16},
		{all.String(), Options{CR: CRScreen}, 16},
		{all.String(), Options{BS: BSOverstrike}, 16},
		{"a b\u200bc\u2028d\te", Options{}, 0},
		{"\x1b]0;t\u00a0t\x07\x1bP\u3000\x1b\\x\u2009y", Options{}, 1},
		{"\x1b[1ma\u00a0b\x1b[0m\u202f\x1b[2m\u205f", Options{}, 3},
		{"old\u00a0line\rnew text\n", Options{CR: CRScreen}, 0},
		{"old\u00a0line\rnew text\n", Options{CR: CRDrop}, 1},
		{"\x1b]8;;http://x/\u00a0\x07label\x1b]8;;\x07", Options{Links: LinksAppend}, 0},
	} {
		p := []byte(tt.in)
		if _, rep := Bytes(p, tt.o); rep.Kept.NonASCIIBlanks != tt.want {
			t.Errorf("Bytes(%q, %v): %d non-ASCII blanks, want %d", tt.in, tt.o, rep.Kept.NonASCIIBlanks, tt.want)
		}
		cuts := make([]int, 0, len(p))
		for i := 1; i < len(p); i++ {
			cuts = append(cuts, i)
		}
		for _, path := range []pathChoice{pathTokens, pathRecords} {
			if tt.o.CR == CRScreen || tt.o.BS == BSOverstrike {
				path = pathTokens // no record path under screen or line emulation
			}
			if got := writeCut(p, tt.o, cuts, false, path).rep.Kept.NonASCIIBlanks; got != tt.want {
				t.Errorf("%q %v path %v, a byte per Write: %d non-ASCII blanks, want %d", tt.in, tt.o, path, got, tt.want)
			}
		}
	}
}

// TestBlankBytes: countBlanks's byte forms are exactly the non-ASCII
// blanks, for every character, alone and amid ASCII and other text.
func TestBlankBytes(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		want := int64(0)
		if IsNonASCIIBlank(r) {
			want = 1
		}
		s := string(r)
		if got := countBlanks([]byte(s)); got != want {
			t.Fatalf("countBlanks(%U) = %d, want %d", r, got, want)
		}
		if r%97 == 0 { // across a 32-byte block's end
			in := strings.Repeat("a", 30) + s + strings.Repeat("é", 20)
			if got := countBlanks([]byte(in)); got != want {
				t.Fatalf("countBlanks(%q) = %d, want %d", in, got, want)
			}
		}
	}
	// Each blank at every place in a 32-byte block, amid text of scripts
	// whose lead bytes the block test may flag (E0, E3) or not.
	for _, r := range []rune{0xA0, 0x1680, 0x2000, 0x200A, 0x202F, 0x205F, 0x3000} {
		for _, fill := range []string{"a", "ж", "न", "終", "あ"} {
			for k := range 70 {
				in := strings.Repeat("a", k) + string(r) + strings.Repeat(fill, 12)
				if got := countBlanks([]byte(in)); got != 1 {
					t.Fatalf("countBlanks(%q) = %d, want 1", in, got)
				}
			}
		}
	}
}
