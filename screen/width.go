package screen

import (
	"sync"

	"github.com/bytelens/bytelens/internal/cellwidth"
)

// slowPath, set by tests only, turns the fast paths off: text is drawn
// and read cell by cell (print, appendCells' loop), the reference the fast
// paths are held to (TestFastPaths, FuzzFastPaths).
var slowPath bool

// bmpWidths holds cellwidth.Rune of each rune of the Basic Multilingual
// Plane, 2 bits a rune (16 KiB), built on
// first use: the text path looks a width up per character, and
// cellwidth.Rune's search of the Unicode tables was a sixth of the time
// of --cr screen on multilingual text.
var bmpWidths = sync.OnceValue(func() *[1 << 14]uint8 {
	var t [1 << 14]uint8
	for r := range rune(1 << 16) {
		t[r>>2] |= uint8(cellwidth.Rune(r)) << (r & 3 * 2)
	}
	return &t
})

// runeWidth is cellwidth.Rune: the cells r takes.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r < 1<<16:
		return int(bmpWidths()[r>>2] >> (r & 3 * 2) & 3)
	}
	return cellwidth.Rune(r)
}
