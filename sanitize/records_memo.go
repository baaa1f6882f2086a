package sanitize

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
)

// recallBytes applies the remembered effect of the token with record
// flags f (none, or FlagAborted) whose bytes are b when the memo holds it
// (recall); it reports whether it did.
func (c *cleaner) recallBytes(b []byte, f decode.Flags) bool {
	if len(b) > memoLen(f) {
		return false
	}
	m := c.find(wordOf(b).tagged(f, len(b)))
	return m != nil && c.recall(m)
}

// memoKind reports whether the memo may hold tokens of kind k: not text,
// invalid UTF-8 or C0 controls, whose effect is not the token's alone (a
// NUL's bytes are also the key of a free slot).
func memoKind(k decode.Kind) bool { return memoKinds>>k&1 != 0 }

// memoKinds has bit k set for each kind k that the memo may hold
// (memoKind).
const memoKinds = 1<<decode.KindDEL | 1<<decode.KindC1 | 1<<decode.KindESC | 1<<decode.KindNF |
	1<<decode.KindCSI | 1<<decode.KindOSC | 1<<decode.KindDCS | 1<<decode.KindAPC | 1<<decode.KindPM |
	1<<decode.KindSOS | 1<<decode.KindScreenTitle | 1<<decode.KindFormat

// memoLen returns the length in bytes of the longest token with record
// flags f (none, or FlagAborted) that the memo takes: maxMemo, and a byte
// less for an aborted one, whose key marks it in its last byte (tagged).
func memoLen(f decode.Flags) int { return maxMemo - int(f/decode.FlagAborted) }

// tagged returns the memo's key of a token of n bytes, at most
// memoLen(f), whose word is w and whose record flags are f (none, or
// FlagAborted): w, and for an aborted token w with 0xF0 plus n as its
// last byte, which ends no token of maxMemo bytes that is not aborted. The
// length is needed: an aborted string may end in NULs of its payload,
// which the zero padding of w would hide (x and x NUL NUL, one overlong,
// would share a key). It does not branch on f.
func (w memoWord) tagged(f decode.Flags, n int) memoWord {
	w.hi |= uint64(f/decode.FlagAborted) * (uint64(0xF0|n) << 56)
	return w
}

// find returns the memo's entry for the token whose key is w (tagged), or
// nil.
func (c *cleaner) find(w memoWord) *csiMemo {
	i, j := w.slots()
	m := &c.memo.entries[i]
	if m.word != w {
		if m = &c.memo.entries[j]; m.word != w {
			return nil
		}
	}
	return m
}

// recall applies the remembered effect of a token (csiMemo), unless it
// raises a class or an anomaly while findings are still listed; it
// reports whether it did.
func (c *cleaner) recall(m *csiMemo) bool {
	if m.loud && len(c.rep.Findings) < MaxFindings {
		return false
	}
	c.rep.apply(m, 1)
	m.used = true
	return true
}

// apply counts n more of the token m remembers.
func (r *report) apply(m *csiMemo, n int64) {
	r.byKind[m.kind] += n
	if m.count != nil {
		*m.count += n
	}
	for cl := m.cl; cl != 0; cl &= cl - 1 {
		r.classes[bits.TrailingZeros16(uint16(cl))] += n
		r.FindingsOmitted += n
	}
	for f := m.anomalies; f != 0; f &= f - 1 {
		r.anomalies[bits.TrailingZeros16(uint16(f))] += n
		r.FindingsOmitted += n
	}
}

// count counts one token of kind k with classes cl and anomalies f, as
// apply counts one the memo remembers, for a token counted without a
// memo entry (csi, oscMiss): the entry in memory costs them its stores.
func (r *report) count(k decode.Kind, cl ctlfunc.Class, f decode.Flags) {
	r.byKind[k]++
	for ; cl != 0; cl &= cl - 1 {
		r.classes[bits.TrailingZeros16(uint16(cl))]++
		r.FindingsOmitted++
	}
	for ; f != 0; f &= f - 1 {
		r.anomalies[bits.TrailingZeros16(uint16(f))]++
		r.FindingsOmitted++
	}
}

