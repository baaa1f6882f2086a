package viewer

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"slices"

	"github.com/aymanbagabas/go-udiff/lcs"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// maxAlign is the longest stream, in bytes, that compare mode aligns
// with the other side token by token; past it, B follows A's offset and
// lines are compared by content only (diffSeek).
const maxAlign = 8 << 20

// alignUnit is one unit of the token alignment of two captures: a
// control token, or a line of a text token (up to and including its LF),
// so that a changed line or sequence is one unit and the rest of its
// line is not.
type alignUnit struct {
	off, end int64
	// class is what a changed unit pairs with on the other side: its
	// kind, and an OSC's command or a CSI's private marker and final byte.
	class uint32
	// line is set when the unit starts a line: at offset 0 or after an LF.
	line bool
}

// unitState says how a unit of one side relates to the other side.
type unitState uint8

const (
	unitSame    unitState = iota // the same bytes on the other side
	unitChanged                  // paired with other bytes of its class
	unitOnly                     // no counterpart: inserted or deleted
)

// alignSide is one side of an alignment.
type alignSide struct {
	units []alignUnit
	state []unitState
	// other is, for each unit, the index of its counterpart on the other
	// side; for a unitOnly unit the other side's unit at the place where
	// it would be (len(units) of the other side at its end).
	other []int32
	n     int64 // the stream's length in bytes
}

// diffPlace is where a difference starts, on both sides: byte offsets of
// A and of B, and which side's unit it is (the other offset is where
// that unit's counterpart is, or would be).
type diffPlace struct {
	off  [2]int64
	side int
	unit int
}

// alignment pairs the token streams of two captures, A (side 0) and B
// (side 1): a diff of their units (go-udiff's lcs, Myers' algorithm),
// the units of each differing stretch paired in order with the other
// side's units of their class, so that a changed OSC 8 target or SGR
// colour is a changed pair, not a deletion and an insertion.
type alignment struct {
	sides  [2]alignSide
	places []diffPlace // by A offset, then B offset
	stream int         // the index of A's stream in the capture
}

// alignMsg delivers the alignment a background command made.
type alignMsg struct {
	al  *alignment
	err error
}

// alignCmd returns the command that aligns stream a (stream index id)
// with b, each decoded from its start under its policy.
func alignCmd(id int, a, b *streamView, oa, ob sanitize.Options) tea.Cmd {
	return func() tea.Msg {
		da, err := a.src.read(0, a.src.n)
		if err != nil {
			return alignMsg{err: err}
		}
		db, err := b.src.read(0, b.src.n)
		if err != nil {
			return alignMsg{err: err}
		}
		al := align(da, db, decoderFor(oa), decoderFor(ob))
		al.stream = id
		return alignMsg{al: al}
	}
}

// alignSeed hashes units: one seed, so both sides hash alike.
var alignSeed = maphash.MakeSeed()

// align aligns the token streams of a and b.
func align(a, b []byte, da, db decode.Decoder) *alignment {
	ids := map[uint64]rune{}
	var al alignment
	var seq [2][]rune
	for k, p := range [2][]byte{a, b} {
		s := &al.sides[k]
		s.n = int64(len(p))
		s.units, seq[k] = tokenUnits(p, []decode.Decoder{da, db}[k], ids)
		s.state = make([]unitState, len(s.units))
		s.other = make([]int32, len(s.units))
	}
	A, B := &al.sides[0], &al.sides[1]
	pa, pb := 0, 0         // the next units of A and B not yet aligned
	same := func(to int) { // A's units [pa, to) equal B's from pb on
		for ; pa < to; pa, pb = pa+1, pb+1 {
			A.other[pa], B.other[pb] = int32(pb), int32(pa)
		}
	}
	for _, d := range diffUnits(seq[0], seq[1], len(ids)) {
		same(d.Start)
		al.pair(d.Start, d.End, d.ReplStart, d.ReplEnd)
		pa, pb = d.End, d.ReplEnd
	}
	same(len(A.units))
	al.findPlaces()
	return &al
}

