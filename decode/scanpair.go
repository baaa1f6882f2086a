package decode

import "encoding/binary"

// The minimisation of Scan's table and the table of byte pairs composed
// from it.
//
// On escape-dense input Scan's time is the chain of table loads from one
// state to the next, one per byte. The pair table steps two bytes per
// load: for the rows that bytes below 0x80 reach from ground (the pair
// rows: the 7-bit machine), a byte pair's column (pairCol of the two
// bytes' pair classes) gives the state after both bytes and both steps'
// records. A pair with a byte 0x80–0xFF, a step that is special (a skip,
// an abort that reads its byte again) and a row that is not a pair row
// step one byte at a time, as before.

// pairWidth is the width of a row of scanTable.pairNext and pairInfo: at
// least the number of pair columns, a power of two, pairShift bits more
// than scanWidth.
const (
	pairWidth = 256
	pairShift = 2
)

// Scan steps pairs while its pair loop is left less than once per
// pairBytes bytes (measured over pairStretch bytes); otherwise it steps
// bytes alone for pairRest stretches: on random bytes the loop is left
// every few bytes at an unpredictable branch.
const (
	pairBytes   = 16
	pairStretch = 256
	pairRest    = 16
)

// pairInfo bits: the pair steps one byte at a time (bit 0); the number of
// records of the first step (bit 1, at most 1) and of both (bits 2–3, at
// most 2); the index of their records in pairPlans (bits 4–15).
const (
	pairSpecial   = 1
	pairPlanShift = 4
)

// pairClasses is the room for pair classes: the byte classes below 0x80,
// and one for the other bytes (pairCol is indexed by two of them, five
// bits each).
const pairClasses = 32

// minimise merges the rows of t that no input tells apart (Moore's
// partition refinement: rows start apart by the records their steps
// write, what End and the end of a call write and which bytes they skip,
// and split while their next rows are apart), over the first width
// columns of its rows rows, and renumbers them: rows 0 to scanRun stay
// (Scan tells them by number), then come the other rows that bytes below
// 0x80 reach from them, breadth first, then the rest. It returns the
// number of rows and how many are reached by bytes below 0x80.
func (t *scanTable) minimise(rows, width int) (n, pairRows int) {
	block := make([]int32, rows)
	ids := map[string]int32{}
	key := make([]byte, 0, 16+4*width)
	group := func() int32 {
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(ids))
			ids[string(key)] = id
		}
		return id
	}
	for r := range rows {
		key = append(key[:0], 0, 0)
		if r <= scanRun {
			key[0], key[1] = 1, byte(r)
		}
		key = binary.LittleEndian.AppendUint32(key, t.end[r])
		key = binary.LittleEndian.AppendUint32(key, t.flush[r]&^entryNext)
		key = append(key, t.skip[r])
		for c := range width {
			key = binary.LittleEndian.AppendUint16(key, t.info[r*scanWidth+c])
		}
		block[r] = group()
	}
	for n = len(ids); ; n = len(ids) {
		clear(ids)
		split := make([]int32, rows)
		for r := range rows {
			key = binary.LittleEndian.AppendUint32(key[:0], uint32(block[r]))
			key = binary.LittleEndian.AppendUint32(key, uint32(block[t.flush[r]&entryNext/scanWidth]))
			for c := range width {
				key = binary.LittleEndian.AppendUint32(key, uint32(block[t.next[r*scanWidth+c]/scanWidth]))
			}
			split[r] = group()
		}
		block = split
		if len(ids) == n {
			break
		}
	}
	// The new row of each block, and the first row of each.
	row := make([]int32, n)
	first := make([]int32, n)
	for b := range row {
		row[b], first[b] = -1, -1
	}
	for r := rows - 1; r >= 0; r-- {
		first[block[r]] = int32(r)
	}
	var ascii []uint8 // the classes of the bytes below 0x80
	seen := [scanWidth]bool{}
	for b := range 0x80 {
		if c := t.class[b]; !seen[c] {
			seen[c] = true
			ascii = append(ascii, c)
		}
	}
	order := make([]int32, 0, n)
	take := func(b int32) {
		if row[b] < 0 {
			row[b] = int32(len(order))
			order = append(order, b)
		}
	}
	for r := range scanRun + 1 {
		take(block[r])
	}
	for k := 0; k < len(order); k++ {
		r := int(first[order[k]])
		for _, c := range ascii {
			take(block[t.next[r*scanWidth+int(c)]/scanWidth])
		}
	}
	pairRows = len(order)
	for r := range rows {
		take(block[r])
	}
	// The table in the new order.
	next, info := t.next, t.info
	end, flush, skip := t.end, t.flush, t.skip
	t.next, t.info = [len(t.next)]uint16{}, [len(t.info)]uint16{}
	t.end, t.flush, t.skip = make([]uint32, n), make([]uint32, n), make([]uint8, n)
	renumber := func(s uint32) uint32 { return uint32(row[block[s/scanWidth]]) * scanWidth }
	for nr, b := range order {
		r := int(first[b])
		for c := range width {
			t.next[nr*scanWidth+c] = uint16(renumber(uint32(next[r*scanWidth+c])))
			t.info[nr*scanWidth+c] = info[r*scanWidth+c]
		}
		t.end[nr], t.skip[nr] = end[r], skip[r]
		t.flush[nr] = flush[r]&^entryNext | renumber(flush[r]&entryNext)
	}
	return n, pairRows
}

