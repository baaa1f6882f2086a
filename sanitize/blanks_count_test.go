package sanitize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// blankPieces are what the inputs of TestKeptBlanksCounted are made of:
// every non-ASCII blank, text of five scripts, and what the policies
// remove, rewrite or paint over.
var blankPieces = []string{
	"\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u202f", "\u205f", "\u3000",
	"word ", "ошибка ", "終了", "नमस्ते", "café", "\t", "\n",
	"\x1b[1;31m", "\x1b[0m", "\x1b]0;t\u00a0t\x07", "\x1b]8;;http://x/\x07", "\x1b]8;;\x07", "\x1bP\u3000\x1b\\",
	"\r", "\r\n", "\b", "\x0b", "\u200b", "\u202e", "\u00ad", "\xc2\x9b1m", "\x9d0;\u2000\x9c", "\xff", "\xe2\x80", "<U+00A0>",
}

// TestKeptBlanksCounted: Kept.NonASCIIBlanks is the number of non-ASCII
// blanks in the cleaned text, whether the count is read off the decoder
// (Feed's text, written as it stands) or taken over the cleaned text
// (Scan, screen, line emulation): under every policy, on every path,
// whole, at random cuts (blanks split across Writes among them) and in
// one Write whose pieces (pieceLen) go some by Feed and some by Scan.
func TestKeptBlanksCounted(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 60))
	opts := []Options{{}, {FormatChars: FormatEscape}, {FormatChars: FormatKeep}, {CR: CRScreen}, {CR: CRDrop}, {BS: BSOverstrike}, {Links: LinksAppend}}
	gen := func(n int, dense bool) string {
		var b strings.Builder
		for b.Len() < n {
			k := r.IntN(len(blankPieces))
			if !dense && k >= 15 && r.IntN(8) != 0 {
				k = r.IntN(15) // sparse: text and blanks, few sequences
			}
			b.WriteString(blankPieces[k])
		}
		return b.String()
	}
	check := func(name string, p []byte, o Options, res written) {
		t.Helper()
		if got, want := res.rep.Kept.NonASCIIBlanks, countBlanks(res.out); got != want {
			t.Fatalf("%s %v: %d non-ASCII blanks counted, %d in the cleaned text of %q", name, o, got, want, p)
		}
	}
	for range 50 {
		p := []byte(gen(40+r.IntN(200), r.IntN(2) == 0))
		cuts := []int{}
		for i := 1; i < len(p); i += 1 + r.IntN(9) {
			cuts = append(cuts, i)
		}
		for _, o := range opts {
			out, rep := Bytes(p, o)
			check("Bytes", p, o, written{out: out, rep: rep})
			for _, path := range []pathChoice{pathAuto, pathTokens, pathRecords} {
				if path == pathRecords && (o.CR == CRScreen || o.BS == BSOverstrike) {
					continue // no record path under screen or line emulation
				}
				check("cut", p, o, writeCut(p, o, cuts, false, path))
			}
		}
	}
	// One Write of sparse, dense, sparse text: Feed, Scan, Feed.
	long := []byte(gen(pieceLen, false) + gen(pieceLen, true) + gen(pieceLen, false))
	for _, o := range opts {
		out, rep := Bytes(long, o)
		check("Bytes, pieces on both paths", long, o, written{out: out, rep: rep})
	}
}
