//go:build !purego

package sanitize

import (
	"math/rand/v2"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// checkRecallRun holds recallRun (the assembly) to recallRunGo, the Go
// loop, from the i-th record of recs (its batch ended by stopRecord) at
// s in chunk, with the memo's quick slots quick, with the output at o of
// buffers of every length from o to room, so that the output's limit
// falls before every record of the run, and chunk cut at every length
// from s likewise: the same returns, the same bytes written, nothing past
// the buffer, and the same hits in every slot.
func checkRecallRun(t *testing.T, recs *[batchRecords]decode.Record, i uint, next uint32, chunk []byte, s, o uint32, room int, quick *[1 << memoBits]quickSlot) {
	t.Helper()
	got, want := make([]byte, room+simpleGuard), make([]byte, room+simpleGuard)
	var gq, wq [1 << memoBits]quickSlot
	check := func(cut, end int) {
		t.Helper()
		for k := range got {
			got[k], want[k] = byte(k*7+1), byte(k*7+1)
		}
		gq, wq = *quick, *quick
		gj, gs, gp, gt := recallRun(recs, i, next, chunk[:cut], got[:end], s, o, &gq)
		wj, ws, wp, wt := recallRunGo(recs, i, next, chunk[:cut], want[:end], s, o, &wq)
		if gj != wj || gs != ws || gp != wp || gt != wt {
			t.Fatalf("from record %d (%#x), s %d of %d, o %d of %d, next %#x: assembly returns (%d, %d, %d, %d), Go (%d, %d, %d, %d)",
				i, recs[i], s, cut, o, end, next, gj, gs, gp, gt, wj, ws, wp, wt)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("from record %d, s %d of %d, o %d of %d, next %#x: byte %d is %#x in the assembly, %#x in Go (buffer %d long)",
					i, s, cut, o, end, next, k, got[k], want[k], end)
			}
		}
		if gq != wq {
			t.Fatalf("from record %d, s %d of %d, o %d of %d, next %#x: the hits differ", i, s, cut, o, end, next)
		}
	}
	wq = *quick
	_, s1, o1, _ := recallRunGo(recs, i, next, chunk, want[:room], s, o, &wq)
	for end := int(o); end <= min(room, int(o1)+maxWide+17); end++ {
		check(len(chunk), end)
	}
	for cut := int(s); cut <= min(len(chunk), int(s1)+maxWide+17); cut++ {
		check(cut, room)
	}
}

// recallSlots returns quick slots that hold, in their first slot, the
// keys of the CSIs of at most 16 bytes among the records of p
// (scanRecords at offset at) but every third, which goes to the slot
// after its first, where recallRun does not look.
func recallSlots(recs *[batchRecords]decode.Record, n int, p []byte, at int64) *[1 << memoBits]quickSlot {
	quick := new([1 << memoBits]quickSlot)
	s := int64(0)
	for j := range n {
		e := recs[j].EndNear(at) - at
		if recs[j].Kind() == decode.KindCSI && recs[j].Flags() == 0 && e-s <= maxMemo {
			w := wordOf(p[s:e])
			k, _ := w.slots()
			if j%3 == 2 {
				k = (k + 1) % (1 << memoBits)
			}
			quick[k].key = w
		}
		if recs[j].Flags()&decode.FlagEmbedded == 0 {
			s = e
		}
	}
	return quick
}

// checkRecallRecords runs checkRecallRun from every record of p's batch
// after a CSI (where quickRecords calls recallRun), as if p began at the
// stream offset at, with the output at o.
func checkRecallRecords(t *testing.T, p []byte, at int64, o uint32) {
	t.Helper()
	recs := new([batchRecords]decode.Record)
	n, k := scanRecords(recs, p, at)
	quick := recallSlots(recs, n, p, at)
	s := uint32(0)
	for j := range n {
		if j == 0 || recs[j-1].Kind() == decode.KindCSI {
			checkRecallRun(t, recs, uint(j), uint32(at), p[:k], s, o, int(o)+3*k+16, quick)
		}
		if recs[j].Flags()&decode.FlagEmbedded == 0 {
			s = uint32(recs[j].EndNear(at) - at)
		}
	}
}

