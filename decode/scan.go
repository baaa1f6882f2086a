package decode

import "sync"

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

// End returns the stream offset in bytes just past the token.
func (r Record) End() int64 { return int64(r >> 24) }

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

// ScanRecords is the least room Scan needs in recs: one step writes at most
// three records, and a text run open at the end of p one more.
const ScanRecords = 4

// Scan decodes p, which continues the stream, as Feed does, but writes one
// Record per token into recs instead of building Tokens, and returns how
// many bytes of p it consumed and how many records it wrote. It stops
// early when fewer than ScanRecords slots of recs are left; the caller
// passes the rest of p again. Like Feed it emits a text run open at the
// end of what it consumed, and carries an open sequence, string or UTF-8
// unit to the next call. Scan does not allocate. A Decoder is driven by
// Feed or by Scan, not both.
//
// Scan steps a table (one entry per state and byte: next state, and the
// records the step ends) that is generated from the state methods Feed
// runs, by feeding each state every byte (scanTableFor): it has no grammar
// of its own. In ground, UTF-8 units are classified by decodeUTF8, as
// ground does.
func (d *Decoder) Scan(p []byte, recs []Record) (consumed, n int) {
	t := scanTableFor(d.LoneC1, d.APCBEL)
	off := d.off
	s := uint32(d.scan)
	i := 0
	if d.u8n > 0 {
		var buf [4]byte
		have := copy(buf[:], d.u8[:d.u8n])
		take := copy(buf[have:d.u8need], p)
		r, size, cls := decodeUTF8(buf[:have+take])
		if cls == utfShort {
			copy(d.u8[have:], p[:take])
			d.u8n += uint8(take)
			d.off += int64(take)
			return take, 0
		}
		d.u8n = 0
		s, n = t.unit(s, r, size, cls, d.u8off, recs, n)
		i = size - have
	}
	next, ems := t.next, t.emits
	limit := len(recs) - ScanRecords
	for i < len(p) && n <= limit {
		e := next[s<<8|uint32(p[i])]
		if e&entryLead != 0 {
			// A lead byte C2–F4 in ground.
			r, size, cls := decodeUTF8(p[i:])
			if cls == utfShort {
				if s == scanPending {
					recs[n] = Record(off+int64(i))<<24 | Record(KindText)
					n++
				}
				d.u8n = uint8(copy(d.u8[:], p[i:]))
				d.u8need = uint8(size0(p[i]))
				d.u8off = off + int64(i)
				s, i = scanGround, len(p)
				break
			}
			s, n = t.unit(s, r, size, cls, off+int64(i), recs, n)
			i += size
			continue
		}
		em := &ems[e>>entryEmitShift]
		at := Record(off+int64(i)) << 24
		recs[n] = em.r[0] + at
		if em.n > 1 {
			recs[n+1] = em.r[1] + at
			recs[n+2] = em.r[2] + at
		}
		n += int(em.n)
		s = e & entryNext
		i += int(e>>entryConsumeShift) & 1
	}
	if s == scanPending {
		recs[n] = Record(off+int64(i))<<24 | Record(KindText)
		n++
		s = scanGround
	}
	d.scan = uint16(s)
	d.off = off + int64(i)
	return i, n
}

