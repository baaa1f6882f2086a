package screen

import (
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/internal/cellwidth"
)

// TestWidthCache holds widthCache to cellwidth.Rune for every rune, each
// looked up twice (a miss, then a hit) after its neighbours.
func TestWidthCache(t *testing.T) {
	var c widthCache
	for r := rune(0); r <= utf8.MaxRune; r++ {
		want := cellwidth.Rune(r)
		for range 2 {
			if got := c.width(r); got != want {
				t.Fatalf("width(%U) = %d, want %d", r, got, want)
			}
		}
	}
}
