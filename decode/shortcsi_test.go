package decode

import (
	"math/rand/v2"
	"testing"
)

// stepper is the signature of steps and stepsGo, bound to a table.
type stepper func(q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (int, uint32, int)

// stepsSentinel is what every slot of recs holds before a call, different
// in each slot, so that a slot written by one loop and not the other shows.
func stepsSentinel(k int) Record { return Record(k+1) * 0x9E3779B97F4A7C15 }

// checkStepper holds the stepper got to want from state s and record
// count n, over q[i:] in two sweeps: cut at every length, with the least
// room steps asks for (three records a byte of the block, lim three
// slots short of it, never reached); and whole, with recs of every length
// from 0 to that room and three more and lim three slots short of it, so
// that the limit is hit before every byte and a step is taken at
// n == lim with exactly its three slots. Every slot starts as a distinct
// sentinel, and a guard of 16 slots past recs must stay so: the same
// returns, and the same contents of recs.
func checkStepper(t *testing.T, q []byte, i int, s uint32, n int, at Record, gotName string, got stepper, wantName string, want stepper) {
	t.Helper()
	if i > len(q) {
		return
	}
	const guard = 16
	most := n + 3*(len(q)-i) + 3
	g, w := make([]Record, most+guard), make([]Record, most+guard)
	check := func(end, room int) {
		t.Helper()
		for k := range room + guard {
			g[k], w[k] = stepsSentinel(k), stepsSentinel(k)
		}
		lim := room - 3
		gi, gs, gn := got(q[:end], i, s, g[:room], n, lim, at)
		wi, ws, wn := want(q[:end], i, s, w[:room], n, lim, at)
		if gi != wi || gs != ws || gn != wn {
			t.Fatalf("%q[%d:%d] from state %d, n %d, lim %d: %s returns (%d, %d, %d), %s (%d, %d, %d)", q, i, end, s, n, lim, gotName, gi, gs, gn, wantName, wi, ws, wn)
		}
		for k := range room + guard {
			if g[k] != w[k] {
				t.Fatalf("%q[%d:%d] from state %d, n %d, lim %d: recs[%d] is %#x in %s, %#x in %s (sentinel %#x)", q, i, end, s, n, lim, k, g[k], gotName, w[k], wantName, stepsSentinel(k))
			}
		}
	}
	for end := i; end <= len(q); end++ {
		check(end, n+3*(end-i))
	}
	for room := range most + 1 {
		check(len(q), room)
	}
}

// unfused returns a copy of tab without infoShortCSI: a table whose steps
// take a short CSI byte by byte, as plain table steps.
func unfused(tab *scanTable) *scanTable {
	p := new(scanTable)
	*p = *tab
	for k := range p.info {
		p.info[k] &^= infoShortCSI
	}
	return p
}

// checkShortCSI holds steps and stepsGo on tab, which fuses short CSIs, to
// stepsGo on the plain table steps of plain (checkStepper).
func checkShortCSI(t *testing.T, tab, plain *scanTable, q []byte, i int, s uint32, n int, at Record) {
	t.Helper()
	fused := func(q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (int, uint32, int) {
		return steps(tab, q, i, s, recs, n, lim, at)
	}
	checkStepper(t, q, i, s, n, at, "steps", fused, "table steps", plain.stepsGo)
	checkStepper(t, q, i, s, n, at, "stepsGo", tab.stepsGo, "table steps", plain.stepsGo)
}

// TestShortCSITables checks that fuseShortCSI fuses in every table: the
// ESC of every ground row is marked, every final byte has a record and
// the sequence ends in ground, and shortCSI finds the final byte of a
// short CSI and of no other shape.
func TestShortCSITables(t *testing.T) {
	for k := range uint8(4) {
		tab := scanTableOf(k)
		for s := uint32(scanGround); s <= scanText; s += scanWidth {
			if tab.info[s+uint32(tab.class[0x1B])]&infoShortCSI == 0 {
				t.Fatalf("table %d: ESC in row %d not marked", k, s)
			}
		}
		for b := range 256 {
			if final := b >= 0x40 && b <= 0x7E; (tab.csiRec[b] != 0) != final {
				t.Fatalf("table %d: csiRec[%#x] is %#x", k, b, tab.csiRec[b])
			}
		}
		if tab.csiNext != scanGround {
			t.Fatalf("table %d: a short CSI ends in row %d", k, tab.csiNext)
		}
		for q, want := range map[string]int{
			"\x1b[mabcde": 2, "\x1b[1;31mab": 6, "\x1b[?25lxyz": 5, "\x1b[38:5:1m": 0, "\x1b[01;31mx": 7,
			"\x1b[K": 0, "\x1b[1?m....": 0, "\x1b[1 q....": 0, "\x1b(B.....": 0, "\x1b[1\x1bm...": 0, "\x1b[:3m....": 4,
			"\x1b[123456m": 0, "\x1b[12345m.": 7, "\x1b[1\x7fm....": 0, "\x1b[1\xc2m....": 0, "\x1b[<0;1Mx": 6,
		} {
			if got := tab.shortCSI([]byte(q)); got != want {
				t.Errorf("table %d: shortCSI(%q) = %d, want %d", k, q, got, want)
			}
		}
	}
}

// shortCSIShapes returns every shape of short CSI and its near misses
// that TestShortCSI steps: ESC [ and 0 to 6 parameter bytes (each of
// 0x30–0x3F at each place, the others '1'), ended by every byte.
func shortCSIShapes() [][]byte {
	var out [][]byte
	for params := 0; params <= shortCSIMax-2; params++ {
		for at := range max(params, 1) {
			for p := byte(0x30); p <= 0x3F; p++ {
				if params == 0 && p > 0x30 {
					break
				}
				for f := range 256 {
					q := []byte{0x1B, '['}
					for k := range params {
						c := byte('1')
						if k == at {
							c = p
						}
						q = append(q, c)
					}
					out = append(out, append(q, byte(f)))
				}
			}
		}
	}
	return out
}

// TestShortCSI holds the fused steps of a short CSI, in the assembly and
// in stepsGo, to plain table steps: every shape of shortCSIShapes (in
// short mode every third), from every ground row, after text or not and
// followed by more, split at every offset and with every room in recs
// (checkStepper: a CSI cut by the end of q or by lim is stepped byte by
// byte), in every table; and random mixes of short CSIs, their near
// misses and text.
func TestShortCSI(t *testing.T) {
	shapes := shortCSIShapes()
	every := 1
	if testing.Short() {
		every = 3
	}
	r := rand.New(rand.NewPCG(12, 12))
	for k := range uint8(4) {
		tab := scanTableOf(k)
		plain := unfused(tab)
		for x, q := range shapes {
			if x%every != int(k)%every {
				continue
			}
			s := uint32(x%(scanRun+1)) * scanWidth
			pre := []byte("ab")[:x%3]
			in := append(append(append([]byte{}, pre...), q...), "x\x1b[m"...)
			checkShortCSI(t, tab, plain, in, 0, s, x%2, Record(1<<40-9)<<24)
		}
		pieces := []string{"\x1b[m", "\x1b[1;31m", "\x1b[36m", "\x1b[K", "\x1b[01;31m", "\x1b[?25l", "\x1b[38;5;208m",
			"\x1b[38:2::1:2:3m", "\x1b[1 q", "\x1b[1?h", "\x1b(B", "\x1b\x1b[m", "\x1b[", "\x1b", "|", " ", "a", "text", "\t", "\n", "\r", "\xc3\xa9", "\x9b1m"}
		for range 200 {
			var q []byte
			for range 2 + r.IntN(10) {
				q = append(q, pieces[r.IntN(len(pieces))]...)
			}
			s := uint32(r.IntN(scanRun+1)) * scanWidth
			checkShortCSI(t, tab, plain, q, r.IntN(2), s, r.IntN(6), Record(r.Int64N(1<<40))<<24)
		}
	}
}

// FuzzShortCSI holds the fused steps to plain table steps on any input,
// from any ground row of any table, as TestShortCSI does.
func FuzzShortCSI(f *testing.F) {
	for _, s := range []string{
		"\x1b[m|\x1b[1;36m", "\x1b[01;31m\x1b[Kx\x1b[m\x1b[K", "\x1b[?25l\x1b[?2004h", "\x1b[12345m\x1b[123456m",
		"\x1b[1\x1b[m", "\x1b[:1;2m\x1b[1:2m", "ab\x1b[1?m\x1b[1 q", "\x1b[1;31",
	} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	tabs, plains := make([]*scanTable, 4), make([]*scanTable, 4)
	for k := range uint8(4) {
		tabs[k] = scanTableOf(k)
		plains[k] = unfused(tabs[k])
	}
	f.Fuzz(func(t *testing.T, q []byte, opts, i uint8) {
		if len(q) > 64 {
			q = q[:64]
		}
		s := uint32(opts/4%(scanRun+1)) * scanWidth
		checkShortCSI(t, tabs[opts%4], plains[opts%4], q, min(int(i), len(q)), s, int(i%4), Record(int(opts)<<30)<<24)
	})
}
