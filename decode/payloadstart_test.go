package decode

import (
	"bytes"
	"testing"
)

// TestPayloadStart: for control strings of every kind and introducer,
// with C0 controls executed between ESC and the introducer's final byte,
// every terminator and none, the bytes at PayloadStart are the payload:
// they begin with the prefix the decoder kept, lie inside the token after
// its introducer, and are followed by the terminator the token names.
func TestPayloadStart(t *testing.T) {
	var intros [][]byte
	for _, f := range []byte("]P_^Xk") {
		for _, mid := range []string{"", "\x00", "\x01\x02", "\x08\x0e"} {
			intros = append(intros, []byte("\x1b"+mid+string(f)))
		}
	}
	intros = append(intros, []byte("\x9d"), []byte("\x90"), []byte("\x9f"), []byte("\xc2\x9d"), []byte("\xc2\x90"), []byte("\xc2\x9e"))
	payloads := []string{"", "8;;http://evil.example/", "52;c;aGk=", "0;title \x00 with NUL", "1$q", "x\x1b"}
	terms := []string{"\x07", "\x1b\\", "\x9c", "\xc2\x9c", "\x18", "\x1bx", "", "\x1b\x00\\"}
	n := 0
	for _, in := range intros {
		for _, pl := range payloads {
			for _, term := range terms {
				p := bytes.Join([][]byte{[]byte("ab"), in, []byte(pl), []byte(term), []byte("cd")}, nil)
				for tk := range Tokens(p) {
					if !tk.Kind.IsString() {
						continue
					}
					n++
					s := tk.PayloadStart()
					e := s + tk.Payload
					if s < tk.Off+1 || e > tk.End() {
						t.Fatalf("%q: payload [%d, %d) outside token [%d, %d)", p, s, e, tk.Off, tk.End())
					}
					if got := p[s:e]; !bytes.HasPrefix(got, tk.PayloadPrefix()) {
						t.Fatalf("%q: payload at %d is %q, decoder's prefix %q", p, s, got, tk.PayloadPrefix())
					}
					rest := p[e:tk.End()]
					want := map[Term][]string{TermBEL: {"\x07"}, TermST: {"\x1b\\"}, TermC1: {"\x9c", "\xc2\x9c"}, TermNone: {""}}[tk.Term]
					found := false
					for _, w := range want {
						found = found || string(rest) == w
					}
					if !found {
						t.Fatalf("%q: after the payload %q, want the terminator %v", p, rest, tk.Term)
					}
				}
			}
		}
	}
	if n < len(intros)*len(payloads)*len(terms) {
		t.Fatalf("%d strings decoded, want at least %d", n, len(intros)*len(payloads)*len(terms))
	}
	if tk := (Token{Kind: KindCSI, Off: 3, Len: 4}); tk.PayloadStart() != 7 {
		t.Fatalf("a CSI's PayloadStart = %d, want its end 7", tk.PayloadStart())
	}
}
