package sanitize

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
)

// The policy over records. Unless a mode needs the decoder's tokens one by
// one (line emulation under CROverwrite and BSOverstrike, and the offset
// map of Map, whose points are where Feed's tokens begin), the cleaner
// drives its decoder with decode.Decoder.Scan, a batch of compact records
// at a time, over the pieces of input where that is faster than Feed
// (choosePath), and runs the policy over each batch:
//
//   - fast paths that need no Token: runs of the commonest records in one
//     loop without calls (quickRecords: text copied, invalid UTF-8 written
//     as U+FFFD, and from there runs of such records, of C0, C1 and DEL
//     that are only counted, without a branch on the kind: simpleRun;
//     a CR or a C0 that is only removed counted, BS counted once
//     findings are full, a short token seen before counted in the memo's
//     quick slot for its bytes and record flags: memoTable,
//     records_memo.go, and after a recall a run of short text and
//     recalls in assembly: recallRun; a whole record, a C1, DEL, ESC F
//     or aborted ESC once counted has learned its final byte, counted by
//     that byte alone: wholeTable; where a run of CRs stops it,
//     settleBefore settles
//     the run and it goes on, and an OSC 8 close that stops it while no
//     link is open is counted by closeCounted), and a CSI counted
//     by its key and classified by the catalogue (csi: ctlfunc.CSIClasses,
//     its parameter bytes read only for SGR conceal);
//   - VT and FF written as an LF by record itself (moveDown, as c0
//     writes them); single controls, format characters, escapes and
//     control strings whose Token the record and its bytes give (single: a string's
//     payload read for its 9C bytes, its prefix and OSC number) are
//     counted as the memo counts a recall when that is all token would do
//     (counted), an OSC 8 as token would but for the catalogue lookup
//     (linked), and go through token otherwise, as does every record
//     while the format policy holds something;
//   - the rest (malformed CSIs, CSIs whose parameters select a variant,
//     overflow a Token or raise a finding, strings left open at the end
//     of the stream) is decoded again from its bytes by a second Decoder
//     restarted where the token begins (rebuild), whose tokens go through
//     token.
//
// A token of at most maxMemo bytes that the memo misses is counted in
// quickRecords' loop when that is all record would do (countMiss; the
// commonest OSCs from their bytes, without a Token: oscMiss); one
// that stops quickRecords and is one the memo would take (a CSI, escape
// or control string, C1 or DEL) is run by missed at once, as record would
// run it, and quickRecords goes on after it (quickMisses), without a turn
// of records' loop. A token the memo missed is offered to it one time in
// sixteen (offered).
//
// A token begun in an earlier Write is read from the history (keepHistory)
// joined with the chunk (span); one too long for the history has its
// bytes fed to the second Decoder at the end of each Write (holdOpen).
// TestRecordPathMatchesTokens and FuzzRecordPath hold the record path to
// the token path: the same text, report and InGround after every Write.

// batchRecords is the length of the cleaner's batch of records
// (cleaner.recs): Scan writes up to one record less, and the record after
// the last one written is stopRecord, which ends quickRecords' loop. It is
// a power of two: an index into the batch masked by batchRecords-1 needs
// no bounds check.
const batchRecords = 1024

// stopRecord is a record of no kind (0xFF) with every flag set, not
// whole, which none of quickRecords' cases takes.
const stopRecord = decode.Record(0x7F00FF)

// pathChoice says how the cleaner drives its decoder.
type pathChoice uint8

const (
	pathAuto    pathChoice = iota // by the piece of input (choosePath)
	pathTokens                    // Feed throughout
	pathRecords                   // Scan throughout, where the mode allows
)

// The record path is chosen for pieces of at least minScanPiece bytes
// that hold an ESC in every scanDensity bytes or more (escDense), or whose
// first controlSample bytes hold a C0 control other than TAB, LF and CR,
// or DEL, as often (random bytes, with few ESCs and a token every few
// bytes): measured (BENCHMARKS.md), Scan and the policy over records are
// faster than Feed and the policy over tokens where sequences are dense
// (escape-dense input, coloured git, grep and build output), and slower
// on text, on long strings and CSIs (Scan steps them byte by byte where
// Feed skips them in bulk) and per call on short Writes. A Write is cut
// into pieces of pieceLen bytes, each decided by itself.
const (
	pieceLen      = 16 << 10
	minScanPiece  = 512
	scanDensity   = 64
	controlSample = 256
	escSamples    = 4   // windows escDense counts in a long piece
	escSample     = 512 // bytes in each
)

// choosePath decides how the piece of input p is decoded: the path stays
// while a token is open (a Decoder is driven by Feed or by Scan, which
// agree only between tokens), and the state both paths keep of where the
// last token ended moves with a change.
func (c *cleaner) choosePath(p []byte) {
	scan := false
	switch {
	case c.lineMode || c.mapEach || c.path == pathTokens:
	case c.path == pathRecords:
		scan = true
	default:
		scan = len(p) >= minScanPiece && (escDense(p) || controls(p[:controlSample])*scanDensity >= controlSample)
	}
	if scan == c.scanning || !c.inGround() {
		return
	}
	if scan {
		c.next, c.shFrom = c.dec.Offset(), math.MaxInt64
		if c.recs == nil {
			c.recs, c.whole = new([batchRecords]decode.Record), new(wholeTable)
		}
	}
	c.scanning = scan
}

// escDense reports whether p holds an ESC in every scanDensity bytes or
// more, as far as a sample shows: all of p when it is at most escSamples
// windows long, else escSamples windows of escSample bytes spread evenly
// over it, the first at its start and the last at its end (counting a
// whole piece of text was 3% of the time on plain text).
func escDense(p []byte) bool {
	esc := []byte{0x1B}
	if len(p) <= escSamples*escSample {
		return bytes.Count(p, esc)*scanDensity >= len(p)
	}
	n, step := 0, (len(p)-escSample)/(escSamples-1)
	for k := range escSamples {
		n += bytes.Count(p[k*step:][:escSample], esc)
	}
	return n*scanDensity >= escSamples*escSample
}

// controls counts the bytes of p that are C0 controls other than TAB, LF
// and CR, or DEL, eight at a time: per byte, below 0x20 (the byte's low
// seven bits plus 0x60 carry into its top bit from 0x20 up, and its own
// top bit is clear) or equal to one of the four (a byte that is zero
// after the XOR, whose low seven bits plus 0x7F do not carry); no carry
// crosses a byte.
func controls(p []byte) int {
	const lo7, top = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	zero := func(x uint64) uint64 { return ^((x&lo7 + lo7) | x) & top }
	n := 0
	for ; len(p) >= 8; p = p[8:] {
		x := binary.LittleEndian.Uint64(p)
		c0 := ^((x&lo7 + 0x6060606060606060) | x) & top
		ok := zero(x^0x0909090909090909) | zero(x^0x0A0A0A0A0A0A0A0A) | zero(x^0x0D0D0D0D0D0D0D0D)
		n += bits.OnesCount64(c0&^ok | zero(x^lo7))
	}
	for _, b := range p {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7F {
			n++
		}
	}
	return n
}

// scanFeed cleans p, a piece of the chunk, with Scan.
func (c *cleaner) scanFeed(p []byte) {
	for len(p) > 0 {
		k, n := c.dec.Scan(p, c.recs[:batchRecords-1])
		p = p[k:]
		c.records(n)
	}
	c.settleHits()
	c.settleWhole()
}

// scanEnd ends the stream for the record path.
func (c *cleaner) scanEnd() {
	c.records(c.dec.ScanEnd(c.recs[:batchRecords-1]))
	c.settleHits()
	c.settleWhole()
}

// records runs the policy over the batch of the first n records of
// c.recs: runs of the commonest records go through quickRecords, and the
// tokens among them that the memo missed through missed (quickMisses),
// while the format policy holds nothing and text needs only copying
// (which only record can change); the rest goes through record, one at a
// time.
func (c *cleaner) records(n int) {
	c.recs[n] = stopRecord
	if !c.memo.loudQuiet && len(c.rep.Findings) >= MaxFindings {
		c.memo.quietLoud()
	}
	recs := c.recs
	for i := 0; i < n; i++ {
		quick := c.plainText && !c.fmt.pending()
		if quick {
			if i = int(c.quickMisses(uint(i))); i == n {
				break
			}
			if c.crRun != 0 && c.settleBefore(recs[i]) {
				i-- // quickRecords takes it now
				continue
			}
		}
		r := recs[i]
		end := r.EndNear(c.base)
		start := c.next
		if r.Flags()&decode.FlagEmbedded != 0 {
			start = end - 1
		} else {
			c.next = end
		}
		// quickRecords looked the record up in the memo, or it is one
		// the memo does not take, unless it begins before the chunk.
		c.record(r, start, end, quick && start >= c.base)
	}
	// The history kept at the end of the chunk (keepHistory) begins
	// where the token still open begins.
	c.at = c.next
	if recallRunAsm {
		c.runs.batch()
	}
}

