package sanitize

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/hostile"
)

// tokensOf decodes p as the sanitizer does under o.
func tokensOf(p []byte, o Options) []decode.Token {
	return slices.Collect(newCleaner(o).dec.Tokens(p))
}

func TestSettleCR(t *testing.T) {
	keep := Options{FormatChars: FormatKeep}
	links := Options{Links: LinksAppend}
	for _, tc := range []struct {
		in   string
		o    Options
		want CRFate
	}{
		{"\r\n", Options{}, CRBeforeLF},
		{"\r\r\n", Options{}, CRBeforeLF},
		{"\rx", Options{}, CROverwrites},
		{"\r\x1b[K\x1b[1mx", Options{}, CROverwrites},
		{"\r\x1b[K\n", Options{}, CRBeforeLF}, // removed tokens do not settle a run
		{"\r\v", Options{}, CRBeforeLF},       // VT becomes LF
		{"\r\xff", Options{}, CROverwrites},   // U+FFFD
		{"\r\u200b\n", Options{}, CRBeforeLF}, // U+200B removed: the LF settles it
		{"\r\u200b\n", keep, CROverwrites},    // U+200B kept: it settles it
		{"\r\u2028", Options{}, CRBeforeLF},   // LINE SEPARATOR becomes LF
		{"\x1b]8;;http://x/\x1b\\a\r\x1b]8;;\x1b\\\n", Options{}, CRBeforeLF},
		{"\x1b]8;;http://x/\x1b\\a\r\x1b]8;;\x1b\\\n", links, CROverwrites}, // " <http://x/>" is written first
		{"\r", Options{}, CRUnsettled},
		{"\r\x1b[K", Options{}, CRUnsettled},
	} {
		toks := tokensOf([]byte(tc.in), tc.o)
		i := slices.IndexFunc(toks, func(t decode.Token) bool { return t.Kind == decode.KindC0 && t.Final == '\r' })
		if got := SettleCR(toks, i, []byte(tc.in), 0, tc.o); got != tc.want {
			t.Errorf("%q %v: %v, want %v", tc.in, tc.o, got, tc.want)
		}
	}
	if got := SettleCR(tokensOf([]byte("x\r"), Options{}), 0, []byte("x\r"), 0, Options{}); got != CRUnsettled {
		t.Errorf("a text token: %v", got)
	}
}

// TestSettleCRMatchesReport: on random input, a run of CRs settles as an
// overwrite exactly where the whole-stream report has its overwrite
// finding, under each policy.
func TestSettleCRMatchesReport(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for n := range 2000 {
		o := policies[n%len(policies)]
		p := hostile.Bytes(r, r.IntN(120))
		_, rep := Bytes(p, o)
		flagged := map[int64]bool{}
		for _, f := range rep.Findings {
			if f.Kind == "overwrite" && f.Sequence == "CR" {
				flagged[f.Offset] = true
			}
		}
		toks := tokensOf(p, o)
		c := newCleaner(o)
		c.chunk = p
		for i := range toks {
			tk := &toks[i]
			if tk.Kind == decode.KindC0 && tk.Final == '\r' && c.crRun == 0 { // the first CR of a run
				if fate := SettleCR(toks, i, p, 0, o); (fate == CROverwrites) != flagged[tk.Off] {
					t.Fatalf("%q %v: CR at %d settles %v, report flags %v", p, o, tk.Off, fate, flagged[tk.Off])
				}
			}
			c.each(tk)
		}
	}
}
