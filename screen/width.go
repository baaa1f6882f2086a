package screen

import (
	"sync"
	"sync/atomic"

	"github.com/bytelens/bytelens/internal/cellwidth"
)

// slowPath, set by tests only, turns the fast paths off: text is drawn
// and read cell by cell (print, appendCells' loop), the reference the fast
// paths are held to (TestFastPaths, FuzzFastPaths).
var slowPath bool

// widthBlocks hold cellwidth.Rune of the runes of the Basic Multilingual
// Plane, 2 bits a rune, in blocks of 256 runes each built on first use:
// the text path looks a width up per character, and cellwidth.Rune's
// search of the Unicode tables was a sixth of the time of --cr screen on
// multilingual text. Building the whole plane at once would cost every
// process some 25 million instructions; a block costs 1/256 of it.
var widthBlocks [256]struct {
	ready atomic.Bool
	w     [64]uint8
}

// widthMu serializes the building of widthBlocks.
var widthMu sync.Mutex

// runeWidth is cellwidth.Rune: the cells r takes.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r < 1<<16:
		b := &widthBlocks[r>>8]
		if !b.ready.Load() {
			buildWidths(r >> 8)
		}
		return int(b.w[r&0xFF>>2] >> (r & 3 * 2) & 3)
	}
	return cellwidth.Rune(r)
}

// buildWidths fills block i of widthBlocks.
func buildWidths(i rune) {
	widthMu.Lock()
	defer widthMu.Unlock()
	b := &widthBlocks[i]
	if b.ready.Load() {
		return
	}
	for r := range rune(256) {
		b.w[r>>2] |= uint8(cellwidth.Rune(i<<8|r)) << (r & 3 * 2)
	}
	b.ready.Store(true)
}