// diffUnits returns the differing stretches of the unit sequences a and
// b, whose IDs are below n. lcs bounds its search, and on long sequences
// with many repeated units (an SGR reset, a line end) it can return
// edits far from the fewest; so the sequences are first cut at anchors,
// units that occur once on each side (patience diff, as git diff
// --patience does), the longest chain of them in the same order on both
// sides, and lcs diffs the stretches between.
func diffUnits(a, b []rune, n int) []lcs.Diff {
	var count [2][]int32
	pos := make([]int32, n) // an ID's position in a
	for k, seq := range [2][]rune{a, b} {
		count[k] = make([]int32, n)
		for i, id := range seq {
			count[k][id]++
			if k == 0 {
				pos[id] = int32(i)
			}
		}
	}
	var anchors [][2]int32 // in b's order: positions in a and in b
	for j, id := range b {
		if count[0][id] == 1 && count[1][id] == 1 {
			anchors = append(anchors, [2]int32{pos[id], int32(j)})
		}
	}
	var out []lcs.Diff
	ia, ib := 0, 0
	for _, c := range append(increasingChain(anchors), [2]int32{int32(len(a)), int32(len(b))}) {
		ea, eb := int(c[0]), int(c[1])
		switch {
		case slices.Equal(a[ia:ea], b[ib:eb]): // most stretches: no lcs to set up
		case ia == ea || ib == eb:
			out = append(out, lcs.Diff{Start: ia, End: ea, ReplStart: ib, ReplEnd: eb})
		default:
			for _, d := range lcs.DiffRunes(a[ia:ea], b[ib:eb]) {
				out = append(out, lcs.Diff{Start: ia + d.Start, End: ia + d.End, ReplStart: ib + d.ReplStart, ReplEnd: ib + d.ReplEnd})
			}
		}
		ia, ib = ea+1, eb+1
	}
	return out
}

// increasingChain returns the longest subsequence of pairs whose first
// elements increase (the second ones already do), by patience sorting.
func increasingChain(pairs [][2]int32) [][2]int32 {
	var tops []int // tops[k]: the index in pairs that ends the best chain of length k+1
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k, _ := slices.BinarySearchFunc(tops, p[0], func(t int, v int32) int { return cmp.Compare(pairs[t][0], v) })
		prev[i] = -1
		if k > 0 {
			prev[i] = tops[k-1]
		}
		if k == len(tops) {
			tops = append(tops, i)
		} else {
			tops[k] = i
		}
	}
	chain := make([][2]int32, len(tops))
	for k, i := len(tops)-1, -1; k >= 0; k-- {
		if i < 0 {
			i = tops[k]
		}
		chain[k] = pairs[i]
		i = prev[i]
	}
	return chain
}

// tokenUnits splits p, decoded from d, into units, and returns them with
// each unit's ID: equal bytes, equal ID, IDs shared through ids.
func tokenUnits(p []byte, d decode.Decoder, ids map[uint64]rune) ([]alignUnit, []rune) {
	var units []alignUnit
	var seq []rune
	add := func(off, end int64, class uint32) {
		h := maphash.Bytes(alignSeed, p[off:end])
		id, ok := ids[h]
		if !ok {
			id = rune(len(ids))
			ids[h] = id
		}
		units = append(units, alignUnit{off: off, end: end, class: class, line: off == 0 || p[off-1] == '\n'})
		seq = append(seq, id)
	}
	text := unitClass(&decode.Token{Kind: decode.KindText})
	open := int64(-1) // the start of a line of text not yet added
	for t := range d.Tokens(p) {
		switch {
		case t.Flags&decode.FlagEmbedded != 0:
			continue // inside a sequence that is a unit of its own
		case t.Kind == decode.KindC0 && t.Final == '\r' && t.End() < int64(len(p)) && p[t.End()] == '\n':
			// The CR of a CRLF ends its line with the LF: a line's end
			// is one unit, not a CR that could pair with any other.
			if open < 0 {
				open = t.Off
			}
			continue
		case t.Kind != decode.KindText:
			if open >= 0 {
				add(open, t.Off, text)
				open = -1
			}
			add(t.Off, t.End(), unitClass(&t))
			continue
		}
		if open < 0 {
			open = t.Off
		}
		for from := t.Off; ; {
			i := bytes.IndexByte(p[from:t.End()], '\n')
			if i < 0 {
				break
			}
			from += int64(i) + 1
			add(open, from, text)
			open = from
		}
		if open == t.End() {
			open = -1
		}
	}
	if open >= 0 {
		add(open, int64(len(p)), text)
	}
	return units, seq
}

// unitClass returns what a token pairs with when it changed: its kind,
// and an OSC's command or a CSI's private marker and final byte.
func unitClass(t *decode.Token) uint32 {
	c := uint32(t.Kind) << 24
	switch t.Kind {
	case decode.KindOSC:
		c |= uint32(uint16(t.Command))
	case decode.KindCSI:
		c |= uint32(t.Private)<<8 | uint32(t.Final)
	case decode.KindC0, decode.KindC1, decode.KindESC:
		c |= uint32(t.Final)
	}
	return c
}