// buildPairs composes the pair table of t's first pairRows rows, whose
// one-byte steps are set: the pair classes (those of the bytes below
// 0x80, and one for the others), and for each row and pair of classes the
// row after both steps and both steps' infos. Column 0 is the pair whose
// step is special in every row: pairs with a byte 0x80–0xFF, and those of
// a row where either step is special or ends outside the pair rows.
func (t *scanTable) buildPairs(pairRows int) {
	var pairOf [scanWidth]uint8 // one-byte class → pair class + 1
	var classOf []uint8         // pair class → one-byte class
	for b := range 0x80 {
		if c := t.class[b]; pairOf[c] == 0 {
			classOf = append(classOf, c)
			pairOf[c] = uint8(len(classOf))
		}
	}
	other := uint8(len(classOf))
	if other >= pairClasses || pairRows*pairWidth > len(t.pair) {
		panic("decode: scan pair table overflow")
	}
	for b := range 256 {
		c := other
		if b < 0x80 {
			c = pairOf[t.class[b]] - 1
		}
		t.pairFirst[b], t.pairSecond[b] = uint16(c)*pairClasses, uint16(c)
	}
	for r := range pairRows {
		t.pair[r*pairWidth] = pairSpecial
	}
	plans := map[[2]Record]uint16{}
	key := make([]byte, 0, 4*pairRows)
	for range pairRows {
		key = binary.LittleEndian.AppendUint16(key, 0)
		key = binary.LittleEndian.AppendUint16(key, pairSpecial)
	}
	cols := map[string]int{string(key): 0}
	var colNext, colInfo []uint16 // of a column: the next pair row and the info of each row
	for p0, c0 := range classOf {
		for p1, c1 := range classOf {
			key, colNext, colInfo = key[:0], colNext[:0], colInfo[:0]
			for r := range pairRows {
				k := r*scanWidth + int(c0)
				f0, mid := t.info[k], int(t.next[k])
				f1, end := t.info[mid+int(c1)], int(t.next[mid+int(c1)])
				e, f := uint16(0), uint16(pairSpecial)
				if (f0|f1)&(infoSpecial|infoMany) == 0 && f0&infoCount+f1&infoCount < 2 && end < pairRows*scanWidth {
					// The one record, if any: the first step's, or the
					// second's one byte later with final byte b1 (bit 3).
					plan := [2]Record{t.emits[f0>>infoEmitShift][0]}
					if f1&infoCount != 0 {
						plan[0] = t.emits[f1>>infoEmitShift][0] + 1<<24
						f0 |= 8
					}
					x, ok := plans[plan]
					if !ok {
						x = uint16(len(plans))
						if int(x) >= len(t.pairPlans) {
							panic("decode: scan pair table overflow")
						}
						plans[plan] = x
						t.pairPlans[x] = plan
					}
					e = uint16(end << pairShift)
					f = x<<pairPlanShift | (f0&infoCount+f1&infoCount)<<2 | f0&8
				}
				colNext, colInfo = append(colNext, e), append(colInfo, f)
				key = binary.LittleEndian.AppendUint16(key, e)
				key = binary.LittleEndian.AppendUint16(key, f)
			}
			col, ok := cols[string(key)]
			if !ok {
				col = len(cols)
				if col >= pairWidth {
					panic("decode: scan pair table overflow")
				}
				cols[string(key)] = col
				for r := range pairRows {
					t.pair[r*pairWidth+col] = uint32(colNext[r])<<16 | uint32(colInfo[r])
				}
			}
			t.pairCol[p0*pairClasses+p1] = uint8(col)
		}
	}
	t.pairRows = uint32(pairRows * scanWidth)
}

// pairs steps q from i in state s, a pair row, two bytes at a time while
// both are below 0x80 and neither step is special or writes more than one
// record, writing records into recs from n, at the offset of q[i] in the
// stream (at, as a record's end); it returns the same after the last
// pair. recs has room for two records a pair.
func (t *scanTable) pairs(q []byte, i int, s uint32, recs []Record, n int, at Record) (int, uint32, int, Record) {
	pair, first, second, col, plans := &t.pair, &t.pairFirst, &t.pairSecond, &t.pairCol, &t.pairPlans
	ps := uint32(uint16(s << pairShift)) // s < pairRows
	for ; i+1 < len(q); i += 2 {
		b0, b1 := q[i], q[i+1]
		e := pair[ps+uint32(col[first[b0]|second[b1]])] // ps + a column < len(pair)
		f := uint16(e)
		if f&pairSpecial != 0 {
			break
		}
		// The one record, its final byte b0 or (bit 3) b1.
		w := Record(b0)<<8 | Record(b1)<<16
		recs[n] = (plans[f>>pairPlanShift][0] + at) & (w>>(f&8) | ^Record(0xFF00))
		n += int(f >> 2 & 1)
		at += 2 << 24
		ps = e >> 16
	}
	return i, ps >> pairShift, n, at
}
