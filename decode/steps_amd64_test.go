//go:build !purego

package decode

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// stepsOptions are the four option sets of the scan tables.
var stepsOptions = []Decoder{{}, {LoneC1: true}, {APCBEL: true}, {LoneC1: true, APCBEL: true}}

// reachableRows returns the state rows of tab that Scan can be in: those
// that the table's steps reach from ground, from a text run (the state
// unit leaves) and from the states a flush leaves, in order.
func reachableRows(tab *scanTable) []uint32 {
	classes := int(slices.Max(tab.class[:])) + 1
	seen := map[uint32]bool{}
	var rows []uint32
	add := func(s uint32) {
		if !seen[s] {
			seen[s] = true
			rows = append(rows, s)
		}
	}
	add(scanGround)
	add(scanWidth)
	for k := 0; k < len(rows); k++ {
		s := rows[k]
		for c := range classes {
			add(uint32(tab.next[s+uint32(c)]))
		}
		if e := tab.flush[s/scanWidth]; e != 0 {
			add(e & entryNext)
		}
	}
	slices.Sort(rows)
	return rows
}

// stepsSentinel is what every slot of recs holds before a call, different
// in each slot, so that a slot written by one loop and not the other shows.
func stepsSentinel(k int) Record { return Record(k+1) * 0x9E3779B97F4A7C15 }

// checkSteps holds steps (the assembly) to stepsGo, the Go loop, on table
// tab from state s and record count n, over q[i:] in two sweeps: cut at
// every length, with the least room steps asks for (three records a byte
// of the block, lim three slots short of it, never reached); and whole,
// with recs of every length from 0 to that room and three more and lim
// three slots short of it, so that the limit is hit before every byte
// and a step is taken at n == lim with exactly its three slots. Every
// slot starts as a distinct sentinel, and a guard of 16 slots past recs
// must stay so: the same returns, and the same contents of recs.
func checkSteps(t *testing.T, tab *scanTable, q []byte, i int, s uint32, n int, at Record) {
	t.Helper()
	if i > len(q) {
		return
	}
	const guard = 16
	most := n + 3*(len(q)-i) + 3
	got, want := make([]Record, most+guard), make([]Record, most+guard)
	check := func(end, room int) {
		t.Helper()
		for k := range room + guard {
			got[k], want[k] = stepsSentinel(k), stepsSentinel(k)
		}
		lim := room - 3
		gi, gs, gn := steps(tab, q[:end], i, s, got[:room], n, lim, at)
		wi, ws, wn := tab.stepsGo(q[:end], i, s, want[:room], n, lim, at)
		if gi != wi || gs != ws || gn != wn {
			t.Fatalf("%q[%d:%d] from state %d, n %d, lim %d: assembly returns (%d, %d, %d), Go (%d, %d, %d)", q, i, end, s, n, lim, gi, gs, gn, wi, ws, wn)
		}
		for k := range room + guard {
			if got[k] != want[k] {
				t.Fatalf("%q[%d:%d] from state %d, n %d, lim %d: recs[%d] is %#x in the assembly, %#x in Go (sentinel %#x)", q, i, end, s, n, lim, k, got[k], want[k], stepsSentinel(k))
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

// stepsInputs returns the inputs TestSteps steps from every state: the
// hostile corpus and the recorded coloured outputs, in windows of 48
// bytes, and hostile and uniform random bytes.
func stepsInputs(t *testing.T, r *rand.Rand, count int) [][]byte {
	files, _ := filepath.Glob("../testdata/corpus/*.bin")
	bench, _ := filepath.Glob("../sanitize/testdata/bench/*.ansi")
	files = append(files, bench...)
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	var in [][]byte
	for k := range count {
		switch k % 3 {
		case 0:
			p, err := os.ReadFile(files[r.IntN(len(files))])
			if err != nil {
				t.Fatal(err)
			}
			at := r.IntN(max(1, len(p)-48))
			in = append(in, p[at:min(len(p), at+48)])
		case 1:
			in = append(in, hostile.Bytes(r, 48))
		default:
			p := make([]byte, 48)
			for i := range p {
				p[i] = byte(r.IntN(256))
			}
			in = append(in, p)
		}
	}
	return in
}

// TestSteps holds the assembly loop to the Go loop from every reachable
// state of the four tables: one byte of every class and then a few more,
// and windows of the corpus and random bytes, each cut at every length,
// with a record count of 0 or 5 and a stream offset whose records wrap
// past 1<<40 within the block; each also with recs of every length
// (checkSteps). A byte of every class from every row includes, in each
// table, steps of infoThree, which the sweep of lengths takes at the limit
// (n == lim, recs three slots long).
func TestSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 9))
	windows := 8
	if testing.Short() {
		windows = 2
	}
	for _, d := range stepsOptions {
		tab := scanTableFor(d.LoneC1, d.APCBEL)
		var reps []byte // a byte of each class
		for b := range 256 {
			if c := int(tab.class[b]); c == len(reps) {
				reps = append(reps, byte(b))
			}
		}
		rows := reachableRows(tab)
		inputs := stepsInputs(t, r, windows*len(rows))
		many := 0
		for k, s := range rows {
			for _, b := range reps {
				if f := tab.info[s+uint32(tab.class[b])]; f&infoThree != 0 && f&infoSpecial == 0 {
					many++
				}
				q := append([]byte{0, b}, hostile.Bytes(r, 5)...)
				checkSteps(t, tab, q, 1, s, 0, Record(1000)<<24)
			}
			for w, q := range inputs[k*windows : (k+1)*windows] {
				checkSteps(t, tab, q, w%2, s, 5*(w%2), Record(1<<40-20)<<24)
			}
		}
		if many == 0 {
			t.Fatalf("table (lone %v, apc-bel %v): no step of infoThree taken at the limit", d.LoneC1, d.APCBEL)
		}
	}
}

// TestStepsRows checks reachableRows against Scan: every state a Decoder
// is in after a Scan call, on the corpus and random bytes fed one byte a
// call, is among the rows TestSteps steps from.
func TestStepsRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	recs := make([]Record, ScanRecords)
	for _, d := range stepsOptions {
		rows := reachableRows(scanTableFor(d.LoneC1, d.APCBEL))
		for _, p := range stepsInputs(t, r, 300) {
			for i := range p {
				d.Scan(p[i:i+1], recs)
				if _, ok := slices.BinarySearch(rows, uint32(d.scan)); !ok {
					t.Fatalf("Scan of %q (lone %v, apc-bel %v) left state %d at byte %d, not among the %d rows", p, d.LoneC1, d.APCBEL, d.scan, i, len(rows))
				}
			}
		}
	}
}

