package decode

import "testing"

// TestTextPrefixWord puts every byte at every offset of printable ASCII
// 1 to 10 bytes long (so into both 4-byte words of textPrefix's test of
// a short piece, and where they overlap): TextPrefix takes all of it when
// the byte is printable ASCII, TAB or LF, else it stops at that byte (a
// byte of 0x80 and above before "a" or at the end is no plain character
// there). It fails when the word test flags the wrong byte.
func TestTextPrefixWord(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for j := range n {
			for b := range 256 {
				p := []byte("abcdefghij"[:n])
				p[j] = byte(b)
				want := j
				if isASCIIText(p[j : j+1]) {
					want = n
				}
				if got := TextPrefix(p); got != want {
					t.Fatalf("TextPrefix(% x) = %d, want %d", p, got, want)
				}
			}
		}
	}
}
