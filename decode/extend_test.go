package decode

import (
	"strings"
	"testing"
)

// TestExtend checks Extend against Feed: after the opening of each kind of
// long token (control strings in every spelling, under every grammar
// option, a payload past the prefix or not, a CSI past MaxParams) and of
// tokens it must not extend, every piece of up to three bytes from a
// spread, and pieces of printable ASCII of one to twenty bytes, are fed
// both ways. When Extend takes a piece, Feed emits nothing for it and
// leaves the decoder as Extend does; when it does not, the decoder is
// unchanged. Each printable piece after a string's opening and each
// parameter piece after the long CSI must be taken.
func TestExtend(t *testing.T) {
	type open struct {
		name string
		p    string
		long bool // Extend must take printable payload, or parameters
		c1   bool // opened by a raw C1 byte, which LoneC1 makes a control
	}
	many := "\x1b[" + strings.Repeat("1;", MaxParams+1)
	opens := []open{
		{"OSC", "\x1b]0;title", true, false},
		{"OSC past prefix", "\x1b]8;;https://example.com/a/long/path/past/the/prefix/", true, false},
		{"OSC 8-bit", "\x9d2;x", true, true},
		{"OSC C2", "\xc2\x9d2;x", true, false},
		{"DCS", "\x1bP$q", true, false},
		{"APC", "\x1b_Ga=T", true, false},
		{"SOS", "\x1bXs", true, false},
		{"PM", "\x1b^p", true, false},
		{"screen title", "\x1bkt", true, false},
		{"OSC number", "\x1b]52", false, false},
		{"OSC in UTF-8 unit", "\x1b]0;\xe2\x80", false, false},
		{"string ESC", "\x1b]0;x\x1b", false, false},
		{"CSI past MaxParams", many, true, false},
		{"CSI", "\x1b[1;2", false, false},
		{"escape", "\x1b(", false, false},
		{"ground", "text", false, false},
		{"utf8", "\xe2\x80", false, false},
	}
	spread := []byte{0x00, 0x07, 0x09, 0x18, 0x1A, 0x1B, '0', ':', ';', '?', 'A', '\\', 'm', 0x7F, 0x80, 0x9C, 0x9F, 0xA0, 0xBF, 0xC2, 0xE2, 0xF0, 0xFF}
	var pieces []string
	for _, a := range spread {
		pieces = append(pieces, string([]byte{a}))
		for _, b := range spread {
			pieces = append(pieces, string([]byte{a, b}))
			for _, c := range spread {
				pieces = append(pieces, string([]byte{a, b, c}))
			}
		}
	}
	printable := "The quick brown fox!"
	var long []string
	for n := 1; n <= len(printable); n++ {
		long = append(long, printable[:n])
	}
	params := []string{"1", "12;", "1;2;3", "0:1;22;333;4", ";;;;;;;;;"}
	grammars := []Decoder{{}, {LoneC1: true}, {APCBEL: true, MaxPayload: 4}}
	for gi, g := range grammars {
		for _, o := range opens {
			d := g
			d.Feed([]byte(o.p), func(*Token) {})
			must := map[string]bool{}
			if o.long && !(o.c1 && g.LoneC1) {
				want := long
				if o.name == "CSI past MaxParams" {
					want = params
				}
				for _, p := range want {
					must[p] = true
				}
			}
			for _, p := range append(append(pieces, long...), params...) {
				ext, feed := d, d
				took := ext.Extend([]byte(p))
				emitted := 0
				feed.Feed([]byte(p), func(*Token) { emitted++ })
				switch {
				case took && (emitted > 0 || ext != feed):
					t.Fatalf("grammar %d, %s %q: Extend took % x, but Feed emits %d tokens or leaves another decoder", gi, o.name, o.p, p, emitted)
				case !took && ext != d:
					t.Fatalf("grammar %d, %s %q: Extend did not take % x but changed the decoder", gi, o.name, o.p, p)
				case !took && must[p]:
					t.Fatalf("grammar %d, %s %q: Extend did not take %q", gi, o.name, o.p, p)
				}
			}
		}
	}
}