// FuzzSteps holds the assembly loop to the Go loop on any input, from any
// reachable state of any table, record count and start, cut at every
// length.
func FuzzSteps(f *testing.F) {
	f.Add([]byte("\x1b[1;31mred\x1b[0m\r\n"), uint8(0), uint16(0), uint8(0))
	f.Add([]byte("\x9b31m\xc2\x9b0m\x1b]0;a\x9cb\x07"), uint8(1), uint16(7), uint8(2))
	f.Add([]byte("\r\b\x00\x1bP$qm\x1b\\\x1b_Ga=T\x1b\\"), uint8(6), uint16(40), uint8(1))
	rows := make([][]uint32, len(stepsOptions))
	for k, d := range stepsOptions {
		rows[k] = reachableRows(scanTableFor(d.LoneC1, d.APCBEL))
	}
	f.Fuzz(func(t *testing.T, q []byte, opts uint8, state uint16, i uint8) {
		if len(q) > 256 {
			q = q[:256]
		}
		d := stepsOptions[opts%4]
		tab := scanTableFor(d.LoneC1, d.APCBEL)
		s := rows[opts%4][int(state)%len(rows[opts%4])]
		checkSteps(t, tab, q, min(int(i), len(q)), s, int(opts/4%8), Record(int(state)<<20)<<24)
	})
}

