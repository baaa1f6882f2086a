package decode

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// mergeText joins adjacent text tokens that are not embedded and clears
// their Rune, which Feed boundaries and the fast paths change; other
// tokens are kept whole.
func mergeText(ts []Token) []Token {
	var out []Token
	for _, t := range ts {
		if t.Kind == KindText && !t.Is(FlagEmbedded) {
			t.Rune = 0
			if n := len(out); n > 0 && out[n-1].Kind == KindText && !out[n-1].Is(FlagEmbedded) && out[n-1].End() == t.Off {
				out[n-1].Len += t.Len
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// checkReference compares the Decoder, fed p whole and one byte per Feed,
// with the reference, token for token and field for field.
func checkReference(t *testing.T, p []byte, d Decoder) {
	t.Helper()
	want := refTokens(p, d.LoneC1, d.APCBEL, d.MaxPayload)
	every := make([]int, 0, len(p))
	for i := 1; i < len(p); i++ {
		every = append(every, i)
	}
	for _, got := range [][]Token{collect(d, p), feedSplit(d, p, every)} {
		got = mergeText(got)
		if slices.Equal(got, want) {
			continue
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("first difference, token %d:\n got %+v\nwant %+v", i, got[i], want[i])
				break
			}
		}
		t.Fatalf("%q (lone %v, apc-bel %v):\n got %q\nwant %q", p, d.LoneC1, d.APCBEL, sigs(got), sigs(want))
	}
}

// FuzzReference holds the Decoder, with its fast paths, to the byte-at-a-time
// reference decoder, under every option.
func FuzzReference(f *testing.F) {
	f.Fuzz(func(t *testing.T, p []byte, lone, apcBEL bool) {
		checkReference(t, p, Decoder{LoneC1: lone, APCBEL: apcBEL, MaxPayload: 8})
		checkReference(t, p, Decoder{LoneC1: lone, APCBEL: apcBEL})
	})
}

func TestReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for k := range n {
		p := hostile.Bytes(r, r.IntN(160))
		checkReference(t, p, Decoder{LoneC1: k%3 == 1, APCBEL: k%5 == 1, MaxPayload: int64(k % 7)})
	}
}
