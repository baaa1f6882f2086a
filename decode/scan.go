package decode

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// Record is one token in compact form, as Scan writes it: the stream
// offset in bytes just past the token (bits 24–63), the record flags
// (bits 16–23: the token's FlagMalformed, FlagAborted, FlagUnterminated and
// FlagEmbedded), the final byte (bits 8–15: Token.Final, the final byte of
// an escape or CSI or the code of a C0, DEL or C1) and the kind (bits
// 0–7). A record has no start: a token that is not embedded begins where
// the previous one that is not embedded ended; an embedded one is the one
// byte before its end. Everything else a Token holds (parameters,
// intermediates, private marker, OSC number, payload prefix, rune) is read
// back from the token's bytes by the consumer.
type Record uint64

// recordFlags are the flags a Record keeps: those a transition decides.
// The others (FlagOverflow, FlagOverlong, FlagAmbiguous) depend on the
// token's bytes and are read back from them.
const recordFlags = FlagMalformed | FlagAborted | FlagUnterminated | FlagEmbedded

// End returns the low 40 bits of the stream offset in bytes just past the
// token: a stream of 1 TiB or more wraps it (EndNear).
func (r Record) End() int64 { return int64(r >> 24) }

// EndNear returns the stream offset in bytes just past the token, for a
// token that ends less than 512 GiB (1<<39 bytes) before or after stream
// offset off: the records of a Scan call end at most 3 bytes before the
// offset where it began (a text run closed before a UTF-8 unit carried
// from the call before) and at most len(p) after.
func (r Record) EndNear(off int64) int64 { return off + (r.End()-off)<<24>>24 }

// Kind returns the token's kind.
func (r Record) Kind() Kind { return Kind(r) }

// Final returns the token's final byte or control code (Token.Final).
func (r Record) Final() byte { return byte(r >> 8) }

// Flags returns the token's FlagMalformed, FlagAborted, FlagUnterminated
// and FlagEmbedded.
func (r Record) Flags() Flags { return Flags(byte(r >> 16)) }

// RecordOf returns the record of t.
func RecordOf(t *Token) Record {
	return Record(t.End())<<24 | Record(t.Flags&recordFlags)<<16 | Record(t.Final)<<8 | Record(t.Kind)
}

// ScanRecords is the least room Scan needs in recs: a byte ends at most
// three records, a UTF-8 unit after an abort three more, and a text run
// open at the end of p one more.
const ScanRecords = 8