// recallGate decides, once a batch, whether quickRecords calls recallRun
// after a recall: not for a while after a batch whose calls took fewer
// than recallPays records each on average (on dense and random input, where a
// recall is most often followed by a record that ends the run at once, a
// call costs more than the Go loop's own turn, BENCHMARKS.md, run16):
// one batch, and twice as many after each such batch in a row, up to
// 1<<recallBackoff, to see whether the input has changed.
type recallGate struct {
	score   int16 // the records the calls of this batch took, less recallPays a call
	wait    uint8 // the batches left without calls
	backoff uint8 // log2 of the batches without calls after the next batch that does not pay
}

// recallPays is the number of records a call of recallRun must take to
// save what the call costs, and recallBackoff log2 of the most batches
// the gate stays closed.
const (
	recallPays    = 3
	recallBackoff = 7
)

// batch counts a batch: one of the batches to wait, or one whose calls did
// not pay (the gate closes), or did.
func (g *recallGate) batch() {
	switch {
	case g.wait > 0:
		g.wait--
	case g.score < 0:
		g.wait = 1 << g.backoff
		g.backoff = min(g.backoff+1, recallBackoff)
	default:
		g.backoff = 0
	}
	g.score = 0
}

// settleBefore settles the run of CRs that stopped quickRecords at the
// record r, text (embedded or not) in the chunk or invalid UTF-8, before
// the first byte r writes, as literal and emitString would (settleCR:
// CRBeforeLF, or CROverwrites with its finding and, under CRLines, an LF
// written; the record path runs neither line emulation nor an offset
// map), and reports whether it did.
func (c *cleaner) settleBefore(r decode.Record) bool {
	var next byte
	switch uint32(r) & kindFlags {
	case uint32(decode.KindText):
		if c.next < c.base {
			return false // it completes a character cut by the Write before
		}
		next = c.chunk[c.next-c.base]
	case uint32(decode.KindText) | embedded:
		next = c.chunk[r.EndNear(c.base)-1-c.base]
	case uint32(decode.KindInvalid):
		next = replacement[0]
	default:
		return false
	}
	c.settleCR(int(next))
	return true
}

// quickMisses is quickRecords, and missed at each record that stops it,
// for as long as missed takes them; it returns the index of the first
// record that neither took. missed leaves the conditions of quickRecords
// holding: of the tokens it takes, none changes what the format policy
// holds or whether text needs only copying (missKinds).
func (c *cleaner) quickMisses(i uint) uint {
	for {
		i = c.quickRecords(i)
		if !c.missed(c.recs[i%batchRecords]) {
			return i
		}
		i++
	}
}

// quickRecords runs the policy over the records of the batch from the
// i-th for as long as each is one that record would handle without a
// Token and without writing anything but text, and returns the index of
// the first it did not take (stopRecord ends the batch): text in the
// chunk of at most maxWide bytes copied, invalid UTF-8 written as U+FFFD,
// a CR or a C0 that is only removed counted (also embedded in a
// sequence), and a token whose key is in the memo's quick slots
// (memoTable.quick: remembered, without flags or aborted, and raising
// nothing that a finding would name while findings are listed), counted
// in its slot, or, of those it misses, one that is only counted
// (countMiss); a whole record (decode.Record.Whole) whose final byte
// wholeTable has learned, counted there, without its bytes. A run of CRs before text, an embedded LF or TAB or U+FFFD
// is settled here when that only counts (quickCR: before an LF, or once
// findings are full), and stops it otherwise (records settles the run,
// settleBefore, and calls it again). The format policy holds nothing and
// text needs only copying, as the caller checked; nothing here changes
// either.
//
// The loop makes no call and holds few values, so that the output and
// the chunk stay in registers: the batch is read through a pointer held
// in the loop, nil-checked once, offsets are 32 bits from where the loop
// begins, and the record after a text, most often an SGR, is taken in
// the same turn. A record that would need a call (the output to grow, a
// run of CRs that quickCR cannot settle) is left to its caller. Measured (BENCHMARKS.md, sgrpol): about 40 instructions a
// text and 45 a recall. After a CSI recalled from its first slot, while
// no run of CRs waits and the gate lets it (recallGate), the run of text
// and recalls that follows goes to recallRun, about 27 instructions a
// record where the loop takes about 47 on git log --stat (BENCHMARKS.md,
// run16), the loop's index and offsets passed and returned, as to
// countMiss.
func (c *cleaner) quickRecords(i uint) uint {
	s0 := c.next - c.base // where the next token that is not embedded begins in the chunk
	if s0 < 0 || int64(len(c.chunk))-s0 > math.MaxInt32 {
		return i // a token begun in the Write before, or offsets past 31 bits
	}
	// Offsets from s0 in the chunk (s) and from the end of the output (o)
	// are uint32: an index that is one needs no check that it and 16 do
	// not overflow. s is below 1<<31, and o exceeds s by at most two bytes
	// a record (U+FFFD for one byte, an embedded byte before the bytes of
	// its sequence). The chunk's capacity is its length: one bounds check
	// for both.
	chunk := c.chunk[s0:len(c.chunk):len(c.chunk)]
	buf := c.out[len(c.out):cap(c.out)]
	recs := c.recs
	_ = recs[0] // its nil check, once
	c.next32 = uint32(c.next)
	var s, o uint32
loop:
	for ; ; i++ {
		r := recs[i%batchRecords]
		e := uint32(r>>24) - c.next32
		kf := uint32(r) & kindFlags
		if kf == uint32(decode.KindText) {
			if c.crRun != 0 {
				// Settled, the run's LF (if any) is written whether or
				// not the text is copied here.
				if int(o) >= len(buf) || int(s) >= len(chunk) {
					break
				}
				lf, ok := c.quickCR(chunk[s])
				if !ok {
					break
				}
				buf[o] = '\n'
				o += lf
			}
			if int(o)+16 > len(buf) || int(s)+16 > len(chunk) {
				break
			}
			copy16(buf, int(o), chunk, int(s))
			n := e - s
			if n > 16 {
				// The first word was written past the end of the output
				// in any case.
				if n > maxWide || int(o)+int(n)+15 > len(buf) || int(s)+int(n)+15 > len(chunk) {
					break
				}
				for k := 16; k < int(n); k += 16 {
					copy16(buf, int(o)+k, chunk, int(s)+k)
				}
			}
			o += n
			s = e
			c.fmt.prevEnd = c.next + int64(e)
			// The record after text is most often a sequence: it is
			// taken in the same turn.
			i++
			r = recs[i%batchRecords]
			e = uint32(r>>24) - c.next32
			kf = uint32(r) & kindFlags
		}
		if k := kf &^ aborted; k == uint32(decode.KindCSI) || k < 32 && memoKinds>>k&1 != 0 { // a whole record's k is past 31
			// A token that begins in the chunk begins after the latest
			// frame boundary (Writer.Frame marks one between Writes).
			n := e - s
			if n > maxMemo || int(s)+maxMemo > len(chunk) {
				break
			}
			w := wordAt(chunk, int(s), int(n))
			if kf != k {
				if n == maxMemo {
					break
				}
				w = w.tagged(decode.FlagAborted, int(n))
			}
			k, j := w.slots()
			if q := &c.memo.quick; q[k].key == w {
				q[k].hits++
				if recallRunAsm && c.crRun == 0 && c.runs.wait == 0 {
					// What follows a recall is most often text and
					// another recall.
					j, s1, o1, t := recallRun(recs, i+1, c.next32, chunk, buf, e, o, q)
					c.runs.score += int16(j-i-1) - recallPays
					i, s, o = j-1, s1, o1
					if t != 0 {
						c.fmt.prevEnd = c.next + int64(t)
					}
					continue
				}
			} else if q[j].key == w {
				q[j].hits++
			} else {
				var ok bool
				if i, s, o, e, ok = c.countMiss(chunk, i, s, o, e); !ok {
					break
				}
			}
			s = e
			continue
		}
		if c.crRun == 0 && kf == uint32(decode.KindInvalid) {
			// A run of simple records, one well-predicted test each.
			// The record is read again after the call, so that no value
			// of the loop lives across it (countMiss).
			j, s1, o1, t, counts := simpleRun(recs, i, uint32(c.next), chunk, buf, s, o)
			if j != i {
				i, s, o = j-1, s1, o1
				if t != 0 {
					c.fmt.prevEnd = c.next + int64(t)
				}
				c.rep.byKind[decode.KindInvalid] += int64(counts >> laneInvalid & laneMask)
				c.rep.byKind[decode.KindC1] += int64(counts >> laneC1 & laneMask)
				c.rep.byKind[decode.KindDEL] += int64(counts >> laneDEL & laneMask)
				c.rep.Removed.C0 += int64(counts >> laneC0 & laneMask)
				continue
			}
			i, s, o = j, s1, o1
			r = recs[i%batchRecords]
			e = uint32(r>>24) - c.next32
			kf = uint32(r) & kindFlags
		}
		switch kf {
		case uint32(decode.KindText) | embedded:
			// An LF or TAB inside a sequence, the byte before its end.
			if c.crRun != 0 {
				if int(o) >= len(buf) || int(e) > len(chunk) || e == 0 {
					break loop
				}
				lf, ok := c.quickCR(chunk[e-1])
				if !ok {
					break loop
				}
				buf[o] = '\n'
				o += lf
			}
			if int(o)+16 > len(buf) || int(e)+15 > len(chunk) {
				break loop
			}
			copy16(buf, int(o), chunk, int(e)-1)
			o++
			c.fmt.prevEnd = c.next + int64(e)
		case uint32(decode.KindInvalid):
			if c.crRun != 0 {
				if int(o) >= len(buf) {
					break loop
				}
				lf, ok := c.quickCR(replacement[0])
				if !ok {
					break loop
				}
				buf[o] = '\n'
				o += lf
			}
			if int(o)+len(replacement) > len(buf) {
				break loop
			}
			*(*[len(replacement)]byte)(buf[o : int(o)+len(replacement)]) = replacement
			o += uint32(len(replacement))
			c.rep.byKind[decode.KindInvalid]++
			s = e
		case uint32(decode.KindC0), uint32(decode.KindC0) | embedded:
			if !c.quickC0(recs[i%batchRecords].Final(), int(c.next-c.base)+int(e)) { // read again: the loop does not keep r (pol13)
				break loop
			}
			if kf == uint32(decode.KindC0) {
				s = e
			}
		case whole | uint32(decode.KindC1), whole | uint32(decode.KindESC), whole | uint32(decode.KindESC) | aborted, whole | uint32(decode.KindDEL):
			// Counted by its final byte once learned (wholeTable), else
			// left to missed, through which counted learns it. Here,
			// not in the memo's branch: a test there costs every CSI
			// (git log --stat +0.5% instructions, BENCHMARKS.md fixed16).
			h := &c.whole.hits[recs[i%batchRecords].Final()] // read again: the loop does not keep r
			if *h >= 0 {
				break loop
			}
			*h++
			s = e
		default:
			break loop // stopRecord among them
		}
	}
	if c.fmt.prevEnd > c.next {
		// Text was copied: its last character is read back when needed
		// (an earlier token's ended at c.next or before).
		c.fmt.prevRune = -1
	}
	c.next, c.out = c.next+int64(s), c.out[:len(c.out)+int(o)]
	return i
}

