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

func TestFormatFate(t *testing.T) {
	for _, tc := range []struct {
		in           string
		o            Options
		kept, wantOK bool
	}{
		{"a\u200db", Options{}, false, true},
		{"\U0001F469\u200d\U0001F4BB", Options{}, true, true}, // held, kept by the emoji after it
		{"\U0001F469\u200d", Options{}, false, false},         // held to the end of the tokens
		{"क\x00\u200fب", Options{}, false, true},              // judged by क too
		{"א\u200fب", Options{}, true, true},
		{"#\ufe0f\u20e3", Options{}, true, true},
		{"\u2764\ufe0f", Options{}, true, true},
		{"a\ufe0f", Options{}, false, true},
		{"a\ufe0f", Options{FormatChars: FormatKeep}, true, true},
		{"a\ufe0f", Options{FormatChars: FormatEscape}, false, true},                   // written escaped
		{"\U0001F469\u200d\U0001F4BB", Options{FormatChars: FormatEscape}, true, true}, // kept as it is
		{"a\u200b", Options{}, false, true},
		{"a\u200db", Options{CR: CRScreen}, false, false},
	} {
		toks := tokensOf([]byte(tc.in), tc.o)
		i := slices.IndexFunc(toks, func(t decode.Token) bool { return t.Kind == decode.KindFormat })
		if kept, ok := FormatFate(toks, i, []byte(tc.in), 0, tc.o); kept != tc.kept || ok != tc.wantOK {
			t.Errorf("%q %v: kept %v ok %v, want %v %v", tc.in, tc.o, kept, ok, tc.kept, tc.wantOK)
		}
	}
	if _, ok := FormatFate(tokensOf([]byte("a"), Options{}), 0, []byte("a"), 0, Options{}); ok {
		t.Error("a text token has a fate")
	}
	// Tokens from the middle of the stream, after before: a character
	// judged by what was written before them has no known fate, one
	// judged by what they wrote has.
	for _, tc := range []struct {
		before, in   string
		kept, wantOK bool
	}{
		{"\U0001F469", "\u200d\U0001F4BB", false, false}, // kept by the emoji before
		{"\u2764", "\ufe0f", false, false},
		{"\u2764", "\x1b[m\ufe0f", false, false},
		{"x", "\u2764\ufe0f", true, true},
		{"x", "a\x00\ufe0f", false, true},
		{"\xd8", "\xa8\u200dت", true, true}, // ب cut by the start: the decoder completes it
	} {
		d := newCleaner(Options{}).dec
		d.Feed([]byte(tc.before), func(*decode.Token) {})
		toks := slices.Collect(d.Tokens([]byte(tc.in)))
		i := slices.IndexFunc(toks, func(t decode.Token) bool { return t.Kind == decode.KindFormat })
		if kept, ok := FormatFate(toks, i, []byte(tc.in), int64(len(tc.before)), Options{}); kept != tc.kept || ok != tc.wantOK {
			t.Errorf("%q after %q: kept %v ok %v, want %v %v", tc.in, tc.before, kept, ok, tc.kept, tc.wantOK)
		}
	}
}

// TestFormatFateMatchesReport: on random input, the format characters
// FormatFate says are kept are as many as the report's kept ones, and a
// fate is unknown only for a character held at the end.
func TestFormatFateMatchesReport(t *testing.T) {
	pool := []string{"a", " ", "1", "#", "क", "ب", "א", "😀", "❤", "葛", "ᠠ", "ᄀ", "\u1161",
		"\u200c", "\u200d", "\u200e", "\u200f", "\u00ad", "\ufe0f", "\U000E0100", "\u180b", "\u115f", "\u1160", "\u20e3", "\u200b",
		"\x00", "\x1b[m", "\r", "\xff"}
	r := rand.New(rand.NewPCG(33, 34))
	for n := range 3000 {
		var b []byte
		for range 1 + r.IntN(8) {
			b = append(b, pool[r.IntN(len(pool))]...)
		}
		o := []Options{{}, {CR: CRDrop}}[n%2]
		_, rep := Bytes(b, o)
		toks := tokensOf(b, o)
		var kept int64
		for i, tok := range toks {
			if tok.Kind != decode.KindFormat {
				continue
			}
			k, ok := FormatFate(toks, i, b, 0, o)
			if !ok && i != len(toks)-1 {
				t.Fatalf("%q: token %d has no fate", b, i)
			}
			if k {
				kept++
			}
		}
		if kept != rep.Kept.Format {
			t.Fatalf("%q %v: %d kept by FormatFate, %d by the report", b, o, kept, rep.Kept.Format)
		}
	}
}
