package decode

import "testing"

// TestAttack9PayloadStartTrailingESC: a control string left open by an
// ESC at the very end of the stream (End in string_esc) spans the ESC but
// has no terminator: its payload still begins right after the
// introducer, and the ESC is not payload. Every kind, every spelling of
// the introducer, C0 controls after ESC.
func TestAttack9PayloadStartTrailingESC(t *testing.T) {
	intros := []string{"\x1b]", "\x1b\x00]", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1bk", "\x1b\x01\x02k", "\x9d", "\xc2\x9d", "\x90"}
	n := 0
	for _, in := range intros {
		for _, pl := range []string{"", "8;;http://evil.example/", "0;t\xe2\x82"} {
			p := []byte("ab" + in + pl + "\x1b")
			for tk := range Tokens(p) {
				if !tk.Kind.IsString() {
					continue
				}
				n++
				if got, want := tk.PayloadStart(), int64(2+len(in)); got != want || got+tk.Payload != tk.End()-1 {
					t.Errorf("%q: PayloadStart %d, want %d (payload %d, token [%d, %d))", p, got, want, tk.Payload, tk.Off, tk.End())
				}
			}
		}
	}
	if n != 3*len(intros) {
		t.Fatalf("%d strings, want %d", n, 3*len(intros))
	}
}
