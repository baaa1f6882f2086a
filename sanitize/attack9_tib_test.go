package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestAttack9PathsPastTiB: attack8's random inputs, options and Writes
// at stream offsets around 1 TiB (1<<40, where decode.Record.End wraps;
// EndNear's window is 1<<39 either side), 1<<39 and 1<<41: every path
// gives what the token path gives at offset 0.
func TestAttack9PathsPastTiB(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	offsets := []int64{1<<40 - 1, 1<<40 - 2, 1<<40 - 3, 1<<40 - 4, 1<<40 - 700, 1 << 40, 1<<40 + 1, 1 << 39, 1<<39 - 2, 1 << 41, 1<<41 - 3, 3<<40 + 5}
	n := 200
	if testing.Short() {
		n = 60
	}
	for i := range n {
		o := attackOptions(r)
		if i%10 == 0 {
			o.CR = CRScreen
		}
		p := attack8Input(r)
		cuts := attack8Cuts(r, len(p), i%3)
		want := writeAt(p, o, cuts, pathTokens, 0)
		for _, path := range []pathChoice{pathRecords, pathAuto, pathTokens} {
			off := offsets[r.IntN(len(offsets))]
			got := writeAt(p, o, cuts, path, off)
			if !bytes.Equal(got.out, want.out) || !reflect.DeepEqual(got.rep, want.rep) || !reflect.DeepEqual(got.ground, want.ground) {
				t.Fatalf("%q %v cuts %v, path %d at offset %d:\n got %q %+v %v\nwant %q %+v %v", p, o, cuts, path, off, got.out, got.rep, got.ground, want.out, want.rep, want.ground)
			}
		}
	}
}
