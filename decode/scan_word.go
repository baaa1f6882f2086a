package decode

import (
	"encoding/binary"
	"math/bits"
)

// Scan's word path: a short control sequence ESC [ P… F read as one
// word instead of one table step a byte, for the SGRs that coloured output
// puts between short texts (ESC [ 3 1 m, ESC [ m). The step of '[' after
// ESC in ground is special; at it, wordCSI reads the eight bytes from the
// '[' on and takes a sequence of parameter bytes 0x30–0x3B and one final
// byte 0x40–0x7E (ECMA-48 5.4) when all of it is in those eight bytes. What such a sequence
// writes and where it leaves Scan are read from the table, and
// buildScanTable enables the path only when the table steps every such
// sequence to one record and to ground (wordAgrees): the table stays the
// grammar's one source. Anything else (a longer sequence, one cut by the
// end of the bytes stepped, with an intermediate, a C0, DEL or a byte
// >= 0x80 inside, a private marker, malformed) takes the table's step
// for '[' and goes on a byte at a time.

// wordCSI returns the length in bytes, from a '[' to the final byte, of
// the control sequence that the word path takes in w, the eight bytes
// from the '[' on in little-endian order, and its final byte; or 0.
func wordCSI(w uint64) (int, byte) {
	t := w ^ ones*'0'
	// The bytes after the first that are not 0x30–0x3B (t >= 0x0C).
	end := ((t &^ highs) + ones*(0x80-0x0C) | t) & (highs &^ 0x80)
	m := bits.TrailingZeros64(end)>>3 + 1 // 9 when all of w is parameters
	if fb := byte(w >> (8*m - 8)); fb-0x40 < 0x3F {
		return m, fb
	}
	return 0, 0
}

// wordAgrees reports whether t steps every sequence ESC [ P… I… F read
// in ground (rows scanGround to scanText; P a parameter byte or a leading
// private marker, I an intermediate, F a final byte), a superset of those
// wordCSI takes, as the word path writes it: ESC leads to one row (intro)
// whatever the ground row, '[' from there and the bytes up to F write no
// record, and F writes the one record final (its final byte 0xFF, the
// byte stepped) and leads to ground, the same for every sequence. Every
// reachable pair of a row and a place in the sequence is tried with every
// byte allowed there, so the check covers sequences of any length.
func (t *scanTable) wordAgrees() (ok bool, intro uint32, final Record) {
	type node struct {
		row   uint32
		place uint8 // 0: after ESC [; 1: after a private marker or parameter; 2: after an intermediate
	}
	// step returns the table step of b from row s: the next row and the
	// step's info, and whether it consumes its byte and writes no record.
	step := func(s uint32, b byte) (uint32, uint16, bool) {
		k := s + uint32(t.class[b])
		f := t.info[k]
		quiet := f&infoCount == 0 && (f&infoSpecial == 0 || f&infoSkip != 0)
		return uint32(t.next[k]), f, quiet
	}
	seen := map[node]bool{}
	var todo []node
	intro = noRow
	for s := uint32(scanGround); s <= scanText; s += scanWidth {
		x, f, _ := step(s, 0x1B)
		if f&infoSpecial != 0 || intro != noRow && x != intro {
			return false, noRow, 0
		}
		intro = x
	}
	e, _, quiet := step(intro, '[')
	if !quiet {
		return false, noRow, 0
	}
	seen[node{e, 0}] = true
	todo = append(todo, node{e, 0})
	csiNext := uint32(noRow)
	for len(todo) > 0 {
		n := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for b := 0x20; b <= 0x7E; b++ {
			place := n.place
			switch {
			case b >= 0x40:
				next, f, _ := step(n.row, byte(b))
				em := t.emits[f>>infoEmitShift][0]
				if f&(infoSpecial|infoCount) != 1 || csiNext != noRow && (next != csiNext || em != final) {
					return false, noRow, 0
				}
				csiNext, final = next, em
				continue
			case b <= 0x2F:
				place = 2
			case place == 2 || b >= 0x3C && place != 0:
				continue // malformed: the table's
			default:
				place = 1
			}
			next, _, quiet := step(n.row, byte(b))
			if !quiet {
				return false, noRow, 0
			}
			if m := (node{next, place}); !seen[m] {
				seen[m] = true
				todo = append(todo, m)
			}
		}
	}
	if final.Kind() != KindCSI || final.Final() != 0xFF || csiNext != scanGround {
		return false, noRow, 0
	}
	return true, intro, final
}

// noRow is a row index no state has: the rows are multiples of
// scanWidth.
const noRow = 1<<16 - 1

// markWord makes the step of '[' after ESC in ground special, for Scan
// to try the word path at it, when the table agrees with the path
// (wordAgrees).
func (t *scanTable) markWord() {
	ok, intro, final := t.wordAgrees()
	if !ok {
		return
	}
	t.csiStep, t.csiFinal = intro+uint32(t.class['[']), final&^0xFF00 // the final byte is the sequence's
	t.csiDone = 0
	for t.next[t.csiDone] != scanGround {
		t.csiDone++
	}
	t.info[t.csiStep] |= infoSpecial
}

// load64 returns the eight bytes of q from j on in little-endian order,
// or 0 when q ends before.
func load64(q []byte, j int) uint64 {
	if j+8 > len(q) {
		return 0
	}
	return binary.LittleEndian.Uint64(q[j:])
}
