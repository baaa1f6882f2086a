//go:build !purego

package sanitize

import (
	"math/rand/v2"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// simpleGuard is the room past the output that checkSimpleRun watches.
const simpleGuard = 32

// checkSimpleRun holds simpleRun (the assembly) to simpleRunGo, the Go
// loop, from the i-th record of recs (its batch ended by stopRecord) at
// s in chunk, with the output at o of buffers of every length from o to
// room, so that the output's limit falls before every record of the run,
// and chunk cut at every length from s to its end likewise: the same returns,
// the same bytes written, and nothing past the buffer.
func checkSimpleRun(t *testing.T, recs *[batchRecords]decode.Record, i uint, next uint32, chunk []byte, s, o uint32, room int) {
	t.Helper()
	got, want := make([]byte, room+simpleGuard), make([]byte, room+simpleGuard)
	check := func(cut, end int) {
		t.Helper()
		for k := range got {
			got[k], want[k] = byte(k*7+1), byte(k*7+1)
		}
		gj, gs, gp, gt, gc := simpleRun(recs, i, next, chunk[:cut], got[:end], s, o)
		wj, ws, wp, wt, wc := simpleRunGo(recs, i, next, chunk[:cut], want[:end], s, o)
		if gj != wj || gs != ws || gp != wp || gt != wt || gc != wc {
			t.Fatalf("from record %d (%#x), s %d of %d, o %d of %d, next %#x: assembly returns (%d, %d, %d, %d, %#x), Go (%d, %d, %d, %d, %#x)",
				i, recs[i], s, cut, o, end, next, gj, gs, gp, gt, gc, wj, ws, wp, wt, wc)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("from record %d, s %d of %d, o %d of %d, next %#x: byte %d is %#x in the assembly, %#x in Go (buffer %d long)",
					i, s, cut, o, end, next, k, got[k], want[k], end)
			}
		}
	}
	// Past 16 bytes after where the run ends with all the room, more
	// room changes nothing.
	_, s1, o1, _, _ := simpleRunGo(recs, i, next, chunk, want[:room], s, o)
	for end := int(o); end <= min(room, int(o1)+17); end++ {
		check(len(chunk), end)
	}
	for cut := int(s); cut <= min(len(chunk), int(s1)+17); cut++ {
		check(cut, room)
	}
}

// scanRecords fills recs with the records of p as the record path scans
// it (one batch, ended by stopRecord), their ends moved by at, and returns
// how many and the bytes of p they cover.
func scanRecords(recs *[batchRecords]decode.Record, p []byte, at int64) (n, k int) {
	var d decode.Decoder
	k, n = d.Scan(p, recs[:batchRecords-1])
	for j := range n {
		recs[j] += decode.Record(at) << 24
	}
	recs[n] = stopRecord
	return n, k
}

// checkSimpleRecords runs checkSimpleRun from the first record of p's
// batch and every invalid UTF-8 record (where quickRecords calls
// simpleRun), as if p began at the stream offset at, with the output at o.
func checkSimpleRecords(t *testing.T, p []byte, at int64, o uint32) {
	t.Helper()
	recs := new([batchRecords]decode.Record)
	n, k := scanRecords(recs, p, at)
	s := uint32(0)
	for j := range n {
		if j == 0 || recs[j].Kind() == decode.KindInvalid {
			checkSimpleRun(t, recs, uint(j), uint32(at), p[:k], s, o, int(o)+3*k+16)
		}
		if recs[j].Flags()&decode.FlagEmbedded == 0 {
			s = uint32(recs[j].EndNear(at) - at)
		}
	}
}

