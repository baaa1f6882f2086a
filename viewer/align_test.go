package viewer

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// TestAlignLong checks the alignment of a long capture of repeated
// sequences with B, which has one line more in the middle and 200 words
// changed all along: more edits than lcs searches for at once, so only
// the anchors (diffUnits) keep the alignment to the places that differ.
// Exactly 201 places differ: the line only B has, then each changed word
// paired with its counterpart; every other byte maps to the same byte of
// B, shifted by the inserted line after it.
func TestAlignLong(t *testing.T) {
	t.Parallel()
	ins := []byte("an inserted line\r\n")
	var a, b bytes.Buffer
	var changed []int64 // A's offsets of the changed words
	mid := int64(-1)
	for i := range 10000 {
		if i == 5000 {
			mid = int64(a.Len())
			b.Write(ins)
		}
		word := "coloured"
		if i%50 == 7 {
			word = "COLOURED"
			changed = append(changed, int64(a.Len()+len(fmt.Sprintf("line %d \x1b[3%dm", i, i%8))))
		}
		fmt.Fprintf(&a, "line %d \x1b[3%dmcoloured\x1b[0m\r\n", i, i%8)
		fmt.Fprintf(&b, "line %d \x1b[3%dm%s\x1b[0m\r\n", i, i%8, word)
	}
	al := align(a.Bytes(), b.Bytes(), decode.Decoder{}, decode.Decoder{})
	var want []diffPlace
	for _, off := range changed {
		bo := off
		if off > mid {
			bo += int64(len(ins))
		}
		if off > mid && (len(want) == 0 || want[len(want)-1].off[0] < mid) {
			want = append(want, diffPlace{off: [2]int64{mid, mid}, side: 1, unit: al.unitAt(1, mid)})
		}
		want = append(want, diffPlace{off: [2]int64{off, bo}, side: 0, unit: al.unitAt(0, off)})
	}
	if got := fmt.Sprint(al.places); got != fmt.Sprint(want) {
		t.Errorf("%d places, want %d:\n%.600s\nwant\n%.600s", len(al.places), len(want), got, fmt.Sprint(want))
	}
	if u := al.unitAt(0, changed[0]); al.sides[0].state[u] != unitChanged {
		t.Errorf("a changed word is %d, want changed (%d)", al.sides[0].state[u], unitChanged)
	}
	for _, off := range []int64{0, mid - 1, mid, int64(a.Len()) - 1} {
		want := off
		if off >= mid {
			want += int64(len(ins))
		}
		if got := al.mapOff(0, off); got != want {
			t.Errorf("A's byte %d maps to B's %d, want %d", off, got, want)
		}
	}
}