// quickCR settles the run of CRs waiting on next, the first byte of
// output that a record in quickRecords writes, when settleCR would make no
// call for it: next is an LF (CRBeforeLF), or findings are full (the
// finding of CROverwrites is omitted). It reports whether it did, and the
// bytes to write before next: 1 for the LF that CRLines writes after
// CROverwrites, else 0. It leaves crFate, which only SettleCR reads (on
// the token path), as it is.
func (c *cleaner) quickCR(next byte) (uint32, bool) {
	if next == '\n' {
		c.crRun = 0
		return 0, true
	}
	if len(c.rep.Findings) < MaxFindings {
		return 0, false
	}
	c.crRun = 0
	c.rep.Flags.Overwrite++
	c.rep.FindingsOmitted++
	if c.opts.CR == CRLines {
		return 1, true
	}
	return 0, true
}

// kindFlags masks a record's kind and flags (bits 0–7 and 16–23);
// embedded and aborted are its FlagEmbedded and FlagAborted there, whole
// its decode.RecordWhole.
const (
	kindFlags = 0xFF00FF
	embedded  = uint32(decode.FlagEmbedded) << 16
	aborted   = uint32(decode.FlagAborted) << 16
	whole     = decode.RecordWhole
)

// quickC0 counts the C0 control code whose record ends at e in the chunk (the
// byte before e: in a sequence, embedded, or one that is not) when the
// record path only removes it, and reports whether it did: a CR (one more
// in the run waiting on what follows), a BS once findings are full (BSDrop:
// the record path has no BSOverstrike; c0 flags it), any other but VT and
// FF.
func (c *cleaner) quickC0(code byte, e int) bool {
	rep := &c.rep
	switch code {
	case '\r':
		rep.Removed.CR++
		if c.crRun == 0 {
			c.crOff = c.base + int64(e) - 1
		}
		c.crRun++
	case '\b':
		if len(rep.Findings) < MaxFindings {
			return false
		}
		rep.Removed.BS++
		rep.Flags.Overwrite++
		rep.FindingsOmitted++
	case 0x0B, 0x0C:
		return false
	default:
		rep.Removed.C0++
	}
	return true
}

// simpleRunGo is quickRecords' step for simple records (simpleRun), taken
// from the i-th record of recs (quickRecords calls it at invalid UTF-8,
// where no run of CRs waits) for as long as each is one: text of at most
// 16 bytes, copied; invalid UTF-8, written as U+FFFD; a C0 control that is
// only removed, a C1 control or DEL that raises no class, counted
// (simpleClassOf); each without flags, and with 16 bytes of room at s in
// chunk and at o in buf. A record is told simple by one table look-up,
// its class (simpleTables.class) by its kind and code; the 16 bytes at s
// are then written at o, kept or replaced by U+FFFD by its step's mask,
// the counters bumped by its step, and the output advanced by the text's
// length or the step's, with no branch on the kind. The offsets s and o,
// and a record's end less next (the low 32 bits of the stream offset of
// chunk[0]), count from where quickRecords began. It returns the index of
// the first record it did not take, s and o after the last it did, where
// the last text ended (0 for none) and the records it counted, a lane
// each (laneInvalid…). Measured (BENCHMARKS.md, rand10): on uniform
// random bytes, whose records are these in random order, the mispredicted
// branches of quickRecords' dispatch cost more than the instructions this
// adds.
func simpleRunGo(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32) (j uint, s1, o1, t uint32, counts uint64) {
	oLim, sLim := len(buf)-15, len(chunk)-15
	_ = recs[0] // its nil check, once
	for ; int(o) < oLim && int(s) < sLim; i++ {
		r := recs[i%batchRecords]
		x := uint32(r)
		e := uint32(r>>24) - next
		n := e - s
		c := simpleTables.class[x&simpleIndex] % simpleClasses
		if x&simpleBad != 0 || n-1 >= 16 || c == 0 {
			break
		}
		st := &simpleTables.step[c]
		src, dst := (*[16]byte)(chunk[int(s):int(s)+16]), (*[16]byte)(buf[int(o):int(o)+16])
		binary.LittleEndian.PutUint64(dst[:8], binary.LittleEndian.Uint64(src[:8])&st.keep[0]|simpleFFFD&^st.keep[0])
		binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(src[8:])&st.keep[1])
		counts += st.count
		w := uint32(st.count >> laneOut)
		if c == simpleText {
			w, t = n, e
		}
		o += w
		s = e
	}
	return i, s, o, t, counts
}