// TestRecallRun holds the assembly loop to the Go loop over the records
// of the coloured outputs, the other benchmark inputs and random bytes,
// from each record after a CSI, at stream offsets whose low 32 bits wrap
// within the block, with every length of output and chunk
// (checkRecallRun), and over made-up records that take every way out of
// the loop (checkRecallMade).
func TestRecallRun(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 15))
	count := 24
	if testing.Short() {
		count = 4
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
		for range count / 2 {
			at := r.IntN(max(1, len(in.data)-400))
			inputs = append(inputs, in.data[at:min(len(in.data), at+400)])
		}
	}
	for _, p := range inputs {
		for _, at := range []int64{0, 1<<32 - 100, 1<<40 - 9} {
			checkRecallRecords(t, p, at, uint32(r.IntN(4)))
		}
	}
	for range 40 * count {
		checkRecallMade(t, r.Uint64(), r.Uint64(), uint32(r.IntN(8)))
	}
}

// checkRecallMade runs checkRecallRun over a batch of records made from
// the bits of a and b, four at a time: text, a CSI or another kind,
// flags or none, and a length from 0 to 299 for text, 0 to 11 for a CSI
// (the longest taken are maxWide and recallMax), after s bytes of the
// chunk at a stream offset whose low 32 bits are next; the chunk is
// random bytes in which each CSI's bytes are a key in its first slot, in
// the slot after, or in none.
func checkRecallMade(t *testing.T, a, b uint64, s uint32) {
	t.Helper()
	kinds := [...]decode.Kind{decode.KindText, decode.KindCSI, decode.KindText, decode.KindCSI, decode.KindText, decode.KindCSI, decode.KindC0, decode.KindOSC}
	r := rand.New(rand.NewPCG(a, b))
	recs := new([batchRecords]decode.Record)
	next := uint32(b >> 32)
	lens := make([]uint32, 16)
	end := s
	for j := range 16 {
		bits := a >> (4 * j) & 0xF
		more := b >> (2 * j) & 3
		kind := kinds[bits&7]
		var flags decode.Record
		if bits == 0xF && more == 3 {
			flags = decode.Record(decode.FlagAborted)
		}
		n := uint32(r.IntN(12))
		if kind == decode.KindText {
			n = uint32(r.IntN(300))
			if more != 0 {
				n %= 17
			}
		}
		lens[j] = n
		end += n
		recs[j] = decode.Record(uint64(next+end))<<24 | flags<<16 | decode.Record(kind)
	}
	recs[16] = stopRecord
	chunk := make([]byte, end+24)
	for k := range chunk {
		chunk[k] = byte(r.IntN(256))
	}
	quick := new([1 << memoBits]quickSlot)
	at := s
	for j := range 16 {
		if recs[j].Kind() == decode.KindCSI && lens[j] > 0 && lens[j] <= maxMemo {
			w := wordOf(chunk[at : at+lens[j]])
			k, _ := w.slots()
			switch r.IntN(4) {
			case 0:
			case 1:
				quick[(k+1)%(1<<memoBits)].key = w
			default:
				quick[k].key = w
			}
		}
		at += lens[j]
	}
	checkRecallRun(t, recs, 0, next, chunk, s, 0, int(end)*2+40, quick)
}

// FuzzRecallRun holds the assembly loop to the Go loop over the records
// of p as Scan gives them (checkRecallRecords) at the stream offset at,
// and over records made from a and b (checkRecallMade).
func FuzzRecallRun(f *testing.F) {
	f.Add([]byte("ab\x1b[1mc\x1b[0m\x1b[1mdefghijklmnopqrstuvwxyz\x1b[0m\r\x1b[1mx"), uint64(1<<32-3), uint8(1), uint64(0x1234), uint64(0x5678))
	f.Fuzz(func(t *testing.T, p []byte, at uint64, o uint8, a, b uint64) {
		// checkRecallRecords costs about the square of len(p) (a run
		// from each record, at each cut of the output and the chunk):
		// 160 ms for 512 bytes of SGRs and text, 10 ms for 128, and the
		// fuzzer minimizes each new input with hundreds of runs.
		if len(p) > 128 {
			p = p[:128]
		}
		checkRecallRecords(t, p, int64(at%(1<<40)), uint32(o%32))
		checkRecallMade(t, a, b, uint32(o%8))
	})
}
