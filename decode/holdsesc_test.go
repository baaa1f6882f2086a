package decode

import (
	"bytes"
	"testing"
)

// TestHoldsESC puts every byte at every offset of 1 to 10 bytes of
// printable ASCII: HoldsESC reports an ESC exactly for 4 to 8 bytes that
// hold one, and a p it reports never decodes as text (TakeText declines
// it, in ground and after a cut character).
func TestHoldsESC(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for i := range n {
			for b := range 256 {
				p := bytes.Repeat([]byte{'x'}, n)
				p[i] = byte(b)
				got := HoldsESC(p)
				if want := n >= 4 && n <= 8 && b == 0x1B; got != want {
					t.Fatalf("HoldsESC(% x) = %v, want %v", p, got, want)
				}
				if !got {
					continue
				}
				for _, before := range []string{"a", "\xd0"} {
					var d Decoder
					d.Feed([]byte(before), func(*Token) {})
					if _, _, ok := d.TakeText(nil, p); ok {
						t.Fatalf("HoldsESC(% x), but TakeText takes it after %q", p, before)
					}
				}
			}
		}
	}
}