// recallRunGo is quickRecords' loop over a run of short text and recalled
// short CSIs (recallRun), taken from the i-th record of recs, after a CSI
// recalled from its first quick slot, for as long as each record is one:
// text without flags of at most maxWide bytes, copied as quickRecords
// copies it;
// a CSI without flags of 1 to recallMax bytes whose key (its bytes, one
// word) is the key of its first quick slot, counted there; each with 16
// bytes of room at s in chunk and at o in buf. No run of CRs waits (the
// caller checked: the text after one settles it, quickCR), and a CR, a
// record of its own, ends the run. The
// offsets s and o, and a record's end less next, count from where
// quickRecords began. It returns the index of the first record it did
// not take, s and o after the last it did, and where the last text ended
// (0 for none). On coloured git and grep output, where text of a few
// bytes and an SGR alternate and the SGRs are few, the run goes on for
// tens of records (BENCHMARKS.md, run16).
func recallRunGo(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32, quick *[1 << memoBits]quickSlot) (j uint, s1, o1, t uint32) {
	oLim, sLim := len(buf)-15, len(chunk)-15
	_ = recs[0] // its nil check, once
loop:
	for ; int(o) < oLim && int(s) < sLim; i++ {
		r := recs[i%batchRecords]
		e := uint32(r>>24) - next
		n := e - s
		switch uint32(r) & kindFlags {
		case uint32(decode.KindText):
			if n > 16 && (n > maxWide || int(o)+int(n) > oLim || int(s)+int(n) > sLim) {
				break loop
			}
			for k := 0; ; {
				copy16(buf, int(o)+k, chunk, int(s)+k)
				if k += 16; k >= int(n) {
					break
				}
			}
			o += n
			t = e
		case recallCSI:
			if n-1 >= recallMax {
				break loop
			}
			w := wordAt(chunk, int(s), int(n))
			k, _ := w.slots()
			if quick[k].key != w {
				break loop
			}
			quick[k].hits++
		default:
			break loop
		}
		s = e
	}
	return i, s, o, t
}

// recallCSI is the kind and flags of a CSI that recallRun takes, and
// recallMax the most bytes it has: a one-word key.
const (
	recallCSI = uint32(decode.KindCSI)
	recallMax = 8
)

// simpleTable is simpleRun's table: the class of a record (class, by
// its bits of simpleIndex) and how a record of each class is written
// (step, by class), in one table that the assembly reads from one
// register.
type simpleTable struct {
	step  [simpleClasses]simpleStep
	class [simpleIndex + 1]uint8
}

// simpleStep is how simpleRun writes a record of one class: the 16 bytes
// at the record's start kept by keep, U+FFFD where it keeps none
// (simpleFFFD, in the first three bytes), the counters bumped by count
// (laneInvalid…), and the output advanced by the record's length for text,
// else by count's top byte (laneOut).
type simpleStep struct {
	keep  [2]uint64
	count uint64
	_     uint64 // 32 bytes: the class scales by a shift
}

// The classes of simpleStep: none taken, text copied, invalid UTF-8
// written as U+FFFD, a C0 control, a C1 control and DEL counted.
const (
	simpleNone = iota
	simpleText
	simpleInvalid
	simpleC0
	simpleC1
	simpleDEL
	simpleClasses = 8 // a power of two
)

// simpleFFFD is U+FFFD's UTF-8 (replacement) as the low bytes of a
// little-endian word.
const simpleFFFD = uint64(0xEF) | 0xBF<<8 | 0xBD<<16

// The lanes of simpleRun's counters, by the bit each begins at: invalid
// UTF-8 (Report's count of the kind), C0 controls removed (Removed.C0),
// C1 and DEL (their kinds' counts), laneBits each: a run takes at most
// batchRecords records, so no lane carries into the next. laneOut is the
// top byte of a step's count, the bytes a record other than text writes:
// it adds into nothing that is read.
const (
	laneInvalid = laneBits * iota
	laneC0
	laneC1
	laneDEL
	laneBits = 12
	laneOut  = 56
	laneMask = 1<<laneBits - 1
)

// simpleTables is simpleRun's table.
var simpleTables = simpleTable{
	step: [simpleClasses]simpleStep{
		simpleText:    {keep: [2]uint64{^uint64(0), ^uint64(0)}},
		simpleInvalid: {count: 1<<laneInvalid | uint64(len(replacement))<<laneOut},
		simpleC0:      {count: 1 << laneC0},
		simpleC1:      {count: 1 << laneC1},
		simpleDEL:     {count: 1 << laneDEL},
	},
	class: simpleClassOf(),
}

// simpleClassOf returns the table of the class of a record (simpleStep)
// by its bits of simpleIndex, its kind's low four (bits 0–3) and its code's low five
// (bits 8–12), one AND from the record: text; invalid UTF-8; the C0
// controls that are only removed (all but CR, BS, VT and FF, which the
// record path does more with: quickC0, record); the C1 controls and DEL
// that raise no advisory class (token counts them by kind, and advise
// raises nothing), in either spelling; simpleNone for the rest, and for a
// kind past 15 or with flags (simpleBad), which simpleRun also declines.
func simpleClassOf() (t [simpleIndex + 1]uint8) {
	quiet := func(b []byte, k decode.Kind) bool {
		n, cl := 0, Advisory(0)
		for tok := range decode.Tokens(b) {
			if tok.Kind != k || tok.Flags != 0 {
				return false
			}
			n, cl = n+1, cl|Advisories(&tok)
		}
		return n == 1 && cl == 0
	}
	for code := range 32 {
		t[int(decode.KindText)|code<<8] = simpleText
		t[int(decode.KindInvalid)|code<<8] = simpleInvalid
		switch code {
		case '\r', '\b', 0x0B, 0x0C:
		default:
			t[int(decode.KindC0)|code<<8] = simpleC0
		}
		if c1 := byte(0x80 + code); quiet([]byte{c1}, decode.KindC1) && quiet([]byte{0xC2, c1}, decode.KindC1) {
			t[int(decode.KindC1)|code<<8] = simpleC1
		}
	}
	if quiet([]byte{0x7F}, decode.KindDEL) {
		t[int(decode.KindDEL)|0x7F%32<<8] = simpleDEL
	}
	return t
}

// simpleIndex masks the bits of a record that index simpleTables.class.
const simpleIndex = 0x1F0F

// simpleBad masks the bits of a record (its low 32) that keep it from
// simpleRun: a kind past 15 (stopRecord's), and any flag (not
// decode.RecordWhole, which is no flag).
const simpleBad = 0x7F00F0

// maxWide is the longest text quickRecords copies, in 16-byte words
// (copy16): the bytes of the last word past the text are written past the
// end of the output and left there. A longer one is copied by record, with
// memmove.
const maxWide = 256

// copy16 copies the 16 bytes of p at s to buf at o. Slicing with both
// bounds leaves no pointer to mask (as a slice that may be empty must not
// point past its array).
func copy16(buf []byte, o int, p []byte, s int) {
	*(*[16]byte)(buf[o : o+16]) = [16]byte(p[s : s+16])
}

// record runs the policy over the record r of the token [start, end);
// looked says that the memo does not hold it.
func (c *cleaner) record(r decode.Record, start, end int64, looked bool) {
	var b []byte
	if start >= c.base { // most: span's first case, without the call
		b = c.chunk[start-c.base : end-c.base]
	} else {
		b = c.span(start, end)
	}
	if b == nil || r.Flags()&decode.FlagMalformed != 0 {
		c.rebuild(start, end)
		return
	}
	if !c.fmt.pending() {
		switch r.Kind() {
		case decode.KindText:
			if c.plainText {
				c.fmt.prevEnd, c.fmt.prevRune = end, -1
				if start < c.base { // it completes a character cut by the Write before
					c.fmt.prevRune, _ = utf8.DecodeLastRune(b)
				}
				c.literal(b, nil)
				return
			}
		case decode.KindInvalid:
			if c.plainText {
				c.rep.byKind[decode.KindInvalid]++
				c.emitString(replacement[:])
				return
			}
		case decode.KindC0:
			if code := r.Final(); code == 0x0B || code == 0x0C { // all that c0 does with one
				c.at = end
				c.moveDown()
				return
			}
		}
		if !looked && memoKind(r.Kind()) && r.Flags()&^decode.FlagAborted == 0 && c.frame <= start && c.recallBytes(b, r.Flags()) {
			return
		}
		if r.Kind() == decode.KindCSI {
			if c.frame > start || !c.csi(b, r.Final(), r.Flags(), start) {
				c.rebuild(start, end)
			}
			return
		}
	}
	c.tokenRecord(r, b, start, end)
}

// tokenRecord runs the policy over the record r of the token [start, end),
// whose bytes are b, when it is not text, invalid UTF-8 or a VT or FF
// that record writes, nor a CSI that csi counts, and the memo does not
// hold it: the token that single gives is counted (counted, linked) or
// goes through token, and is offered to the memo; one that single does
// not give is decoded again (rebuild).
func (c *cleaner) tokenRecord(r decode.Record, b []byte, start, end int64) {
	t := c.single(r, b, start)
	if t == nil {
		c.rebuild(start, end)
		return
	}
	if !c.counted(t) && !c.linked(t) {
		c.token(t)
	}
	if offered(start) {
		c.remember(t, b)
	}
}

