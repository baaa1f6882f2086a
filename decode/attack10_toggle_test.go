package decode

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// TestAttack10OptionsToggled: LoneC1 and APCBEL changed between Scan
// calls with a sequence open. Scan's state is a row of the table of the
// options it was last called under, and the rows of the four tables do
// not mean the same decoder state: "\x1b[" under the default options and
// then "1m" under LoneC1 was an unterminated SOS (swallowing the rest of
// the stream), and "\x1b[" under LoneC1 then "m" under the default gave
// the ESC as a text record. Scan keeps the table of the options a token
// began under until it is back in ground; Feed with the options changed at
// the same cuts, deferred while a token is open, gives the same records.
func TestAttack10OptionsToggled(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		oa, ob [2]bool
	}{
		{"\x1b[", "1m", [2]bool{}, [2]bool{true, false}},
		{"\x1b[", "m", [2]bool{true, true}, [2]bool{}},
		{"\x1b_x", "\a", [2]bool{}, [2]bool{false, true}},
	} {
		var d Decoder
		recs := make([]Record, 64)
		var got []Record
		for k, s := range []string{c.a, c.b} {
			o := [][2]bool{c.oa, c.ob}[k]
			d.LoneC1, d.APCBEL = o[0], o[1]
			m, n := d.Scan([]byte(s), recs)
			if m != len(s) {
				t.Fatalf("consumed %d of %q", m, s)
			}
			got = append(got, recs[:n]...)
		}
		got = mergeRecords(append(got, recs[:d.ScanEnd(recs)]...))
		want := feedRecords(Decoder{LoneC1: c.oa[0], APCBEL: c.oa[1]}, []byte(c.a+c.b))
		if !slices.Equal(got, want) {
			t.Errorf("%q %v then %q %v: Scan %q, want %q", c.a, c.oa, c.b, c.ob, recordSigs(got), recordSigs(want))
		}
	}

	r := rand.New(rand.NewPCG(10, 1))
	n := 300
	if testing.Short() {
		n = 60
	}
	for range n {
		p := hostile.Bytes(r, 200)
		var cuts []int
		var opts [][2]bool
		for c := r.IntN(20); c < len(p); c += 1 + r.IntN(20) {
			cuts = append(cuts, c)
			opts = append(opts, [2]bool{r.IntN(2) == 0, r.IntN(2) == 0})
		}
		cuts = append(cuts, len(p))
		opts = append(opts, [2]bool{})
		var fd, sd Decoder
		var want, got []Record
		recs := make([]Record, 64)
		prev := 0
		for k, c := range cuts {
			// Feed's options change where Scan's table does: in ground,
			// or in a character of 4 bytes or led by ED that Scan carries
			// outside its table.
			if fd.state == stateGround || fd.state == stateUTF8 && (fd.u8[0] >= 0xF0 || fd.u8[0] == 0xED) {
				fd.LoneC1, fd.APCBEL = opts[k][0], opts[k][1]
			}
			sd.LoneC1, sd.APCBEL = opts[k][0], opts[k][1]
			fd.Feed(p[prev:c], func(tk *Token) { want = append(want, RecordOf(tk)) })
			for q := p[prev:c]; len(q) > 0; {
				m, n := sd.Scan(q, recs)
				got = append(got, recs[:n]...)
				q = q[m:]
			}
			prev = c
		}
		fd.End(func(tk *Token) { want = append(want, RecordOf(tk)) })
		n := sd.ScanEnd(recs)
		got = mergeRecords(append(got, recs[:n]...))
		if want = mergeRecords(want); !slices.Equal(got, want) {
			t.Fatalf("%q cut at %v, options %v:\n got %q\nwant %q", p, cuts, opts, recordSigs(got), recordSigs(want))
		}
	}
}