// TestStepsText holds the assembly's text skip to stepsGo's (skipASCII):
// runs of printable ASCII, TAB and LF of every length up to 40, ended by
// every byte and then more text, from ground and from scanText, in every
// table (checkSteps cuts each at every length).
func TestStepsText(t *testing.T) {
	run := []byte("words \tand\nmore text, twenty-six letters; ~!{}|\t\nx")
	lengths := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40}
	if testing.Short() {
		lengths = []int{0, 1, 5, 7, 8, 9, 16, 17, 40}
	}
	for _, d := range stepsOptions {
		tab := scanTableFor(d.LoneC1, d.APCBEL)
		for _, n := range lengths {
			for b := range 256 {
				q := append(append([]byte{}, run[:n]...), byte(b), 0xA9, 'a', 'b', 'c', 'd', 'e', '\t', 'f')
				checkSteps(t, tab, q, 0, scanText, 0, Record(1<<40-30)<<24)
				checkSteps(t, tab, q, 0, scanGround, 2, Record(77)<<24)
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

// TestShortCSI holds the assembly's one step of a short CSI to stepsGo's
// table steps: every shape of shortCSIShapes (in short mode every third),
// from every ground row, after text or not and followed by more, split at
// every offset and with every room in recs (checkSteps: a CSI cut by the
// end of q or by lim is stepped byte by byte), in every table; and random
// mixes of short CSIs, their near misses and text.
func TestShortCSI(t *testing.T) {
	shapes := shortCSIShapes()
	every := 1
	if testing.Short() {
		every = 3
	}
	r := rand.New(rand.NewPCG(12, 12))
	for k := range uint8(4) {
		tab := scanTableOf(k)
		for x, q := range shapes {
			if x%every != int(k)%every {
				continue
			}
			s := uint32(x%(scanRun+1)) * scanWidth
			pre := []byte("ab")[:x%3]
			in := append(append(append([]byte{}, pre...), q...), "x\x1b[m"...)
			checkSteps(t, tab, in, 0, s, x%2, Record(1<<40-9)<<24)
		}
		pieces := []string{"\x1b[m", "\x1b[1;31m", "\x1b[36m", "\x1b[K", "\x1b[01;31m", "\x1b[?25l", "\x1b[38;5;208m",
			"\x1b[38:2::1:2:3m", "\x1b[1 q", "\x1b[1?h", "\x1b(B", "\x1b\x1b[m", "\x1b[", "\x1b", "|", " ", "a", "text", "\t", "\n", "\r", "\xc3\xa9", "\x9b1m"}
		for range 200 {
			var q []byte
			for range 2 + r.IntN(10) {
				q = append(q, pieces[r.IntN(len(pieces))]...)
			}
			s := uint32(r.IntN(scanRun+1)) * scanWidth
			checkSteps(t, tab, q, r.IntN(2), s, r.IntN(6), Record(r.Int64N(1<<40))<<24)
		}
	}
}

// FuzzShortCSI holds the assembly to stepsGo on any input,
// from any ground row of any table, as TestShortCSI does.
func FuzzShortCSI(f *testing.F) {
	for _, s := range []string{
		"\x1b[m|\x1b[1;36m", "\x1b[01;31m\x1b[Kx\x1b[m\x1b[K", "\x1b[?25l\x1b[?2004h", "\x1b[12345m\x1b[123456m",
		"\x1b[1\x1b[m", "\x1b[:1;2m\x1b[1:2m", "ab\x1b[1?m\x1b[1 q", "\x1b[1;31",
	} {
		f.Add([]byte(s), uint8(0), uint8(0))
	}
	tabs := make([]*scanTable, 4)
	for k := range uint8(4) {
		tabs[k] = scanTableOf(k)
	}
	f.Fuzz(func(t *testing.T, q []byte, opts, i uint8) {
		if len(q) > 64 {
			q = q[:64]
		}
		s := uint32(opts/4%(scanRun+1)) * scanWidth
		checkSteps(t, tabs[opts%4], q, min(int(i), len(q)), s, int(i%4), Record(int(opts)<<30)<<24)
	})
}