// Scan decodes p, which continues the stream, as Feed does, but writes one
// Record per token into recs instead of building Tokens, and returns how
// many bytes of p it consumed and how many records it wrote. It stops
// early when fewer than ScanRecords slots of recs are left; the caller
// passes the rest of p again. Like Feed it emits a text run open at the
// end of what it consumed, and carries an open sequence, string or UTF-8
// unit to the next call. Scan does not allocate. A Decoder is driven by
// Feed or by Scan, not both.
//
// Scan steps a table (one entry per state and byte class: next state, and
// the records the step ends) that is generated from the state methods
// Feed runs, by feeding each state a byte of every class (buildScanTable):
// it has no grammar of its own. In ground, a character of 4 bytes or led
// by ED is classified by decodeUTF8, as ground does (the others, C1
// controls and format characters among them, are table states). After
// scanRun printable ASCII bytes the rest of a text run is skipped as
// Feed's ground skips it (skipText: ASCII eight bytes at a time, TAB, LF,
// plain UTF-8 characters by their continuation bytes), and so are the
// runs of printable payload and parameters in the states of bulkStates
// (stays.skip). len(recs) must be at least ScanRecords. The table of each
// choice of LoneC1 and APCBEL is built on first use (about 3 ms of CPU
// time; BenchmarkScanTable). LoneC1 or APCBEL changed while a token is open
// takes effect when the decoder is next in ground (scanTableIn).
func (d *Decoder) Scan(p []byte, recs []Record) (consumed, n int) {
	t := d.scanTableIn()
	off := d.off
	s := uint32(d.scan) // a uint16: next needs no bounds check
	i := 0
	if d.u8n > 0 {
		var buf [4]byte
		have := copy(buf[:], d.u8[:d.u8n])
		take := copy(buf[have:d.u8need], p)
		_, size, cls := decodeUTF8(buf[:have+take])
		if cls == utfShort {
			copy(d.u8[have:], p[:take])
			d.u8n += uint8(take)
			d.off += int64(take)
			return take, 0
		}
		d.u8n = 0
		var s16 uint16
		s16, n = t.unit(uint16(s), size, cls, d.u8off, recs, n)
		s = uint32(s16)
		i = size - have
	}
	next, info, ems := &t.next, &t.info, &t.emits
	// steps stops where fewer than ScanRecords slots are left (lim), so
	// that what follows a stop has room for its records.
	lim := len(recs) - ScanRecords
	for i < len(p) && n <= lim {
		if n < 0 || i < 0 || lim > len(recs)-3 {
			panic(errStepsRoom) // steps checks no bounds (steps_amd64.s)
		}
		// The step consumes its byte: i does not wait for the table.
		i, s, n = steps(t, p, i, s, recs, n, lim, Record(off+int64(i))<<24)
		if i == len(p) || n > lim {
			continue
		}
		if s == scanText {
			// A long text run: steps stops at the lead byte of a
			// plain character, whose characters go on the run as
			// well (skipText), and at a special step.
			if j := skipText(p, i); j > i {
				i = j
				continue
			}
			if info[s+uint32(t.class[p[i]])]&infoSpecial == 0 {
				continue // a lead byte that skipText left: stepped
			}
		}
		if k := s + uint32(t.class[p[i]]); info[k]&infoSkip != 0 {
			// A run of payload or parameters (steps itself passes over
			// the printable ASCII, TAB and LF of a text run).
			i = t.skips[t.skip[s/scanWidth]].skip(p, i+1)
			continue
		} else if info[k]&infoLead == 0 {
			// An abort that leaves a lead byte to be read again in ground.
			em := &ems[info[k]>>infoEmitShift]
			for j := range int(info[k] & infoCount) {
				recs[n+j] = em[j] + Record(off+int64(i))<<24
			}
			n += int(info[k] & infoCount)
			s = uint32(next[k])
			continue
		}
		// A lead byte C2–F4 in ground.
		_, size, cls := decodeUTF8(p[i:])
		if cls == utfShort {
			if t.inRun(uint16(s)) {
				recs[n] = Record(off+int64(i))<<24 | Record(KindText)
				n++
			}
			d.u8n = uint8(copy(d.u8[:], p[i:]))
			d.u8need = uint8(size0(p[i]))
			d.u8off = off + int64(i)
			s, i = scanGround, len(p)
			break
		}
		var s16 uint16
		s16, n = t.unit(uint16(s), size, cls, off+int64(i), recs, n)
		s = uint32(s16)
		i += size
	}
	if e := t.flush[s/scanWidth]; e != 0 {
		// A text run is open: its record is written, as Feed emits the
		// text at the end of p.
		recs[n] = t.emits[e>>entryEmitShift][0] + Record(off+int64(i))<<24
		n++
		s = e & entryNext
	}
	d.scan = uint16(s)
	d.off = off + int64(i)
	return i, n
}