// missed runs the policy over r, the record that stopped quickRecords,
// when it is of a kind in missKinds, without flags or aborted, and begins
// in the chunk (so after the latest frame), as record would with the memo
// looked up: an OSC 8 close that closeCounted counts, a CSI that csi
// counts or rebuild decodes again, another token through tokenRecord. It
// reports whether it took r (c.next is then past it).
func (c *cleaner) missed(r decode.Record) bool {
	k := uint32(r) & kindFlags &^ (aborted | whole)
	if k >= 32 || missKinds>>k&1 == 0 || c.next < c.base {
		return false
	}
	start, end := c.next, r.EndNear(c.base)
	// Only an OSC without flags of a close's length can be one.
	if uint32(r)&kindFlags == uint32(decode.KindOSC) && uint64(end-start-closeLen) <= 1 && c.closeCounted(r) {
		return true
	}
	c.next = end
	b := c.chunk[start-c.base : end-c.base]
	if k != uint32(decode.KindCSI) {
		c.tokenRecord(r, b, start, end)
	} else if !c.csi(b, r.Final(), r.Flags(), start) {
		c.rebuild(start, end)
	}
	return true
}

// countMiss runs the policy over the i-th record of the batch, of a kind
// the memo takes, without flags or aborted, from s to e in chunk (stream
// offset c.next+s),
// that quickRecords did not find in the memo, when that is only counting
// it, and reports whether it did (else nothing was counted): a CSI that
// csi counts, an OSC that oscMiss counts, or a token of missKinds that
// single gives and counted counts, offered to the memo as record offers
// it. It writes nothing and
// leaves c.next as it is: quickRecords calls it in its loop, which holds
// both. It takes the loop's index i and offsets s, o and e and returns
// them as they are, and is not inlined, so that none of the loop's values
// lives across a call there: Go keeps no register across a call, and the
// spills of a value that did would be placed on the path of every memo
// hit (measured, BENCHMARKS.md wrand11: dense +1.5%). It reads the record
// from the batch, as the loop's C0 case does, so that the loop keeps only
// the record's end and kind past its head (pol13).
//
//go:noinline
func (c *cleaner) countMiss(chunk []byte, i uint, s, o, e uint32) (uint, uint32, uint32, uint32, bool) {
	r := c.recs[i%batchRecords]
	b, start := chunk[s:e], c.next+int64(s) // the bytes past e in its capacity, as record's (controlString reads a word)
	k := r.Kind()
	if k == decode.KindCSI {
		return i, s, o, e, c.csi(b, r.Final(), r.Flags(), start)
	}
	if k == decode.KindOSC {
		if res := c.oscMiss(b, r.Flags(), start); res != oscOther {
			return i, s, o, e, res == oscCounted
		}
	}
	if missKinds>>k&1 == 0 {
		return i, s, o, e, false
	}
	t := c.single(r, b, start)
	if t == nil || !c.counted(t) {
		return i, s, o, e, false
	}
	if offered(start) {
		c.remember(t, b)
	}
	return i, s, o, e, true
}

// oscMiss is what single, counted and remember do for the commonest OSC
// that the memo misses, from its bytes b and record flags f (none, or
// FlagAborted), without a Token: one that a C1 or ESC ] opens with no
// control between, that BEL, ST (ESC \) or (after a C1) a lone 9C ends, or
// that was aborted, whose payload holds no 9C (payloadST) and whose
// function has no variants (ctlfunc.OSCClasses), when that is only
// counting. It returns oscCounted when it counted it, oscDeclined (nothing
// changed) when counted would decline it too (a link, OSC 8; an overlong
// payload; a class or an anomaly while findings are still listed; no
// Token from single), and oscOther (nothing changed) for the rest, which
// single and counted decide. As in countMiss, the format policy holds
// nothing and the OSC begins in the chunk at stream offset start.
func (c *cleaner) oscMiss(b []byte, f decode.Flags, start int64) oscResult {
	n := len(b)
	intro := 1
	if b[0] != 0x9D {
		if n < 2 || b[0] != 0x1B || b[1] != ']' {
			return oscOther
		}
		intro = 2
	}
	term := 0
	if f == 0 {
		switch b[n-1] {
		case 0x07:
			term = 1
		case '\\':
			if b[n-2] != 0x1B {
				return oscDeclined
			}
			term = 2
		case 0x9C: // C1 ST after a C1 introducer, but spelled C2 9C
			switch {
			case intro != 1:
				return oscDeclined
			case b[n-2] == 0xC2:
				return oscOther
			case c.opts.C1 == C1Lone:
				return oscDeclined
			}
			term = 1
		default:
			return oscDeclined
		}
	}
	if n < intro+term {
		return oscDeclined
	}
	pl := b[intro : n-term]
	num := oscNumber(pl)
	r := &c.rep
	if num == 8 || int64(len(pl)) > c.opts.maxPayload() {
		return oscDeclined
	}
	// 9C, alone or spelled C2 9C, ends a string that a C1 opened, so a 9C
	// in its payload continues a UTF-8 character, which payloadST passes
	// over: only the payload of one that ESC opened is searched.
	if intro == 2 && bytes.IndexByte(pl, 0x9C) >= 0 {
		return oscOther
	}
	var cl Advisory
	if f == 0 { // an aborted string raises none (Advisories)
		var varies bool
		if cl, varies = ctlfunc.OSCClasses(num); varies {
			return oscOther
		}
	}
	if (cl != 0 || f != 0) && len(r.Findings) < MaxFindings {
		return oscDeclined
	}
	c.at = start + int64(n)
	r.count(decode.KindOSC, cl, f)
	if i := oscIndex(num); i >= 0 && r.osc[i] > 0 { // countOSCNum's commonest case, inlined
		r.osc[i]++
	} else {
		r.countOSCNum(num, start, int64(n))
	}
	if offered(start) && n <= memoLen(f) {
		if count := r.oscCounter(num); count != nil {
			c.offer(b, csiMemo{kind: decode.KindOSC, cl: cl, anomalies: f, count: count}, f)
		}
	}
	return oscCounted
}

// oscResult is what oscMiss made of an OSC.
type oscResult int8

const (
	oscOther    oscResult = iota // nothing changed: single and counted decide
	oscCounted                   // counted
	oscDeclined                  // nothing changed, as counted would decline it
)

// missKinds has bit k set for each kind k that missed takes: those the
// memo takes (memoKinds) but format characters, which the format policy
// may hold (format).
const missKinds = memoKinds &^ (1 << decode.KindFormat)

// counted runs the policy over t, a token from single, when for it that
// is only counting, as token would count it, and reports whether it did:
// a DEL, C1 control, escape or control string (but an OSC 8, a link)
// without flags or aborted, inside the latest frame, while the format
// policy holds nothing, that raises no class or anomaly while findings
// are still listed (a finding names the token). Counting is then what
// the memo's recall does (report.apply), and the OSC number. A token whose
// record is whole is then learned by wholeTable: every later one of its
// final byte counts the same.
func (c *cleaner) counted(t *decode.Token) bool {
	if t.Kind < decode.KindDEL || t.Kind > decode.KindScreenTitle || t.Flags&^decode.FlagAborted != 0 ||
		t.Kind == decode.KindOSC && t.Command == 8 || c.frame > t.Off || c.fmt.pending() {
		return false
	}
	m := csiMemo{kind: t.Kind, cl: Advisories(t), anomalies: t.Flags}
	if (m.cl != 0 || m.anomalies != 0) && len(c.rep.Findings) < MaxFindings {
		return false
	}
	c.at = t.End()
	c.rep.apply(&m, 1)
	if c.whole != nil && decode.RecordOf(t).Whole() {
		c.whole.learn(t.Final, m.cl)
	}
	if t.Kind == decode.KindOSC {
		c.rep.countOSC(t)
	}
	return true
}

