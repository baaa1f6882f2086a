package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// TestAttack10WriteSizes: hostile input written to a Writer in Writes of
// every size from 1 to 600 bytes (a step of 37 with -short) gives exactly
// Bytes's text and report, under options that take the record path and
// ones that do not; the text Bytes returned first is not changed by a
// later call (no pooled buffer aliased).
func TestAttack10WriteSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 600))
	p := hostile.Bytes(r, 6000)
	step := 7
	if testing.Short() {
		step = 37
	}
	for _, o := range []Options{{}, {CR: CRDrop, Links: LinksAppend}, {CR: CRScreen}, {BS: BSOverstrike, FormatChars: FormatEscape, C1: C1Lone}} {
		want, wantRep := Bytes(p, o)
		keep := bytes.Clone(want)
		for size := 1; size <= 600; size += step {
			var buf bytes.Buffer
			w := NewWriter(&buf, o)
			for q := p; len(q) > 0; {
				n := min(size, len(q))
				if _, err := w.Write(q[:n]); err != nil {
					t.Fatal(err)
				}
				q = q[n:]
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("%v, Writes of %d: text differs at %d", o, size, diffAt(buf.Bytes(), want))
			}
			if rep := w.Report(); !reflect.DeepEqual(rep, wantRep) {
				t.Fatalf("%v, Writes of %d: report\n got %+v\nwant %+v", o, size, rep, wantRep)
			}
			Bytes(p[:size], o) // a later call on a pooled cleaner
		}
		if !bytes.Equal(want, keep) {
			t.Fatalf("%v: the text Bytes returned changed after later calls", o)
		}
	}
}
