package decode

import (
	"math/rand/v2"
	"testing"
)

// TestAttack9PayloadStartProperty: for random streams of string pieces
// under every option, each control string's bytes before PayloadStart
// are its introducer (ESC, executed C0 controls, the final byte; or the
// C1), and its bytes after the payload are the terminator Term names.
func TestAttack9PayloadStartProperty(t *testing.T) {
	pieces := []string{"\x1b]", "\x1b\x00]", "\x1b\x07]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1bk", "\x1b\x0ek", "\x9d", "\xc2\x9d", "\x90", "\x9f", "\xc2\x9e", "\x98",
		"8;;", "0;", "52;c;", "ab", "\x07", "\x1b\\", "\x9c", "\xc2\x9c", "\xc2", "\x18", "\x1a", "\x1b", "\x1bx", "\x00", "\xe2\x82", "\xff", "é", "\x1b[", "\n"}
	r := rand.New(rand.NewPCG(9, 9))
	for iter := range 3000 {
		var p []byte
		for range 1 + r.IntN(12) {
			p = append(p, pieces[r.IntN(len(pieces))]...)
		}
		d := Decoder{LoneC1: iter%3 == 1, APCBEL: iter%2 == 1, MaxPayload: int64(iter % 5)}
		for tk := range d.Tokens(p) {
			if !tk.Kind.IsString() {
				continue
			}
			s, e := tk.PayloadStart(), tk.PayloadStart()+tk.Payload
			intro := p[tk.Off:s]
			ok := false
			switch tk.Intro {
			case Intro8Bit:
				ok = len(intro) == 1
			case IntroUTF8:
				ok = len(intro) == 2 && intro[0] == 0xC2
			case Intro7Bit:
				ok = len(intro) >= 2 && intro[0] == 0x1B
				for _, b := range intro[1 : len(intro)-1] {
					ok = ok && b < 0x20 && b != 0x1B && b != 0x18 && b != 0x1A
				}
				ok = ok && intro[len(intro)-1] >= 0x40
			}
			rest := string(p[e:tk.End()])
			var want []string
			switch tk.Term {
			case TermBEL:
				want = []string{"\x07"}
			case TermST:
				want = []string{"\x1b\\"}
			case TermC1:
				want = []string{"\x9c", "\xc2\x9c"}
			default:
				want = []string{""}
				if tk.Final == 0x1B {
					want = []string{"\x1b"}
				}
			}
			found := false
			for _, w := range want {
				found = found || rest == w
			}
			if !ok || !found || tk.Payload < 0 {
				t.Fatalf("%q (%+v): introducer %q, after the payload %q, term %v", p, d, intro, rest, tk.Term)
			}
		}
	}
}