// linked runs the policy over t, a token from single, when it is an OSC
// 8 (a hyperlink open or close, ctlfunc's entry for OSC 8) without flags,
// inside the latest frame, while the format policy holds nothing, after
// the first (which countOSC admits by name), and reports whether it did:
// what token does (sequence: the kind and the OSC number counted, link,
// advise), with the classes read from linkClasses, by whether link took
// it as an open (it counted a label), rather than from the catalogue
// each time.
func (c *cleaner) linked(t *decode.Token) bool {
	if t.Kind != decode.KindOSC || t.Command != 8 || t.Flags != 0 || c.frame > t.Off || c.fmt.pending() {
		return false
	}
	r := &c.rep
	n := &r.osc[oscIndex(8)]
	if *n == 0 {
		return false
	}
	c.at = t.End()
	r.byKind[decode.KindOSC]++
	*n++
	labels := r.Kept.LinkLabels
	c.link(t)
	open := 0
	if r.Kept.LinkLabels != labels {
		open = 1
	}
	if cl := linkClasses[open]; cl != 0 {
		c.raise(t, cl)
	}
	return true
}

// closeCounted counts r, the record that stopped quickRecords, an OSC
// without flags of closeLen or closeLen+1 bytes (as records checked),
// when it is an OSC 8 close (closeKeys) in the chunk that linked
// would only count: no link is open (a close would write its URI), one
// has been counted before (countOSC admits the first by name), a close
// raises no class (linkClasses) and its payload is within the limit (else
// FlagOverlong); it reports whether it did. The memo holds no OSC 8
// (remember), so quickRecords stops at each.
func (c *cleaner) closeCounted(r decode.Record) bool {
	rep := &c.rep
	n := &rep.osc[oscIndex(8)]
	end := r.EndNear(c.base)
	if c.next < c.base || c.linkOpen || *n == 0 || linkClasses[0] != 0 || c.opts.maxPayload() < closePayload {
		return false
	}
	if w := wordOf(c.chunk[c.next-c.base : end-c.base]); w != closeKeys[0] && w != closeKeys[1] {
		return false
	}
	rep.byKind[decode.KindOSC]++
	*n++
	c.next = end
	return true
}

// closeKeys are the memo keys (wordOf) of the OSC 8 closes that
// closeCounted counts: "ESC ] 8 ; ; ESC \\" and "ESC ] 8 ; ; BEL".
var closeKeys = [2]memoWord{wordOf([]byte("\x1b]8;;\x1b\\")), wordOf([]byte("\x1b]8;;\x07"))}

// closePayload is the length in bytes of their payload, "8;;".
const closePayload = 3

// closeLen is the length in bytes of the shorter close, the one that
// ends with BEL; the other is one byte longer. The last byte of an OSC
// is its terminator, never the zero padding of a word, so a record whose
// word (wordOf) is a close's has its length.
const closeLen = 2 + closePayload + 1

// linkClasses are the advisory classes of an OSC 8 without flags: a
// close at 0, an open at 1, as Advisories gives them (the catalogue's
// OSC 8 entry has one variant, WhenLinkClose, so its classes depend on
// nothing else). TestLinkClasses checks them against Advisories.
var linkClasses = func() (cl [2]Advisory) {
	for i, s := range [2]string{"\x1b]8;;\x1b\\", "\x1b]8;;x\x1b\\"} {
		for t := range decode.Tokens([]byte(s)) {
			cl[i] = Advisories(&t)
		}
	}
	return cl
}()

// offered reports whether a token at stream offset off that the memo did
// not recall is offered to it (remember, oscMiss, and csi's keep): one token in
// 1<<offerBits, chosen by a multiplicative hash of the offset, so that a
// token that recurs is kept after 1<<offerBits sightings on average,
// wherever in a repeated stretch of input it lies, and the tokens seen
// once, most of those the memo misses on random bytes (CSIs and strings
// with random parameters and payloads), cost it an offer only that often.
// Measured (BENCHMARKS.md, rare7): on weighted random bytes all but 0.3%
// of the tokens kept when each was offered were pushed out unrecalled;
// (wmiss12) one in 16 costs weighted random 1.1% fewer instructions than
// one in 8, and dense, git log and the build log none more.
func offered(off int64) bool {
	return uint64(off)*0x9E3779B97F4A7C15>>(64-offerBits) == 0
}

// offerBits is log2 of how many tokens the memo missed there are to each
// it is offered (offered).
const offerBits = 4

// single returns the Token of a record that the record and its bytes b
// give whole: a single control, text (but one that completes a character
// cut by the Write before), invalid UTF-8, a format character, an escape
// of at most two intermediates, or a control string whose payload
// controlString reads, terminated or aborted; nil for any other. Of an
// aborted token it leaves Abort unset: the policy does not read the cause.
func (c *cleaner) single(r decode.Record, b []byte, start int64) *decode.Token {
	t := &c.one
	t.Off, t.Len, t.Kind, t.Final, t.Flags = start, int64(len(b)), r.Kind(), r.Final(), r.Flags()
	t.Intro, t.Rune, t.NInter, t.Term, t.Command, t.Payload, t.NPrefix = decode.IntroNone, 0, 0, decode.TermNone, -1, 0, 0
	if t.Kind.IsString() {
		return c.controlString(t, b)
	}
	switch t.Kind {
	case decode.KindText:
		if start < c.base {
			return nil // Feed emits the character completed first, with its Rune
		}
	case decode.KindC0, decode.KindDEL, decode.KindInvalid:
	case decode.KindC1:
		t.Intro = decode.Intro8Bit
		if len(b) == 2 {
			t.Intro = decode.IntroUTF8
		}
	case decode.KindFormat:
		t.Rune, _ = utf8.DecodeRune(b)
	case decode.KindESC, decode.KindNF:
		inter := b[1:]
		if t.Final != 0 {
			inter = b[1 : len(b)-1]
		}
		if b[0] != 0x1B {
			return nil
		}
		t.Intro = decode.Intro7Bit
		for _, x := range inter {
			switch {
			case isExecuted(x): // an embedded control, or DEL
			case x < 0x20 || x > 0x2F || t.NInter == decode.MaxIntermediate:
				return nil // FlagOverflow, or not an escape of the grammar
			default:
				t.Inter[t.NInter] = x
				t.NInter++
			}
		}
	default:
		return nil
	}
	return t
}

// controlString fills in t, a control string without flags or aborted,
// whose bytes are b, and returns it; nil for one left open at the end of
// the stream. The terminator
// is then the last byte or two (BEL where the kind ends with it, ESC \,
// C1 ST spelled 9C or C2 9C after a C1 introducer; none when aborted), the
// OSC number the leading digits before ';' or the terminator, and the
// prefix the payload's first bytes, as decode's osc_command and
// controlString keep them.
func (c *cleaner) controlString(t *decode.Token, b []byte) *decode.Token {
	intro := 2 // C2 X
	switch {
	case b[0] >= 0x80 && b[0] <= 0x9F:
		t.Intro, intro = decode.Intro8Bit, 1
	case b[0] == 0xC2:
		t.Intro = decode.IntroUTF8
	default: // ESC X, ESC k, with controls executed between
		t.Intro, intro = decode.Intro7Bit, afterESC(b)+1
	}
	n := len(b)
	term := 1
	switch last := b[n-1]; {
	case t.Flags != 0: // aborted: no terminator
		term = 0
	case last == 0x07:
		if !(t.Kind == decode.KindOSC || t.Kind == decode.KindScreenTitle || t.Kind == decode.KindAPC && c.opts.APCBEL) {
			return nil
		}
		t.Term = decode.TermBEL
	case last == '\\' && b[n-2] == 0x1B:
		t.Term, term = decode.TermST, 2
	case last == 0x9C && t.Intro != decode.Intro7Bit:
		if b[n-2] == 0xC2 {
			term = 2
		} else if c.opts.C1 == C1Lone {
			return nil
		}
		t.Term = decode.TermC1
	default:
		return nil
	}
	if n < intro+term {
		return nil
	}
	// The string states end a string at CAN, SUB, ESC and, where its kind
	// ends with it, BEL, and none of these is then the string's: a
	// terminated or aborted string's payload holds none of them (one left
	// open at the end of the stream may end in ESC). What is left to
	// decide on is 9C (payloadST).
	pl := b[intro : n-term]
	if t.Flags&decode.FlagUnterminated != 0 {
		return nil
	}
	if decode.PrefixLen == maxMemo && len(pl) <= maxMemo && cap(pl) >= maxMemo {
		// A short payload is one word, read with the bytes after it
		// masked off: tested for 9C and stored whole as the prefix.
		w := wideWord(pl)
		if w.holds(0x9C) {
			c.payloadST(t, pl)
		}
		binary.LittleEndian.PutUint64(t.Prefix[:8], w.lo)
		binary.LittleEndian.PutUint64(t.Prefix[8:], w.hi)
		t.NPrefix = uint8(len(pl))
	} else {
		if bytes.IndexByte(pl, 0x9C) >= 0 {
			c.payloadST(t, pl)
		}
		t.NPrefix = uint8(copy(t.Prefix[:], pl))
	}
	t.Payload = int64(len(pl))
	if t.Payload > c.opts.maxPayload() {
		t.Flags |= decode.FlagOverlong
	}
	if t.Kind == decode.KindOSC {
		t.Command = oscNumber(pl)
	}
	return t
}