// pair pairs a differing stretch, A's units [as, ae) and B's [bs, be):
// each A unit with the first B unit of its class not yet passed, in
// order; the units left over are only on their side.
func (al *alignment) pair(as, ae, bs, be int) {
	A, B := &al.sides[0], &al.sides[1]
	j := bs
	only := func(s *alignSide, i, at int) { s.state[i], s.other[i] = unitOnly, int32(at) }
	for i := as; i < ae; i++ {
		k := j
		for k < be && B.units[k].class != A.units[i].class {
			k++
		}
		if k == be {
			only(A, i, j)
			continue
		}
		for ; j < k; j++ {
			only(B, j, i)
		}
		A.state[i], B.state[k] = unitChanged, unitChanged
		A.other[i], B.other[k] = int32(k), int32(i)
		j = k + 1
	}
	for ; j < be; j++ {
		only(B, j, ae)
	}
}

// findPlaces lists where differences start: a differing unit of A, or a
// unit only B has, that starts a line or follows an equal unit.
func (al *alignment) findPlaces() {
	for k := range al.sides {
		s := &al.sides[k]
		for i, st := range s.state {
			if st == unitSame || k == 1 && st == unitChanged || i > 0 && s.state[i-1] != unitSame && !s.units[i].line {
				continue
			}
			p := diffPlace{side: k, unit: i}
			p.off[k], p.off[1-k] = s.units[i].off, al.otherOff(k, i, s.units[i].off)
			al.places = append(al.places, p)
		}
	}
	slices.SortFunc(al.places, func(x, y diffPlace) int { return cmpPair(x.off, y.off) })
}

// unitAt returns the index of side k's unit that holds byte off, or -1.
func (al *alignment) unitAt(k int, off int64) int {
	u := al.sides[k].units
	i, _ := slices.BinarySearchFunc(u, off, func(x alignUnit, off int64) int {
		switch {
		case x.end <= off:
			return -1
		case x.off > off:
			return 1
		}
		return 0
	})
	if i < len(u) && u[i].off <= off && off < u[i].end {
		return i
	}
	return -1
}

// otherOff returns the offset on the other side of side k's byte off, in
// unit i: the same byte of an equal unit, the byte as far in (or the
// last) of a changed one, and the place an inserted unit would be.
func (al *alignment) otherOff(k, i int, off int64) int64 {
	s, o := &al.sides[k], &al.sides[1-k]
	j := int(s.other[i])
	if j >= len(o.units) {
		return max(0, o.n-1)
	}
	ou := o.units[j]
	if s.state[i] == unitOnly {
		return ou.off
	}
	return ou.off + min(off-s.units[i].off, ou.end-ou.off-1)
}

// mapOff returns the offset on the other side of side k's byte off.
func (al *alignment) mapOff(k int, off int64) int64 {
	i := al.unitAt(k, off)
	if i < 0 {
		return max(0, min(off, al.sides[1-k].n-1))
	}
	return al.otherOff(k, i, off)
}

// differs reports whether side k's bytes [s, e) hold a unit that differs
// from the other side.
func (al *alignment) differs(k int, s, e int64) bool {
	side := &al.sides[k]
	i := max(0, al.unitAt(k, s))
	for ; i < len(side.units) && side.units[i].off < e; i++ {
		if side.state[i] != unitSame && side.units[i].end > s {
			return true
		}
	}
	return false
}

// next returns the first place after (dir +1) or the last before (dir
// -1) the position (a, b), ordered by A's offset, then B's.
func (al *alignment) next(a, b int64, dir int) (diffPlace, bool) {
	after := func(p diffPlace) bool { return p.off[0] > a || p.off[0] == a && p.off[1] > b }
	i, _ := slices.BinarySearchFunc(al.places, true, func(p diffPlace, _ bool) int {
		if after(p) || p.off == [2]int64{a, b} {
			return 1
		}
		return -1
	})
	// al.places[:i] are before (a, b); from i on at or after it.
	if dir > 0 {
		for ; i < len(al.places); i++ {
			if after(al.places[i]) {
				return al.places[i], true
			}
		}
		return diffPlace{}, false
	}
	if i > 0 {
		return al.places[i-1], true
	}
	return diffPlace{}, false
}
