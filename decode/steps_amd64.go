//go:build !purego

package decode

// steps is Scan's inner loop in amd64 assembly (steps_amd64.s), with the
// contract of stepsGo: it takes the table steps of q from byte i in state
// s of t, writing records into recs from n on (at is the stream offset of
// q[i] as in a record), up to the end of q, a step of infoSpecial, which
// it does not take (a text run's skip excepted, as in stepsGo), or a
// byte at which n is past lim, which it does not
// step, and returns where it stopped, and the state and record count
// there. One call covers what Scan has of p, however full recs gets.
//
// It checks no bounds: the caller must pass 0 <= i <= len(q), 0 <= n and
// lim <= len(recs)-3, the room of the three records of a step taken at
// n == lim (Scan checks this once a call, outside the loop). It reads
// only the low 16 bits of s (every state row is below 1<<16), so that
// every table index is in range whatever s is.
//
// A short CSI (fuseShortCSI) is one step of steps until shortCSITries
// ESCs in a row begin none, and then for the rest of the call its bytes
// are table steps as others'.
//
//go:noescape
func steps(t *scanTable, q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (stop int, state uint32, count int)

// stepsPair says that stepsBlock writes the second slot of every step, as
// the assembly does with the first in one 16-byte store (its reference
// here), so that only a step of three records (stepsRare: infoThree) or a
// special one branches: on random bytes, where a step writes one record
// or two in no order the predictor learns, that branch was 168K of the
// 390K mispredicts a MiB (BENCHMARKS.md, uni11 and uni12).
const stepsPair = true

// stepsRare is the step that stepsBlock branches on besides a special one.
const stepsRare = infoThree

// stepsKeep is, for each byte b, twice the mask that keeps a record as it
// is but for a final byte 0xFF, which becomes b (emission): the AND that
// stepsGo computes as Record(b)<<8 | ^Record(0xFF00), one 16-byte load in
// the assembly for the two records every step writes.
var stepsKeep = func() (m [256][2]Record) {
	for b := range m {
		m[b][0] = Record(b)<<8 | ^Record(0xFF00)
		m[b][1] = m[b][0]
	}
	return m
}()

// fillSteps fills t.next2 with twice t.next: the state in the assembly is
// a byte offset in next2, so that the chain from one state to the next is
// a load from base plus index with no scale and no displacement, which
// Zen 3 serves in 4 cycles instead of 5 (BENCHMARKS.md, asmsteps).
func (t *scanTable) fillSteps() {
	for k, s := range t.next {
		if s >= 1<<15 {
			panic("decode: a scan table row past 1<<15 does not fit next2")
		}
		t.next2[k] = 2 * s
	}
}

// shortCSITries is how many ESCs in a row steps tests in vain for a short
// CSI before it stops testing for the rest of the call: the branch would
// mispredict on input of other sequences (dense, random).
const shortCSITries = 4

// shortCSIAdd and shortCSIMask are the constants of the test of a short
// CSI in steps. In w, the eight bytes from the ESC, with y = w ^ 0x30..,
// a byte is a parameter byte 0x30–0x3B (at index 2 also a private marker
// 0x3C–0x3F) when y is below 0x0C (0x10): (y & 0x7F) + 0x74 (0x70) carries
// into the byte's top bit from there up, with no carry out of a byte, and
// y's own top bit is a byte of 0x80 or more. ((y & 0x7F..) + shortCSIAdd
// | y) & shortCSIMask has the top bit of each byte from index 2 on that is
// not one; the lowest is the final byte's, which csiRec tells.
const (
	shortCSIAdd  = ones*0x74 - 4<<16
	shortCSIMask = highs &^ 0xFFFF
)