// slotFor returns the slot where the memo keeps the token whose key is w
// (tagged): of its two slots, the one that holds it already, else a free
// one, else one whose token has not been recalled since the memo last
// passed over it (a second chance: the pass clears the mark). When both
// were recalled it returns false, and the token is not kept: tokens seen
// once, as most are in random bytes, do not push out those that recur.
func (c *cleaner) slotFor(w memoWord) (uint8, bool) {
	i, j := w.slots()
	t := &c.memo
	a, b := &t.entries[i], &t.entries[j]
	switch {
	case a.word == w || a.word == memoWord{}:
		return i, true
	case b.word == w || b.word == memoWord{}:
		return j, true
	}
	switch {
	case !t.recalled(i):
		return i, true
	case !t.recalled(j):
		return j, true
	}
	a.used, b.used = false, false
	return 0, false
}

// recalled reports whether the token of slot i was recalled since slotFor
// last passed over it: marked, or with hits not yet applied (applying them
// marks it again, so a pass over a slot with hits clears nothing).
func (t *memoTable) recalled(i uint8) bool { return t.entries[i].used || t.quick[i].hits != 0 }

// keep stores m in slot i of the memo (slotFor), applying first the hits
// counted in bulk of the one it replaces.
func (c *cleaner) keep(i uint8, m csiMemo) {
	c.settleSlot(i)
	m.loud = m.cl != 0 || m.anomalies != 0
	t := &c.memo
	t.entries[i] = m
	t.quick[i].key = memoWord{}
	if !m.loud || t.loudQuiet {
		t.quick[i].key = m.word
	}
}

// quietLoud puts the keys of the memo's loud tokens in their quick
// slots (quickSlot), once findings are no longer listed: records calls it
// when they are full, and findings are never removed.
func (t *memoTable) quietLoud() {
	t.loudQuiet = true
	for i := range t.entries {
		t.quick[i].key = t.entries[i].word
	}
}

// settleHits applies the hits that quickRecords counted in bulk
// (quickSlot.hits).
func (c *cleaner) settleHits() {
	for i := range c.memo.quick {
		c.settleSlot(uint8(i))
	}
}

// settleSlot applies the hits counted in bulk of memo slot i, and marks
// its token recalled if it had any.
func (c *cleaner) settleSlot(i uint8) {
	if c.memo.quick[i].hits != 0 {
		c.settle(i)
	}
}

// settle is settleSlot for a slot with hits.
func (c *cleaner) settle(i uint8) {
	t := &c.memo
	m := &t.entries[i]
	c.rep.apply(m, t.quick[i].hits)
	t.quick[i].hits, m.used = 0, true
}

// remember keeps in the memo the effect of t, a token of at most maxMemo
// bytes b that token has just handled, when its bytes and record flags
// alone decide it (csiMemo): an escape, a control string but OSC 8 (a
// link), a C1 control or DEL, without record flags or aborted (but none
// whose record is whole: wholeTable learns those from counted, which a
// memo hit would never reach), an OSC once its number counts where the
// next will (report.oscCounter); and,
// under FormatStrip, a bidi control (removed, counted in Removed.Format,
// its class Reorder), which format handles alike whatever is before or
// after it while the format policy holds nothing.
func (c *cleaner) remember(t *decode.Token, b []byte) {
	f := t.Flags & recordFlags
	if f&^decode.FlagAborted != 0 || decode.RecordOf(t).Whole() {
		return
	}
	var count *int64
	switch t.Kind {
	case decode.KindESC, decode.KindNF, decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS,
		decode.KindScreenTitle, decode.KindC1, decode.KindDEL:
	case decode.KindOSC:
		if count = c.rep.oscCounter(t.Command); t.Command == 8 || count == nil {
			return
		}
	case decode.KindFormat:
		if !decode.IsBidiControl(t.Rune) || c.opts.FormatChars != FormatStrip {
			return
		}
		count = &c.rep.Removed.Format
	default:
		return
	}
	if len(b) <= memoLen(f) {
		c.offer(b, csiMemo{kind: t.Kind, cl: Advisories(t), anomalies: t.Flags & ctlfunc.AnomalyFlags, count: count}, f)
	}
}

// offer keeps in the memo m, the effect of a token of at most memoLen(f)
// bytes b with record flags f (none, or FlagAborted), under its key, when
// slotFor gives it a slot.
func (c *cleaner) offer(b []byte, m csiMemo, f decode.Flags) {
	m.word = wordOf(b).tagged(f, len(b))
	if i, ok := c.slotFor(m.word); ok {
		c.keep(i, m)
	}
}

