package render

import (
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
// keep or not, DecisionIn says what the sanitizer did with this one.
func TestDecisionInFormatAsSanitized(t *testing.T) {
	for _, tc := range []struct {
		in, prefix string
	}{
		{"a\u200db", "here: removed. "},
		{"\U0001F469\u200d\U0001F4BB", "here: kept. "},
		{"क\x00\u200fب", "here: removed. "},
		{"א\u200fب", "here: kept. "},
		{"\u2764\ufe0f", "here: kept. "},
		{"a\ufe0f", "here: removed. "},
		{"\U0001F469\u200d", "kept and counted where"}, // held at the end: the window does not tell
		{"a\u200b", "removed and counted"},             // always removed: no "here"
	} {
		w := DecodeEnd(decode.Decoder{}, []byte(tc.in))
		for i, tk := range w.Tokens {
			if tk.Kind == decode.KindFormat {
				if got := DecisionIn(&w, i, sanitize.Options{}).String(); !strings.HasPrefix(got, tc.prefix) {
					t.Errorf("%q: %q, want it to begin %q", tc.in, got, tc.prefix)
				}
			}
		}
	}
}
