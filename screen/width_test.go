package screen

import (
	"testing"

	"github.com/bytelens/bytelens/internal/cellwidth"
)

// TestRuneWidth holds runeWidth's table to cellwidth.Rune for every rune
// of the BMP and the first of the plane after it (past it runeWidth is
// cellwidth.Rune).
func TestRuneWidth(t *testing.T) {
	for r := rune(0); r <= 1<<16+0x2000; r++ {
		if got, want := runeWidth(r), cellwidth.Rune(r); got != want {
			t.Fatalf("runeWidth(%U) = %d, want %d", r, got, want)
		}
	}
}