// oscNumber returns the command number of an OSC whose payload is pl, as
// decode's osc_command reads it: the leading digits before ';' or the
// end, saturating at 1<<30; -1 for none, or a byte other than a digit
// before ';'.
func oscNumber(pl []byte) int32 {
	num, i := int64(0), 0
	for ; i < len(pl); i++ {
		d := pl[i] - '0'
		if d > 9 { // one test for a digit; ';' (d 11) and the rest past it
			if pl[i] != ';' {
				return -1
			}
			break
		}
		if num = num*10 + int64(d); num > 1<<30 {
			num = 1 << 30
		}
	}
	if i == 0 {
		return -1
	}
	return int32(num)
}

// payloadST settles the 9C bytes of pl, the payload of the control
// string t, as the string states read them: each is a continuation byte
// of a UTF-8 character, or C1 ST, alone (unless C1Lone, where a lone one
// is payload like any C1 control) or spelled C2 9C, which ends a string
// that a C1 introducer opened (so none is in its payload) and is kept as
// payload, flagged FlagAmbiguous (terminals disagree whether it ends the
// string), in one that ESC opened. A lead byte (C2–F4) always begins a
// unit, so a 9C continues one when a lead one to three bytes before it,
// with only continuation bytes between, begins a unit that takes it.
func (c *cleaner) payloadST(t *decode.Token, pl []byte) {
	lone := c.opts.C1 != C1Lone
	for k := bytes.IndexByte(pl, 0x9C); k >= 0; {
		st := lone
		for j := 1; j <= min(k, utf8.UTFMax-1); j++ {
			if b := pl[k-j]; b >= 0xC2 && b <= 0xF4 {
				st = b == 0xC2 && j == 1 || unitLen(pl[k-j:]) <= j && lone
				break
			} else if b < 0x80 || b > 0xBF {
				break
			}
		}
		if st {
			t.Flags |= decode.FlagAmbiguous
			return
		}
		next := bytes.IndexByte(pl[k+1:], 0x9C)
		if next < 0 {
			return
		}
		k += 1 + next
	}
}

// unitLen returns the length in bytes of the UTF-8 unit that p begins
// with as the decoder reads one (Unicode 3.9, U+FFFD substitution of
// maximal subparts): a whole character, the maximal subpart of an
// ill-formed one (its longest prefix that begins a well-formed
// character), or one byte that begins none. Each prefix is judged by
// decoding it padded with continuation bytes.
func unitLen(p []byte) int {
	n := 1
	for n < min(len(p), utf8.UTFMax) {
		buf := [utf8.UTFMax]byte{0x80, 0x80, 0x80, 0x80}
		copy(buf[:], p[:n+1])
		if _, size := utf8.DecodeRune(buf[:]); size <= n {
			break // p[n] does not continue it, or it is complete (U+FFFD of one byte, or a shorter character)
		}
		n++
	}
	return n
}

// csi is the policy for a CSI record whose bytes b lie in the chunk and
// that nothing waits on, unless malformed: it counts the CSI by its key,
// its classes and its anomalies (aborted, unterminated, FlagOverflow), and
// reports whether it did. It declines (false, nothing counted) a CSI with
// more than one intermediate or too long for a look (maxQuickCSI), one
// whose parameters select a variant other than SGR's conceal, or one that
// raises a class
// or an anomaly while findings are still listed (a finding names the
// token).
func (c *cleaner) csi(b []byte, final byte, flags decode.Flags, start int64) bool {
	r := &c.rep
	if flags != 0 && len(r.Findings) < MaxFindings || len(b) > maxQuickCSI {
		return false
	}
	sh := csiParts(b, final)
	if sh&(shapeBad|shapeOver) != 0 {
		if sh&shapeBad != 0 || len(r.Findings) < MaxFindings {
			return false
		}
		flags |= decode.FlagOverflow
	}
	private, inter := sh.private(), sh.inter()
	// csiPlain's place of the key, when inter is 0: a CSI record's final
	// byte is 0x40–0x7E or 0, whose column the mask keeps.
	row, col := privateIndex[private], plainColumn(final)&abortedColumn
	var cl ctlfunc.Class
	if flags&(decode.FlagAborted|decode.FlagUnterminated) == 0 { // a CSI cut short raises none (Advisories)
		var in csiClasses
		if inter == 0 {
			in = plainClasses[row][col]
		} else {
			in.cl, in.varies, in.conceal = ctlfunc.CSIClasses(private, inter, final)
		}
		if cl = in.cl; in.varies && (!in.conceal || concealsSGR(b, sh)) || cl != 0 && len(r.Findings) < MaxFindings {
			return false
		}
	}
	n := int64(len(b))
	r.count(decode.KindCSI, cl, flags&ctlfunc.AnomalyFlags)
	if flags&decode.FlagUnterminated != 0 {
		r.BytesSwallowed += n
		r.SwallowedByC1 = r.SwallowedByC1 || b[0] == 0x9B // 8-bit CSI (csiParts)
	}
	key, nInter := csiKey{private, inter, 0, final}, uint8(0)
	if inter != 0 {
		nInter = 1
	}
	if count := &r.csiPlain[row][col]; inter == 0 && *count > 0 { // countCSIKey's commonest case, without its call
		*count++
	} else {
		r.countCSIKey(key, nInter, start, n)
	}
	if flags&^decode.FlagAborted == 0 && n <= int64(memoLen(flags)) && offered(start) {
		if count := r.csiCounter(key, nInter); count != nil {
			c.offer(b, csiMemo{kind: decode.KindCSI, cl: cl, anomalies: flags & ctlfunc.AnomalyFlags, count: count}, flags)
		}
	}
	return true
}

// csiClasses is what ctlfunc.CSIClasses gives for a CSI key.
type csiClasses struct {
	cl              ctlfunc.Class
	varies, conceal bool
}

// plainClasses holds ctlfunc.CSIClasses of each key without
// intermediates at its place in csiPlain (none at abortedColumn), read by
// csi in one load where CSIClasses computes the catalogue's index.
var plainClasses = func() (t [len(privateMarkers)][abortedColumn + 1]csiClasses) {
	for i := range t {
		for f := range abortedColumn {
			in := &t[i][f]
			in.cl, in.varies, in.conceal = ctlfunc.CSIClasses(privateMarkers[i], 0, byte(0x40+f))
		}
	}
	return t
}()

// concealsSGR reports whether the parameters of an SGR whose bytes are b
// and parts sh (csiParts) set conceal (ctlfunc.SGRConceals), read without
// the controls executed among them.
func concealsSGR(b []byte, sh csiShape) bool {
	params := b[sh.params0():sh.params1()]
	if sh&shapeMixed != 0 {
		var buf [maxQuickCSI]byte
		params = withoutExecuted(buf[:0], params)
	}
	return bytes.IndexByte(params, '8') >= 0 && ctlfunc.SGRConceals(params)
}

// csiShape is what csiParts reads of a CSI of at most 255 bytes, packed
// in one word so that it is returned in one register: the private marker
// (bits 0–7, 0: none), the intermediate (8–15, 0: none), where the
// parameter bytes begin and end in the CSI's bytes (16–23, 24–31), and
// the flags shapeOver, shapeMixed and shapeBad.
type csiShape uint64

const (
	// shapeOver: the parameters overflow what a Token stores
	// (FlagOverflow: a value past MaxParamValue, or more than MaxParams
	// parameters).
	shapeOver csiShape = 1 << (32 + iota)
	// shapeMixed: controls are executed among the parameter bytes, which
	// hold them too.
	shapeMixed
	// shapeBad: bytes out of order, or more than one intermediate.
	shapeBad
)

func (sh csiShape) private() byte { return byte(sh) }
func (sh csiShape) inter() byte   { return byte(sh >> 8) }
func (sh csiShape) params0() int  { return int(byte(sh >> 16)) }
func (sh csiShape) params1() int  { return int(byte(sh >> 24)) }

