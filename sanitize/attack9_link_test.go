package sanitize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAttack9LinkLengths: OSC 8 strings whose length lies around histLen
// (and payload around MaxLinkURI+256), opened by ESC ] (with C0 controls
// executed after ESC), 9D or C2 9D, ended by BEL, ESC \, 9C or C2 9C,
// with format characters and '<' in the label under FormatEscape and C1
// policies, give under LinksAppend what Bytes gives whatever the Writes'
// sizes, on every path.
func TestAttack9LinkLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 29))
	intros := []string{"\x1b]", "\x1b\x00]", "\x1b\x00\x00\x00]", "\x9d", "\xc2\x9d", "\x1b\x0e]"}
	terms := []string{"\x07", "\x1b\\", "\x9c", "\xc2\x9c"}
	n := 150
	if testing.Short() {
		n = 50
	}
	var shown [2]int // by whether Bytes shows a target
	for range n {
		intro, term := intros[r.IntN(len(intros))], terms[r.IntN(len(terms))]
		size := histLen - 8 + r.IntN(12)
		head := "8;id=;http://x/"
		fill := size - len(intro) - len(term) - len(head)
		params := r.IntN(300)
		if params > fill {
			params = fill
		}
		pl := "8;id=" + strings.Repeat("i", params) + ";http://x/" + strings.Repeat("u", fill-params)
		p := []byte("ab" + intro + pl + term + "lab\u202e<l" + "\x1b]8;;\x1b\\z" + intro + pl + term + "q")
		o := Options{Links: LinksAppend, FormatChars: FormatPolicy(r.IntN(3)), C1: C1Policy(r.IntN(2))}
		whole, wrep := Bytes(p, o)
		if strings.Contains(string(whole), "<http://x/") {
			shown[1]++
		} else {
			shown[0]++
		}
		for _, path := range []pathChoice{pathTokens, pathRecords, pathAuto} {
			cuts := attack8Cuts(r, len(p), r.IntN(3))
			got := writeCut(p, o, cuts, false, path)
			if string(got.out) != string(whole) || got.rep.Kept != wrep.Kept {
				t.Fatalf("%.30q…(%d bytes, intro %q term %q) %v path %v cuts %v:\n got %.80q %+v\nwant %.80q %+v", p, len(p), intro, term, o, path, cuts, got.out, got.rep.Kept, whole, wrep.Kept)
			}
		}
	}
	if shown[0] == 0 || shown[1] == 0 {
		t.Fatalf("targets shown %d times, not shown %d: want both", shown[1], shown[0])
	}
}
