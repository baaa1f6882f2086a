package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// TestDecisionInCRAsSanitized: what DecisionIn says a CR run became is
// what the sanitizer made of it, for tokens whose effect on the run
// depends on the policy (a removed or kept format character, an OSC 8
// close that writes the link's target).
func TestDecisionInCRAsSanitized(t *testing.T) {
	const lf = "CR: removed; run followed by LF, which is the line break (policy cr=lines)"
	const over = "CR: removed; run not followed by LF becomes one LF; flagged overwrite (policy cr=lines)"
	for _, tc := range []struct {
		in   string
		o    sanitize.Options
		want string
	}{
		{"a\r\u200b\nb", sanitize.Options{}, lf},
		{"a\r\u200b\nb", sanitize.Options{FormatChars: sanitize.FormatKeep}, over},
		{"\x1b]8;;http://x/\x1b\\a\r\x1b]8;;\x1b\\\n", sanitize.Options{}, lf},
		{"\x1b]8;;http://x/\x1b\\a\r\x1b]8;;\x1b\\\n", sanitize.Options{Links: sanitize.LinksAppend}, over},
	} {
		w := DecodeEnd(decode.Decoder{}, []byte(tc.in))
		for i, tk := range w.Tokens {
			if tk.Kind == decode.KindC0 && tk.Final == '\r' {
				if got := DecisionIn(&w, i, tc.o).String(); got != tc.want {
					t.Errorf("%q %v:\n got %q\nwant %q", tc.in, tc.o, got, tc.want)
				}
			}
		}
	}
}

// TestDecisionInFormatAsSanitized: for a format character its neighbours
// keep or not, DecisionIn says what the sanitizer did with this one, and
// nothing of it when the window does not tell: the character before it
// lies before the window (before), or the one after it past the end.
func TestDecisionInFormatAsSanitized(t *testing.T) {
	escape := sanitize.Options{FormatChars: sanitize.FormatEscape}
	for _, tc := range []struct {
		before, in string
		o          sanitize.Options
		prefix     string
	}{
		{"", "a\u200db", sanitize.Options{}, "here: removed. "},
		{"", "\U0001F469\u200d\U0001F4BB", sanitize.Options{}, "here: kept. "},
		{"", "क\x00\u200fب", sanitize.Options{}, "here: removed. "},
		{"", "א\u200fب", sanitize.Options{}, "here: kept. "},
		{"", "a\u200fب", sanitize.Options{}, "here: removed. "}, // before right-to-left text, after a letter
		{"", "1\u200fب", sanitize.Options{}, "here: kept. "},    // between a number and right-to-left text
		{"", "\u2764\ufe0f", sanitize.Options{}, "here: kept. "},
		{"", "a\ufe0f", sanitize.Options{}, "here: removed. "},
		{"", "\U0001F469\u200d", sanitize.Options{}, "kept and counted where"}, // held at the end: the window does not tell
		{"", "a\u200b", sanitize.Options{}, "removed and counted"},             // always removed: no "here"
		// Under escape, the policy shows the character as <U+…>: it is
		// not kept, nor removed; its neighbours still keep it.
		{"", "a\u200db", escape, "here: escaped. "},
		{"", "\U0001F469\u200d\U0001F4BB", escape, "here: kept. "},
		{"", "a\ufe0f", sanitize.Options{FormatChars: sanitize.FormatKeep}, "here: kept. "},
		// The base character or the emoji before the window: unknown
		// (the sanitizer keeps both), but known once the window holds a
		// character written before it.
		{"\U0001F469", "\u200d\U0001F4BB", sanitize.Options{}, "kept and counted where"},
		{"\u2764", "\ufe0f", sanitize.Options{}, "kept as the one"},
		{"\u2764", "\x1b[m\ufe0f", sanitize.Options{}, "kept as the one"},
		{"x", "\u2764\ufe0f", sanitize.Options{}, "here: kept. "},
		{"x", "a\x00\ufe0f", sanitize.Options{}, "here: removed. "},
		{"\xd8", "\xa8\u200dت", sanitize.Options{}, "here: kept. "}, // ب begins before the window, completed
	} {
		var d decode.Decoder
		d.Feed([]byte(tc.before), func(*decode.Token) {})
		w := DecodeEnd(d, []byte(tc.in))
		i := slices.IndexFunc(w.Tokens, func(t decode.Token) bool { return t.Kind == decode.KindFormat })
		if i < 0 {
			t.Fatalf("%q: no format character", tc.in)
		}
		if got := DecisionIn(&w, i, tc.o).String(); !strings.HasPrefix(got, tc.prefix) {
			t.Errorf("%q|%q %v: %q, want it to begin %q", tc.before, tc.in, tc.o, got, tc.prefix)
		}
	}
}
