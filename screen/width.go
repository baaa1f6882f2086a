package screen

import "github.com/bytelens/bytelens/internal/cellwidth"

// slowPath, set by tests only, turns the fast paths off: text is drawn
// and read cell by cell (print, appendCells' loop), the reference the fast
// paths are held to (TestFastPaths, FuzzFastPaths).
var slowPath bool

// widthCache holds the widths of the last non-Latin runes drawn, one
// per value of a rune's low byte, each rune<<2 | its width: text in any
// script draws few distinct characters, and cellwidth.Rune's search of
// the Unicode tables was a sixth of the time of --cr screen on
// multilingual text. A cache, not a table of the plane, so that random
// input pays no more than cellwidth.Rune for each character.
type widthCache [256]uint32

// width returns cellwidth.Rune(r), the cells r takes.
func (c *widthCache) width(r rune) int {
	if r < 0x300 {
		return 1
	}
	e := &c[r&0xFF]
	if *e>>2 == uint32(r) {
		return int(*e & 3)
	}
	w := cellwidth.Rune(r)
	*e = uint32(r)<<2 | uint32(w)
	return w
}