// ScanEnd is End for a Decoder driven by Scan: it writes the records of
// what is still open (at most ScanRecords) into recs, returns how many,
// and leaves the decoder in ground at the same offset.
func (d *Decoder) ScanEnd(recs []Record) int {
	if d.u8n > 0 {
		recs[0] = Record(d.u8off+int64(d.u8n))<<24 | Record(KindInvalid)
		d.u8n = 0
		return 1
	}
	t := scanTableFor(d.LoneC1, d.APCBEL)
	em := &t.emits[t.end[d.scan]]
	at := Record(d.off) << 24
	for k := range em.n {
		recs[k] = em.r[k] + at
	}
	d.scan = scanGround
	return int(em.n)
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
func (t *scanTable) unit(s uint32, r rune, size int, cls utfClass, off int64, recs []Record, n int) (uint32, int) {
	if cls == utfText {
		return scanPending, n
	}
	if cls == utfC1 {
		// The table's column for U+0080–U+009F, stepped at the second
		// byte of C2 80–C2 9F.
		e := t.c1[s<<5|uint32(r-0x80)]
		em := &t.emits[e>>entryEmitShift]
		at := Record(off+1) << 24
		for k := range em.n {
			recs[n+int(k)] = em.r[k] + at
		}
		return e & entryNext, n + int(em.n)
	}
	if s == scanPending {
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

// The two ground states of a scan table: between tokens, and in a text run
// whose record is not yet written.
const (
	scanGround  = 0
	scanPending = 1
)

// A table entry: the next state (bits 0–11), whether the step consumes its
// byte (bit 12; an abort leaves the byte to be read again in ground),
// whether the byte is a UTF-8 lead byte in ground (bit 13, decoded by
// decodeUTF8 instead), and the index of the records the step writes (bits
// 16–31).
const (
	entryNext         = 1<<12 - 1
	entryConsumeShift = 12
	entryLead         = 1 << 13
	entryEmitShift    = 16
)

// scanTable is the transition table of Scan for one choice of options.
type scanTable struct {
	next  []uint32   // [state<<8 | byte]
	c1    []uint32   // [ground state<<5 | code-0x80]: U+0080–U+009F in ground
	end   []uint32   // [state]: index in emits of the records End writes
	emits []emission // the record lists of the steps; emits[0] is empty
}

// emission is the records one step writes, their offsets relative to the
// byte stepped (added to it as offset<<24).
type emission struct {
	n uint8
	r [3]Record
}

// scanConfig is a table state: a Decoder reduced to what decides the
// boundaries and kinds of the tokens to come (normalize), and for ground
// whether a text run is open.
type scanConfig struct {
	d       Decoder
	pending bool
}

var scanTables [4]struct {
	once sync.Once
	t    *scanTable
}

// scanTableFor returns the scan table of the options, generated on first
// use.
func scanTableFor(loneC1, apcBEL bool) *scanTable {
	k := 0
	if loneC1 {
		k |= 1
	}
	if apcBEL {
		k |= 2
	}
	e := &scanTables[k]
	e.once.Do(func() { e.t = buildScanTable(loneC1, apcBEL) })
	return e.t
}

// probeBase is the stream offset at which buildScanTable feeds its probes.
const probeBase = 1 << 20

// normalize reduces d, whose next byte is at stream offset pos, to a table
// state: the state, and for a token in progress its kind, whether its
// introducer was ESC, FlagMalformed, and the offsets and UTF-8 unit that
// string_esc, csi_abort_char and string_utf8 read, relative to pos.
// Parameters, intermediates, payload counts and the OSC number only
// change a token's fields, not where tokens end, and are dropped.
func normalize(d *Decoder, pos int64) Decoder {
	n := Decoder{LoneC1: d.LoneC1, APCBEL: d.APCBEL, state: d.state}
	if d.state == stateGround {
		return n
	}
	n.tok.Kind, n.tok.Intro, n.tok.Flags = d.tok.Kind, d.tok.Intro, d.tok.Flags&FlagMalformed
	if n.tok.Intro != Intro7Bit {
		n.tok.Intro = Intro8Bit // 8-bit and UTF-8 spellings end alike
	}
	switch d.state {
	case stateStringEsc:
		n.escOff = d.escOff - pos
	case stateCSIAbortChar, stateStringUTF8:
		if d.unitLead == 0xC2 {
			n.unitLead = 0xC2
		}
		n.unitRem, n.unitLo, n.unitHi, n.unitRet = d.unitRem, d.unitLo, d.unitHi, d.unitRet
		n.unitOff = d.unitOff - pos
	}
	return n
}

// represent returns a Decoder in table state n whose next byte is at
// stream offset pos.
func represent(n Decoder, pos int64) Decoder {
	d := n
	d.off = pos
	d.tok.Off = pos - 1
	d.tok.Command = -1
	d.tok.Payload = probeBase // past the prefix, so that dropC2 has a C2 to take back
	switch d.state {
	case stateStringEsc:
		d.escOff += pos
	case stateCSIAbortChar, stateStringUTF8:
		d.unitOff += pos
	}
	d.overlong = DefaultMaxPayload
	return d
}

// buildScanTable generates the scan table by running the state methods:
// from each table state it feeds every byte (and, in ground, every UTF-8
// C1) to a Decoder in that state and records the tokens that end and the
// state reached, until no new state is reached.
func buildScanTable(loneC1, apcBEL bool) *scanTable {
	t := &scanTable{emits: []emission{{}}}
	emitIndex := map[emission]uint32{{}: 0}
	ground := Decoder{LoneC1: loneC1, APCBEL: apcBEL}
	configs := []scanConfig{{ground, false}, {ground, true}}
	index := map[scanConfig]uint32{configs[0]: scanGround, configs[1]: scanPending}
	stateOf := func(c scanConfig) uint32 {
		k, ok := index[c]
		if !ok {
			k = uint32(len(configs))
			if k > entryNext {
				panic("decode: scan table overflow")
			}
			index[c] = k
			configs = append(configs, c)
		}
		return k
	}
	emit := func(ts []Token, at int64) uint32 {
		var em emission
		for _, tk := range ts {
			r := RecordOf(&tk) - Record(at)<<24
			em.r[em.n] = r
			em.n++
		}
		k, ok := emitIndex[em]
		if !ok {
			k = uint32(len(t.emits))
			emitIndex[em] = k
			t.emits = append(t.emits, em)
		}
		return k
	}
	// step feeds in to a Decoder in table state c, its last byte at
	// probeBase, and returns the entry for that byte.
	step := func(c scanConfig, in []byte) uint32 {
		first := int64(probeBase - len(in) + 1)
		d := represent(c.d, first)
		var ts []Token
		d.Feed(in, func(tk *Token) { ts = append(ts, *tk) })
		if d.state == stateUTF8 {
			if c.d.state == stateGround && len(in) == 1 {
				return entryLead
			}
			// An abort left a lead byte to ground: the tokens before it
			// end here, and the byte is read again in ground.
			return emit(ts, probeBase)<<entryEmitShift | scanGround
		}
		pending := false
		if k := len(ts) - 1; d.state == stateGround && k >= 0 && ts[k].Kind == KindText && !ts[k].Is(FlagEmbedded) && ts[k].End() == probeBase+1 {
			ts, pending = ts[:k], true
		}
		if c.pending && !(len(ts) == 0 && pending) {
			ts = append([]Token{{Off: first, Kind: KindText}}, ts...)
		}
		next := stateOf(scanConfig{normalize(&d, probeBase+1), pending})
		return emit(ts, probeBase)<<entryEmitShift | 1<<entryConsumeShift | next
	}
	for _, c := range configs[:2] {
		for code := range 32 {
			t.c1 = append(t.c1, step(c, []byte{0xC2, byte(0x80 + code)}))
		}
	}
	for k := 0; k < len(configs); k++ {
		c := configs[k]
		for b := range 256 {
			t.next = append(t.next, step(c, []byte{byte(b)}))
		}
		d := represent(c.d, probeBase)
		var ts []Token
		d.End(func(tk *Token) { ts = append(ts, *tk) })
		if c.pending {
			ts = append([]Token{{Off: probeBase, Kind: KindText}}, ts...)
		}
		t.end = append(t.end, emit(ts, probeBase))
	}
	return t
}
