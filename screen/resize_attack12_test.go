package screen

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// resizeOp is bytes to feed, or a resize to cols×rows when cols > 0.
type resizeOp struct {
	in         string
	cols, rows int
}

// resizeRun runs ops on a model of o, cell by cell when slow, and
// describes what it shows and its cells (described).
func resizeRun(t *testing.T, o Options, ops []resizeOp, slow bool) (string, []Cell) {
	m, fast := pathModel(t, o, slow)
	defer fast()
	var text []byte
	var segs []Segment
	for _, op := range ops {
		if op.cols > 0 {
			m.Resize(op.cols, op.rows)
			continue
		}
		m.Feed([]byte(op.in))
		text, segs = m.TakeScrolled(text, segs)
	}
	return described(m, text, segs)
}

// TestAttack12RandomResizes holds the fast paths to the cell-by-cell
// path on random inputs of fastPathPieces and REPs with resizes between
// them (a cast's "r" events), which TestFastPaths does not make.
func TestAttack12RandomResizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 6))
	rounds := 4000
	if testing.Short() {
		rounds = 1000
	}
	for round := range rounds {
		cols, rows := 1+rng.IntN(10), 1+rng.IntN(4)
		var ops []resizeOp
		for range 1 + rng.IntN(30) {
			switch rng.IntN(6) {
			case 0:
				cols, rows = 1+rng.IntN(12), 1+rng.IntN(5)
				ops = append(ops, resizeOp{cols: cols, rows: rows})
			case 1:
				ops = append(ops, resizeOp{in: fmt.Sprintf("\x1b[%db", rng.IntN(2*cols+2))})
			default:
				var s string
				for range 1 + rng.IntN(4) {
					s += fastPathPieces[rng.IntN(len(fastPathPieces))]
				}
				ops = append(ops, resizeOp{in: s})
			}
		}
		for _, o := range []Options{
			{Cols: 1 + round%9, Rows: 1 + round%4, NewlineCRLF: true, Scrollback: true, Segments: true, RepeatLimit: 20},
			{Cols: 1 + round%9, Rows: 1 + round%4, Findings: true},
		} {
			want, wc := resizeRun(t, o, ops, true)
			got, gc := resizeRun(t, o, ops, false)
			if want != got {
				t.Fatalf("ops %v options %+v:\nfast:\n%s\nslow:\n%s", ops, o, got, want)
			}
			for i := range wc {
				if wc[i] != gc[i] {
					t.Fatalf("ops %v options %+v: cell %d fast %+v slow %+v", ops, o, i, gc[i], wc[i])
				}
			}
		}
	}
}

// String names the op in a failure.
func (o resizeOp) String() string {
	if o.cols > 0 {
		return fmt.Sprintf("resize(%d,%d)", o.cols, o.rows)
	}
	return fmt.Sprintf("%q", o.in)
}