// TestSimpleRun holds the assembly loop to the Go loop over the records
// of uniform random bytes, the hostile corpus' shapes and the run inputs
// of TestQuickRecords, from each record where a run begins, at stream offsets whose low 32
// bits wrap within the block (next is their low 32 bits), with every
// length of output and chunk (checkSimpleRun), and over made-up records
// that take every way out of the loop (checkMadeRecords).
func TestSimpleRun(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 12))
	count := 24
	if testing.Short() {
		count = 6
	}
	var inputs [][]byte
	for range count {
		p := make([]byte, 64)
		for k := range p {
			p[k] = byte(r.IntN(256))
		}
		inputs = append(inputs, p)
	}
	for _, in := range benchInputs() {
		for range 2 {
			at := r.IntN(max(1, len(in.data)-64))
			inputs = append(inputs, in.data[at:min(len(in.data), at+64)])
		}
	}
	inputs = append(inputs, []byte(quickInputs()["simple runs"]))
	for _, p := range inputs {
		for _, at := range []int64{0, 1<<32 - 20, 1<<40 - 9} {
			checkSimpleRecords(t, p, at, uint32(r.IntN(4)))
		}
	}
	for range 40 * count {
		checkMadeRecords(t, r.Uint64(), r.Uint64(), uint32(r.IntN(8)))
	}
	// A batch without stopRecord, followed in memory by more text: the
	// assembly stops at its end (the Go loop would wrap to its first
	// record).
	more := new([batchRecords + 8]decode.Record)
	for j := range more {
		more[j] = decode.Record(j+1)<<24 | decode.Record(decode.KindText)
	}
	chunk := make([]byte, len(more)+16)
	if j, _, _, _, _ := simpleRun((*[batchRecords]decode.Record)(more[:batchRecords]), batchRecords-24, 0, chunk, make([]byte, len(chunk)), batchRecords-25, 0); j != batchRecords {
		t.Errorf("a batch of text without stopRecord: the run ends at record %d, want %d", j, batchRecords)
	}
}

// checkMadeRecords runs checkSimpleRun over a batch of records made from
// the bits of a and b, four at a time: a kind that simpleRun takes or
// not, a code, flags or none, and a length from 0 to 19 (the longest
// taken is 16), after s bytes of the chunk at a stream offset whose low
// 32 bits are next; the chunk is uniform random bytes.
func checkMadeRecords(t *testing.T, a, b uint64, s uint32) {
	t.Helper()
	kinds := [...]decode.Kind{decode.KindText, decode.KindInvalid, decode.KindC0, decode.KindC1, decode.KindDEL, decode.KindCSI, decode.KindText, decode.KindInvalid}
	recs := new([batchRecords]decode.Record)
	next := uint32(b >> 32)
	end := s
	for j := range 16 {
		bits := a >> (4 * j) & 0xF
		more := b >> (2 * j) & 3
		kind := kinds[bits&7]
		code := decode.Record(bits*37+more*11) & 0xFF
		var flags decode.Record
		if bits == 0xF && more == 3 {
			flags = decode.Record(decode.FlagAborted)
		}
		end += uint32(bits+more*4) % 20
		recs[j] = decode.Record(uint64(next+end))<<24 | flags<<16 | code<<8 | decode.Record(kind)
	}
	recs[16] = stopRecord
	chunk := make([]byte, end+24)
	r := rand.New(rand.NewPCG(a, b))
	for k := range chunk {
		chunk[k] = byte(r.IntN(256))
	}
	checkSimpleRun(t, recs, 0, next, chunk, s, 0, int(end)*2+20)
}

// FuzzSimpleRun holds the assembly loop to the Go loop over the records
// of p as Scan gives them (checkSimpleRecords) at the stream offset at,
// and over records made from a and b (checkMadeRecords).
func FuzzSimpleRun(f *testing.F) {
	f.Add([]byte("\xff\x01\xc0x\xc2\x85\xe2\x82\x85y\x7fabc\x1b[1m\xff\r"), uint64(1<<32-3), uint8(1), uint64(0x1234), uint64(0x5678))
	f.Add([]byte(quickInputs()["simple runs"]), uint64(0), uint8(0), uint64(0xFEDCBA9876543210), uint64(0x0123456789ABCDEF))
	f.Fuzz(func(t *testing.T, p []byte, at uint64, o uint8, a, b uint64) {
		if len(p) > 256 {
			p = p[:256]
		}
		checkSimpleRecords(t, p, int64(at%(1<<40)), uint32(o%32))
		checkMadeRecords(t, a, b, uint32(o%8))
	})
}
