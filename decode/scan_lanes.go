package decode

// Scan's lanes: two stretches of the input stepped in one loop, so that
// their chains of table loads overlap.
//
// A step of Scan's table loop waits for the step before it: the next
// state is a load indexed by the state, about five cycles here, and one
// lane of steps cannot go faster than that chain. Two independent chains
// can. A block of laneSpan bytes is cut in two:
//
//	lane A: bytes [0, laneSteps)                       from the true state
//	lane B: bytes [laneSteps-laneWarm, laneSpan)       from ground, a guess
//	                  └ warm-up ┘└ its part ┘
//
// and both lanes take one step each per iteration. Lane B starts laneWarm
// bytes before its part, in ground: most states are left within a few
// bytes (an ESC, a final byte, a control), so that by the split point m =
// laneSteps lane B is usually in the state lane A reaches there. Whether
// it is, is known when lane A reaches m, and that is all that needs
// checking: what Scan's table loop does from a byte on (the records it
// writes, their offsets, the states it goes through) depends only on the
// table state at that byte and the bytes from there. A table state (a row
// of scanTable) holds everything the loop carries from byte to byte: the
// state of the grammar and the token in progress as far as records
// depend on it, whether a text run is open and how long it is (rows 1 to
// scanRun), how many stays a state of bulkStates has counted. So if lane
// A's state at m equals lane B's, lane B's records from m on are exactly
// the ones Scan would write, and they are kept; if not, they are dropped
// and the next block starts at m from lane A's state.
//
// Everything else Scan carries is outside the lanes: the UTF-8 unit cut
// by the end of p (Scan's prologue, before any lane), the room for records
// (a block is only started with room for the most it can write) and the
// offsets (each lane's records are offsets relative to the block). A step
// that needs more than the table, an entry of infoSpecial (a UTF-8 lead
// byte decoded by decodeUTF8, a skip, an abort that reads its byte again)
// or one that writes more than one record (infoMany), is not taken in a
// lane: the block stops before it and Scan's one-lane loop takes it.
// Lane B's steps in its warm-up are a guess anyway, so that there they
// are taken whatever they are, their records dropped.

const (
	// laneSteps is how many steps each lane takes in a block.
	laneSteps = 64
	// laneWarm is how many of lane B's steps are its warm-up, before its
	// part: more than the longest token of dense escapes (11 bytes).
	laneWarm = 16
	// laneSpan is the number of bytes a block covers: lane A's part and
	// lane B's.
	laneSpan = 2*laneSteps - laneWarm
	// laneRoom is the room for records a block needs: at most one a step
	// in each lane (two or three stop it), lane B's written from
	// laneSteps on, and ScanRecords for Scan after the block.
	laneRoom = 2*laneSteps + ScanRecords
	// laneExit are the scanInfo bits of a step a lane does not take.
	laneExit = infoSpecial | infoMany
)

// scanOneLane turns the lanes off, for the tests that hold the lanes to
// Scan's one-lane loop.
var scanOneLane = false

// lanes steps p from byte i, in table state s, writing records into recs
// from n on, in blocks of laneSpan bytes while a block fits in p and in
// recs; off is the stream offset of p. It returns where it stopped, the
// table state there and the record count: at the first step in either
// lane that a lane does not take (laneExit), or where fewer than laneSpan
// bytes or laneRoom records are left.
func (t *scanTable) lanes(p []byte, i int, s uint32, recs []Record, n int, off int64) (int, uint32, int) {
	for len(p)-i >= laneSpan && len(recs)-n >= laneRoom {
		q := (*[laneSpan]byte)(p[i:])
		r := (*[2 * laneSteps]Record)(recs[n:])
		at := Record(off+int64(i)) << 24 // the offset of q[0], as in a record
		// Lane B's warm-up, its records dropped.
		j, sa, sb, na, nb := t.laneLoop(q, r, 0, laneWarm, s, scanGround, 0, 0, at, 0)
		if j == laneWarm {
			guess := sb // lane B's state at the split point
			j, sa, sb, na, nb = t.laneLoop(q, r, laneWarm, laneSteps, sa, guess, na, 0, at, laneExit)
			if j == laneSteps && sa == guess {
				// Lane B was right: its records follow lane A's, their
				// offsets moved from lane A's bytes, with which the loop
				// wrote them, to its own.
				const shift = Record(laneSteps-laneWarm) << 24
				for k, x := range r[laneSteps : laneSteps+nb] {
					r[na+k] = x + shift
				}
				s, i, n = sb, i+laneSpan, n+na+nb
				continue
			}
		}
		// Lane A's records only, up to where it stopped.
		s, i, n = sa, i+j, n+na
		if j < laneSteps {
			break
		}
	}
	return i, s, n
}

// laneLoop takes steps j to end of both lanes of the block q, lane A's of
// bytes q[j] in state sa, lane B's of q[j+laneSteps-laneWarm] in state sb,
// lane A's records written from r[na] on, lane B's from r[nb] on, both
// with lane A's offsets (at is the offset of q[0] as in a record). It
// stops before the first step whose scanInfo has a bit of laneExit in
// either lane, and returns the step it stopped at and both lanes' states
// and record counts there.
func (t *scanTable) laneLoop(q *[laneSpan]byte, r *[2 * laneSteps]Record, j, end int, sa, sb uint32, na, nb int, at Record, bExit uint32) (int, uint32, uint32, int, int) {
	at += Record(j) << 24
	for ; j < end && j < laneSteps; j++ {
		x, y := q[j], q[j+laneSteps-laneWarm]
		k, l := sa+uint32(t.class[x]), sb+uint32(t.class[y])
		f, g := uint32(t.info[k]), uint32(t.info[l])
		if (f&laneExit | g&bExit) != 0 {
			break
		}
		// As in Scan's loop: one record slot written a step, a final
		// byte 0xFF standing for the byte stepped. The masks keep the
		// index in r, as na < laneSteps <= nb < 2*laneSteps (a step
		// writes at most one record).
		r[na&(len(r)-1)] = (t.emits[f>>infoEmitShift][0] + at) & (Record(x)<<8 | ^Record(0xFF00))
		r[laneSteps+nb&(laneSteps-1)] = (t.emits[g>>infoEmitShift][0] + at) & (Record(y)<<8 | ^Record(0xFF00))
		na += int(f & infoCount)
		nb += int(g & infoCount)
		sa, sb = uint32(t.next[k]), uint32(t.next[l])
		at += 1 << 24
	}
	return j, sa, sb, na, nb
}
