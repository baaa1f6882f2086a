package sanitize

import (
	"math/rand/v2"
	"testing"
)

// TestAttack9PathsPastTiB: attack8's random inputs, options and Writes
// at stream offsets around 1 TiB (1<<40, where decode.Record.End wraps;
// EndNear's window is 1<<39 either side), 1<<39 and 1<<41: every path
// gives what the token path gives at offset 0.
func TestAttack9PathsPastTiB(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 60
	}
	offsets := []int64{1<<40 - 1, 1<<40 - 2, 1<<40 - 3, 1<<40 - 4, 1<<40 - 700, 1 << 40, 1<<40 + 1, 1 << 39, 1<<39 - 2, 1 << 41, 1<<41 - 3, 3<<40 + 5}
	attackPathsAt(t, rand.New(rand.NewPCG(91, 92)), n, offsets, []pathChoice{pathRecords, pathAuto, pathTokens}, nil)
}