// recordFlags are the token flags a decode.Record keeps.
const recordFlags = decode.FlagMalformed | decode.FlagAborted | decode.FlagUnterminated | decode.FlagEmbedded

// rememberCSI keeps in the memo the effect of t, a CSI without flags of
// at most maxMemo bytes b that sequence has just counted, when its bytes
// alone decide it, as csi does for a record: at most one intermediate,
// its key counted where the next will be (report.csiCounter), and its
// classes those of its key (ctlfunc.CSIClasses) whatever its parameters,
// or, for SGR, those of a parameter list without conceal.
func (c *cleaner) rememberCSI(t *decode.Token, b []byte) {
	var inter byte
	switch t.NInter {
	case 0:
	case 1:
		inter = t.Inter[0]
	default:
		return
	}
	count := c.rep.csiCounter(csiKey{t.Private, inter, 0, t.Final}, t.NInter)
	if count == nil {
		return
	}
	cl, varies, conceal := ctlfunc.CSIClasses(t.Private, inter, t.Final)
	if varies && (!conceal || Advisories(t) != cl) {
		return
	}
	w := wordOf(b)
	if i, ok := c.slotFor(w); ok {
		c.keep(i, csiMemo{word: w, kind: decode.KindCSI, cl: cl, count: count})
	}
}

// csiMemo remembers the effect of a token of at most maxMemo bytes whose
// effect its bytes and its record flags (none, or FlagAborted) alone
// decide: a CSI that csi or (on the token path) rememberCSI counted, or a
// token that remember took. word is its key (tagged); the effect
// is one more of its kind, one more on count (where its CSI key or OSC
// number counts; nil for none), and its classes cl and anomalies, which
// are only counted once findings are no longer listed (a finding names
// the token): loud is set when it raises either. used marks a token
// recalled since slotFor last passed over it. Its last byte is not 0 (a
// final byte, a terminator, a control, a byte of the parameters) unless
// it is aborted, so its bytes, zero-padded, say its length too; an
// aborted token's key holds its length (tagged).
type csiMemo struct {
	word      memoWord
	kind      decode.Kind
	cl        ctlfunc.Class
	anomalies decode.Flags
	count     *int64
	loud      bool
	used      bool
}

// memoTable is the memo: 1<<memoBits slots of csiMemo (entries), and for
// each what quickRecords reads (quick).
type memoTable struct {
	entries   [1 << memoBits]csiMemo
	quick     [1 << memoBits]quickSlot
	loudQuiet bool // findings are no longer listed: the loud tokens' keys are in quick too
}

// quickSlot is a memo slot as quickRecords reads it: the key of the
// slot's token when a recall of it raises nothing that a finding would
// name (not loud), or once findings are no longer listed
// (memoTable.loudQuiet), else the zero word, which no token's key is (a
// token's first byte is not NUL); and the recalls it counted and has not
// applied yet (hits: counting them in bulk spares each recall the
// increments of three counters that every recall of the same kind
// shares; settleHits applies them when the policy ends a piece of input,
// and keep before a slot is reused). A recall is then two compares and
// one increment in one 32-byte slot, without the entry or its flags.
type quickSlot struct {
	key  memoWord
	hits int64
	_    int64 // 32 bytes: the index scales by a shift
}

// maxMemo is the longest sequence the memo takes, in bytes: SGRs of
// 256 colours ("ESC [ 38;5;208m") fit.
const maxMemo = 16

// memoWord is up to maxMemo bytes, little-endian, padded with zeros: lo
// the first eight, hi the rest. A struct rather than an array, so that
// the compiler keeps it in registers (an array of two is kept in memory,
// and its two 8-byte stores then read back as one 16-byte load stall).
type memoWord struct{ lo, hi uint64 }

// wordOf returns b, one to maxMemo bytes, as a memoWord.
func wordOf(b []byte) memoWord {
	if cap(b) < maxMemo {
		var w [maxMemo]byte
		copy(w[:], b)
		return memoWord{binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])}
	}
	return wideWord(b)
}