// stepsGo takes the table steps of q from byte i in state s, writing
// records into recs from n on (at is the stream offset of q[i] as in a
// record), up to the end of q, a step of infoSpecial, which it does not
// take (but for a skip in scanText: it passes over the run with
// skipASCII, and stops at the run's end if that is the lead byte of a
// plain character, for Scan's skipText), or a byte at which the record
// count n is past lim (recs is nearly full), which it does not step. A step writes at most three
// slots, and takes place only at n <= lim: recs must have lim+3 slots. It
// returns where it stopped, and the state and record count there. It is
// steps in Go: the portable one (other GOARCH, the purego build tag), and
// on amd64 the reference the assembly is tested against
// (steps_amd64_test.go). It steps a short CSI (fuseShortCSI) byte by
// byte, where the assembly takes it in one step: so TestSteps and
// TestShortCSI hold that step to plain table steps. The same step here
// made purego Scan slower on every input (BENCHMARKS.md, sgr12).
//
// It steps blocks of bytes that cannot pass lim (stepsBlock), with no
// count of the room inside the loop: a test of n <= lim at every byte of
// the compiled loop, or a loop of blocks around it in one function, made
// purego Scan 5–25% slower (BENCHMARKS.md, blocks9), where the test in
// the assembly costs nothing.
func (t *scanTable) stepsGo(q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (int, uint32, int) {
	for i < len(q) && n <= lim {
		stop := min(len(q), i+(lim-n)/3+1)
		i0 := i
		i, s, n = t.stepsBlock(q[:stop], i, s, recs, n, at)
		if i < stop {
			// A special step: taken here only if it skips a text run.
			if s != scanText || t.info[s+uint32(t.class[q[i]])]&infoSkip == 0 {
				break
			}
			if i = skipASCII(q, i); i < len(q) && textLen[q[i]] > 1 {
				break
			}
		}
		at += Record(i-i0) << 24
	}
	return i, s, n
}

// skipASCII returns the index of the first byte of q at or after i that
// is not printable ASCII, TAB or LF: where a text run in scanText stops
// going on without a record. Every skip step in scanText (infoSkip) is a
// printable byte that leaves the state as it was and writes no record,
// and TAB and LF in a long text run do the same for Scan (a text run's
// record is written where the run ends, whichever of its rows the run is
// in), so steps takes the run without a return to Scan: about 100
// instructions a run in Scan's loop and steps' own entry and exit, once
// every 30 bytes on git log --stat and 17 on grep (BENCHMARKS.md, scan10).
func skipASCII(q []byte, i int) int {
	for i < len(q) && textLen[q[i]] == 1 {
		i = skipPrintable(q, i+1)
	}
	return i
}

// stepsBlock is stepsGo without lim: it steps q[i:] up to its end or a
// step of infoSpecial, and recs[n:] has room for three records a byte of
// q[i:].
//
// It is Scan's inner loop, a function of its own so that its few values
// stay in registers (inside Scan the compiler reloaded four of them from
// the stack at every byte), with one test on the path of every byte for
// the two rare cases (a special step, a step that writes two or three
// records): dense escapes about 1.2× as fast, git log --stat and grep
// 1.1× (BENCHMARKS.md, session 7). Small changes to it move the
// compiler's spills around and cost 5–10%: measure before and after.
//
//go:noinline
func (t *scanTable) stepsBlock(q []byte, i int, s uint32, recs []Record, n int, at Record) (int, uint32, int) {
	class, info, next, ems := &t.class, &t.info, &t.next, &t.emits
	q = q[i:]
	j := 0
	for ; j < len(q); j++ {
		b := q[j]
		k := s + uint32(class[b]) // < len(next): no extension on the chain
		f := uint32(info[k])
		em := &ems[f>>infoEmitShift]
		// A final byte 0xFF in em stands for b. The slots are written
		// before the test below; a special step leaves them unused, as
		// room past the records.
		keep := Record(b)<<8 | ^Record(0xFF00)
		recs[n] = (em[0] + at) & keep
		if stepsPair {
			recs[n+1] = (em[1] + at) & keep
		}
		if f&(infoSpecial|stepsRare) != 0 {
			if f&infoSpecial != 0 {
				break
			}
			if !stepsPair {
				recs[n+1] = (em[1] + at) & keep
			}
			recs[n+2] = (em[2] + at) & keep
		}
		n += int(f & infoCount)
		s = uint32(next[k])
		at += 1 << 24
	}
	return i + j, s, n
}

// errStepsRoom is the panic of a Scan call that would leave steps, which
// checks no bounds, too little room in recs past its limit.
var errStepsRoom = errors.New("decode: Scan without room in recs for the records of steps")

// ScanEnd is End for a Decoder driven by Scan: it writes the records of
// what is still open (at most ScanRecords) into recs, returns how many,
// and leaves the decoder in ground at the same offset.
func (d *Decoder) ScanEnd(recs []Record) int {
	if d.u8n > 0 {
		recs[0] = Record(d.u8off+int64(d.u8n))<<24 | Record(KindInvalid)
		d.u8n = 0
		return 1
	}
	t := d.scanTableIn()
	e := t.end[d.scan/scanWidth]
	em := &t.emits[e>>entryEmitShift]
	n := int(e>>entryCountShift) & 3
	for k := range n {
		recs[k] = em[k] + Record(d.off)<<24
	}
	d.scan = scanGround
	return n
}

// size0 returns the length in bytes of the character that lead byte b
// (C2–F4) starts.
func size0(b byte) int {
	n, _, _ := utf8Lead(b)
	return int(n) + 1
}

// unit writes the records of the UTF-8 unit of size bytes at off that
// decodeUTF8 classified as cls, read in ground state s, as unit does for
// Feed, and returns the next state and record count.
func (t *scanTable) unit(s uint16, size int, cls utfClass, off int64, recs []Record, n int) (uint16, int) {
	if cls == utfText {
		return scanWidth, n // ground in a text run
	}
	if t.inRun(s) {
		recs[n] = Record(off)<<24 | Record(KindText)
		n++
	}
	kind := KindInvalid
	if cls == utfFormat {
		kind = KindFormat
	}
	recs[n] = Record(off+int64(size))<<24 | Record(kind)
	return scanGround, n + 1
}

// scanGround is the ground state of every scan table, between tokens;
// rows 1 to scanRun are ground in a text run whose record is not yet
// written.
const scanGround = 0

// scanText is the row of ground in a text run of scanRun printable bytes
// or more, whose skip entries skip the rest of the run with skipText: the
// run goes on through TAB, LF and plain UTF-8 characters, which write no
// record either.
const scanText = scanRun * scanWidth

// inRun reports whether s is ground in a text run.
func (t *scanTable) inRun(s uint16) bool { return s-scanWidth < scanRun*scanWidth }

// A table entry: the next state, as its row's index in scanTable.next
// (bits 0–15); whether the step consumes its byte (bit 16; an abort leaves
// the byte to be read again in ground); whether the byte is a UTF-8 lead
// byte in ground (bit 17, decoded by decodeUTF8 instead); how many records
// the step writes (bits 18–19); whether
// the rest of the run is skipped (bit 21, scanTable.skip); and the index
// of those records in scanTable.emits (bits 22–31).
const (
	entryNext         = 1<<16 - 1
	entryConsumeShift = 16
	entryLead         = 1 << 17
	entryCountShift   = 18
	entrySkip         = 1 << 21
	entryEmitShift    = 22
)

// scanWidth is the width of a row of scanTable.next and info: at least the
// number of byte classes, a power of two.
const scanWidth = 64

// scanInfo bits: how many records the step writes (bits 0–1), whether
// the step is a UTF-8 lead byte in ground, a run of bytes to skip or an
// abort that leaves its byte to be read again (bit 2), the first (bit 3),
// whether three records (bit 4), the second (bit 5), whether the step is
// an ESC in ground that may begin a short CSI (bit 6, fuseShortCSI), and
// the index of those records in scanTable.emits (bits 7–15; masked,
// infoEmits, the emission's offset in bytes there). More than one record
// is bit 1 (infoMany).
const (
	infoCount     = 3
	infoSpecial   = 1 << 2
	infoLead      = 1 << 3
	infoThree     = 1 << 4
	infoSkip      = 1 << 5
	infoShortCSI  = 1 << 6
	infoEmitShift = 7
	infoEmits     = 1<<16 - 1<<infoEmitShift
	infoMany      = 2 // infoCount's high bit: two records or three
)

// scanTable is the transition table of Scan for one choice of options.
// Bytes that every state treats alike share a class, so that the rows
// that the common states use stay in the first-level cache. The two
// arrays are indexed by a state row (below 1<<16) plus a class, in 32
// bits: the index needs no extension on the chain of loads from one
// state to the next, only a bounds check beside it.
type scanTable struct {
	emits [1 << 9]emission    // the record lists of the steps; emits[0] is empty
	class [256]uint8          // byte → column
	next  [1<<16 + 256]uint16 // [state row + class]: the next state row
	next2 [1<<16 + 256]uint16 // 2 × next, for steps in assembly (fillSteps)
	info  [1<<16 + 256]uint16 // [state row + class]: the records (scanInfo bits)
	end   []uint32            // [state]: the records End writes, as an entry
	flush []uint32            // [state]: the text run a Scan call ends, as an entry
	skip  []uint8             // [state]: the index in skips of the bytes its skip entries skip
	skips []stays

	// A short CSI (fuseShortCSI): for each final byte, the record of its
	// step with the byte in it, its offset relative to the final byte as
	// in emits (0 for a byte that ends no short CSI), and the state row
	// the final byte leads to.
	csiRec  [256]Record
	csiNext uint16
	// csiAt[k] is k<<24 in both lanes: the advance of at from the ESC to
	// a final byte k bytes past it: one 16-byte load in steps, at twice the
	// bit index 8k+7 of the final byte's top bit, less 14.
	csiAt [shortCSIMax][2]Record
}

// emission is the records one step writes (at most three; the other slots
// are zero), their offsets relative to the byte stepped (added to it as
// offset<<24); a final byte 0xFF stands for the byte stepped (a dispatch
// or a single control). It is 128 bytes, 1<<infoEmitShift: the emission
// bits of a scanInfo, masked (infoEmits), are its offset in emits, which
// is the first field of scanTable, so that no emission crosses a cache
// line of a table aligned to 64 bytes (steps_amd64.s).
type emission [16]Record

// scanRun is the length of a run of printable ASCII in ground after which
// Scan skips the rest of the run eight bytes at a time (stays.skip), as
// ground does: shorter runs are cheaper stepped.
const scanRun = 4

// stays is the set of bytes that leave a state as it was and write no
// record, for Scan to skip in bulk: the bytes lo to hi (at most 0x7F)
// eight at a time, the others of the set one at a time.
type stays struct {
	below, above uint64    // ones*(0x80+hi), ones*(0x80-lo): see skip
	set          [256]bool // the bytes of the set
}

// newStays returns the stays of set, lo to hi its longest run of bytes
// below 0x80.
func newStays(set [256]bool) stays {
	lo, hi, best := 0, -1, 0
	for b := 0; b < 0x80; {
		e := b
		for e < 0x80 && set[e] {
			e++
		}
		if e-b > best {
			lo, hi, best = b, e-1, e-b
		}
		b = e + 1
	}
	return stays{below: ones * uint64(0x80+hi), above: ones * uint64(0x80-lo), set: set}
}

// skip returns the index of the first byte of p at or after i that is not
// in the set.
func (st *stays) skip(p []byte, i int) int {
	for {
		for i+8 <= len(p) {
			w := binary.LittleEndian.Uint64(p[i:])
			y := w &^ highs // each byte's low seven bits: no carry or borrow crosses a byte
			// High bit set in each byte < 0x80 with y <= hi and y >= lo.
			in := (st.below - y) &^ w & (y + st.above)
			if m := ^in & highs; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(p) || !st.set[p[i]] {
			return i
		}
		i++
	}
}