// csiParts reads the CSI whose bytes are b, final its final byte (0 when
// aborted): its private marker, its intermediate, where its parameter
// bytes lie, whether they overflow a Token or hold executed controls, or
// that b holds bytes out of order or more than one intermediate
// (csiShape). The controls executed anywhere after the introducer's
// first byte (isExecuted: C0 controls, DEL) are passed over, as the CSI
// states execute them and go on.
func csiParts(b []byte, final byte) csiShape {
	i := 2 // C2 9B
	switch b[0] {
	case 0x9B:
		i = 1
	case 0x1B:
		i = afterESC(b) + 1 // ESC, controls, [
	}
	if final != 0 {
		b = b[:len(b)-1] // the loops below index b below len(b), without a bounds check
	}
	for i < len(b) && isExecuted(b[i]) {
		i++
	}
	var sh csiShape
	if i < len(b) && b[i] >= '<' && b[i] <= '?' {
		sh, i = csiShape(b[i]), i+1
	}
	p0, seps, v := i, 0, uint32(0)
	for ; i < len(b); i++ {
		x := b[i]
		if x < '0' || x > ';' {
			if isExecuted(x) {
				sh |= shapeMixed
				continue
			}
			break
		}
		if x >= ':' {
			seps, v = seps+1, 0
			continue
		}
		if v = v*10 + uint32(x-'0'); v > decode.MaxParamValue { // saturated: one conditional move
			v, sh = decode.MaxParamValue+1, sh|shapeOver
		}
	}
	if seps >= decode.MaxParams {
		sh |= shapeOver
	}
	sh |= csiShape(p0)<<16 | csiShape(i)<<24
	for ; i < len(b); i++ { // at most one intermediate, and controls
		switch x := b[i]; {
		case isExecuted(x):
		case sh.inter() == 0 && x >= 0x20 && x <= 0x2F:
			sh |= csiShape(x) << 8
		default:
			return shapeBad
		}
	}
	return sh
}

// holds reports whether one of the bytes of w is x: a byte of w^x is
// zero, which subtracting one from each byte borrows into its top bit.
// The zero padding of a word shorter than maxMemo holds x only when x is 0.
func (w memoWord) holds(x byte) bool {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	lo, hi := w.lo^(ones*uint64(x)), w.hi^(ones*uint64(x))
	return ((lo-ones)&^lo|(hi-ones)&^hi)&tops != 0
}

// maxQuickCSI is the length in bytes past which csi declines a CSI
// without reading it: MaxParams parameters of four digits fit.
const maxQuickCSI = 2 + 1 + decode.MaxParams*5 + 2

// isExecuted reports whether b, inside an escape or CSI, is executed (a
// C0 control: an embedded token) or ignored (DEL), as decode's
// escapeExecute and csiAnywhere do, rather than part of the sequence. CAN,
// SUB and ESC, which abort the sequence, do not occur inside one.
func isExecuted(b byte) bool { return b < 0x20 || b == 0x7F }

// afterESC returns the index in b, an escape sequence's bytes, of the
// byte after its ESC and the controls executed after it.
func afterESC(b []byte) int {
	i := 1
	for i < len(b)-1 && isExecuted(b[i]) {
		i++
	}
	return i
}

// withoutExecuted appends to dst the bytes of b that are not executed
// (isExecuted) and returns the result.
func withoutExecuted(dst, b []byte) []byte {
	for _, x := range b {
		if !isExecuted(x) {
			dst = append(dst, x)
		}
	}
	return dst
}

// span returns the input bytes [start, end) of a token: in the chunk, in
// the history when they end before it, or, for a token that began in an
// earlier Write, joined from the history and the chunk in c.join; nil when
// they are no longer held or do not fit.
func (c *cleaner) span(start, end int64) []byte {
	if start >= c.base {
		return c.chunk[start-c.base : end-c.base]
	}
	histStart := c.base - int64(len(c.hist))
	switch {
	case start < histStart || end-start > int64(len(c.join)):
		return nil
	case end <= c.base:
		return c.hist[start-histStart : end-histStart]
	}
	n := copy(c.join[:], c.hist[start-histStart:])
	n += copy(c.join[n:], c.chunk[:end-c.base])
	return c.join[:n]
}

// rebuild runs token over the Token of the record [start, end), decoded
// again from its bytes by the second Decoder, c.sh. That Decoder goes on
// from where it is when it has read from a token boundary at or before
// start (c.shFrom) past start — the token is then among those it emitted
// after the last token it was asked for (c.ahead), or still open in it —
// and is restarted at start otherwise. What it emits for [start, end) is
// the token, or for text that completes a character cut by the Write
// before, the character and the rest of the run, as Feed emits them. An
// aborted token is emitted when the byte that aborts it is read, at most a
// character after end (the bytes read past end are the next tokens'); one
// still open then is ended (unterminated). Controls embedded in it were
// handled as records, and are skipped.
func (c *cleaner) rebuild(start, end int64) {
	c.shStart, c.shEnd, c.shDone = start, end, false
	past := false // it emitted a token after this one: restart
	for ; c.aheadI < c.aheadN && !c.shDone && !past; c.aheadI++ {
		if t := &c.ahead[c.aheadI]; t.Off >= end {
			past = true
		} else {
			c.shadow(t)
		}
	}
	if c.shDone {
		return
	}
	c.aheadI, c.aheadN = 0, 0
	sh := &c.sh
	if past || sh.Offset() <= start || c.shFrom > start {
		c.restart(start)
	}
	if at := sh.Offset(); at < end {
		sh.Feed(c.chunk[at-c.base:end-c.base], c.shadowFn)
	}
	limit := c.base + int64(len(c.chunk))
	for stop := min(limit, max(end, sh.Offset())+utf8.UTFMax); !c.shDone && sh.Offset() < stop; {
		at := sh.Offset() - c.base
		sh.Feed(c.chunk[at:at+1], c.shadowFn)
	}
	if !c.shDone {
		sh.End(c.shadowFn)
	}
}

// shadow is the second Decoder's emit: a token of [c.shStart, c.shEnd)
// that is not embedded goes through token; one after it is kept in
// c.ahead for the records to come; one before it was handled.
func (c *cleaner) shadow(t *decode.Token) {
	switch {
	case t.Is(decode.FlagEmbedded) || t.Off < c.shStart:
	case t.End() <= c.shEnd:
		c.shDone = t.End() == c.shEnd
		c.token(t)
	case c.aheadN < len(c.ahead):
		c.ahead[c.aheadN] = *t
		c.aheadN++
	default:
		c.shFrom = math.MaxInt64 // a token lost: restart next time
	}
}

// restart restarts the second Decoder at start, a token boundary, and
// feeds it the bytes from there to the chunk, which the history holds
// when start lies before the chunk (else holdOpen has fed them, and it is
// not restarted).
func (c *cleaner) restart(start int64) {
	c.sh.Restart(start)
	c.shFrom, c.aheadI, c.aheadN = start, 0, 0
	if start < c.base {
		c.sh.Feed(c.hist[len(c.hist)-int(c.base-start):], c.shadowFn)
	}
}

// holdOpen feeds the bytes of the token still open at the end of the
// chunk, when there is one too long for the history to keep (histLen), to
// the second Decoder, restarted where the token began unless it has read
// past there already: the token's record comes in a later Write, or at
// the end of the stream, when these bytes are gone. A shorter one is read
// back from the history (span, rebuild), and a second Decoder that has
// not read to the end of the chunk is then of no use; but not one that
// begins before what the history holds (the ESC that aborted a string too
// long for it, in an earlier chunk, begins the next token), whose first
// bytes only the second Decoder has read.
func (c *cleaner) holdOpen() {
	end := c.base + int64(len(c.chunk))
	sh := &c.sh
	if end-c.next <= histLen && c.next >= c.base-int64(len(c.hist)) {
		if sh.Offset() < end {
			c.shFrom = math.MaxInt64
		}
		return
	}
	c.shStart, c.shEnd = c.next, c.next // nothing it emits now is run
	if sh.Offset() <= c.next || c.shFrom > c.next {
		c.restart(c.next)
	}
	if at := sh.Offset() - c.base; at < int64(len(c.chunk)) {
		sh.Feed(c.chunk[at:], c.shadowFn)
	}
}

// inGround reports whether the input so far ends between tokens.
func (c *cleaner) inGround() bool {
	if c.scanning {
		return c.next == c.dec.Offset()
	}
	return c.dec.InGround()
}