// wideWord is wordOf for b with a capacity of maxMemo bytes or more: the
// bytes past b up to maxMemo are loaded and masked off.
func wideWord(b []byte) memoWord { return wordAt(b[:maxMemo], 0, len(b)) }

// wordAt returns the n bytes of p at s, zero to maxMemo of them, as a
// memoWord, where p holds maxMemo bytes from s: those past n are loaded
// and masked off.
func wordAt(p []byte, s, n int) memoWord {
	a := (*[maxMemo]byte)(p[s : s+maxMemo])
	m := &wordMasks[n]
	return memoWord{binary.LittleEndian.Uint64(a[:8]) & m.lo, binary.LittleEndian.Uint64(a[8:]) & m.hi}
}

// wordMasks[n] masks the first n bytes of a memoWord, for n up to
// maxMemo. Indexed by n itself, not modulo a power of two: quickRecords
// has tested n against maxMemo, so its index needs no check and no mask
// (BENCHMARKS.md, pol13); the other callers' lengths are checked.
var wordMasks = func() (t [maxMemo + 1]memoWord) {
	for n := range maxMemo + 1 {
		t[n] = memoWord{^uint64(0) >> (8 * (8 - min(n, 8))), ^uint64(0) >> (8 * (16 - n))} // a shift by 64 or more gives 0
	}
	return t
}()

// slots returns the two slots in cleaner.memo where the sequence whose
// bytes are w may be (keep): two sequences that share one rarely share
// the other, so that a few sequences in turn do not keep replacing each
// other.
func (w memoWord) slots() (uint8, uint8) {
	h := (w.lo + w.hi) * memoHash
	return uint8(h >> (64 - memoBits)), uint8(h>>(64-2*memoBits)) & (1<<memoBits - 1)
}

// memoHash is the multiplier of the hash of slots (2^64 over the golden
// ratio).
const memoHash = 0x9E3779B97F4A7C15

// memoBits is log2 of the number of csiMemo slots.
const memoBits = 7

// wholeTable counts, by final byte, the whole records (decode.Record.Whole:
// a C1 control or DEL without flags, an ESC F, an aborted ESC) that
// quickRecords takes without their bytes, and what one of each counts in
// the report. A whole record's final byte tells its token's kind, final
// and flags (80–9F C1, 7F DEL, 30–7E ESC F, 0 an aborted ESC), and so all
// that counted does with it: one more of its kind, its classes, its
// anomalies (FlagAborted), none of them named by a finding once counted
// learned it (counted takes a token that raises one only once findings
// are full, and findings are never removed). On weighted random bytes such
// tokens are about 118,000 of the 361,000 records a MiB (35,500 9C, 55,600
// ESC F, 21,600 aborted ESCs), each of them a memo recall or miss
// otherwise (BENCHMARKS.md, fixed16).
type wholeTable struct {
	// hits[f] is math.MinInt64 plus the records of final byte f counted
	// and not yet applied once f is learned, and 0 before: one test of the
	// sign, no flag of its own. A zero table has learned nothing.
	hits [256]int64
	cl   [256]ctlfunc.Class // the classes of final byte f, once learned
	// learned lists the final bytes learned, n of them, for settleWhole.
	learned [256]uint8
	n       int
}

// learn makes the whole records of final byte f, whose token counted has
// just counted with classes cl, counted in the table from now on.
func (w *wholeTable) learn(f byte, cl ctlfunc.Class) {
	if w.hits[f] < 0 {
		return
	}
	w.hits[f], w.cl[f] = math.MinInt64, cl
	w.learned[w.n] = f
	w.n++
}

// settleWhole applies the whole records counted in bulk (wholeTable) to
// the report, as counted applies one.
func (c *cleaner) settleWhole() {
	w := c.whole
	for _, f := range w.learned[:w.n] {
		if n := w.hits[f] - math.MinInt64; n != 0 {
			m := csiMemo{kind: wholeKind(f), cl: w.cl[f]}
			if f == 0 {
				m.anomalies = decode.FlagAborted
			}
			c.rep.apply(&m, n)
			w.hits[f] = math.MinInt64
		}
	}
}

// wholeKind returns the kind of a whole record of final byte f.
func wholeKind(f byte) decode.Kind {
	switch {
	case f >= 0x80:
		return decode.KindC1
	case f == 0x7F:
		return decode.KindDEL
	}
	return decode.KindESC
}
