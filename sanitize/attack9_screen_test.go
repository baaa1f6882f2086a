package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// attack9ScreenPieces are text and controls for the screen model's fast
// paths: wide characters, combining marks, variation selectors, ZWJ
// sequences, regional indicators, REP, insert mode, scroll regions, DEC
// special graphics, tabs and tab stops.
var attack9ScreenPieces = []string{
	"\ufe0f", "\ufe0e", "❤\ufe0f", "☺\ufe0e", "👨\u200d👩\u200d👧", "\u200d", "🇫🇷", "🇫", "👍🏽", "終", "a\u0301\u0302", "\u0301",
	"ᄀ\u1161", "\u00ad", "Ａ\u0301", "x\ufe0f", "終\ufe0f", "\t", "\x1bH", "\x1b[g", "\x1b[3g", "\x1b[2I", "\x1b[Z",
	"\x1b[b", "\x1b[5b", "\x1b[99b", "\x1b(0lqqk", "\x1b)0\x0eaq\x0f", "\x1b(B", "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h",
	"\x1b[1;3r", "\x1b[r", "\x1b[3;5H", "\x1b[99C", "\x1b[2@", "\x1b[P", "\r", "\n", "\r\n", "\b", "\x1b[K",
	"abc", "hello world ", "中文字", "😀", "é", "\u0e01\u0e34", "\x1b[7m", "\x1b[0m", "\x1b[31m", "\x1b[2J", "\x1bM", "\x1bD",
}

// TestAttack9ScreenWrites: under CRScreen, inputs of those pieces give in
// Writes of 1 to 17 bytes, on every path, what Bytes gives, and hold no
// control byte.
func TestAttack9ScreenWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	n := 120
	if testing.Short() {
		n = 40
	}
	for range n {
		var p []byte
		for range 1 + r.IntN(60) {
			p = append(p, attack9ScreenPieces[r.IntN(len(attack9ScreenPieces))]...)
		}
		o := attackOptions(r)
		o.CR = CRScreen
		want, wrep := Bytes(p, o)
		checkInvariants(t, p, want)
		for _, path := range []pathChoice{pathTokens, pathRecords, pathAuto} {
			cuts := attack8Cuts(r, len(p), r.IntN(2))
			got := writeCut(p, o, cuts, false, path)
			if !bytes.Equal(got.out, want) || !reflect.DeepEqual(got.rep, wrep) {
				t.Fatalf("%q %v path %v cuts %v:\n got %q\nwant %q", p, o, path, cuts, got.out, want)
			}
		}
	}
}
