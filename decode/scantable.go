package decode

import "sync"

// The generation of Scan's tables from the state methods Feed runs.

// scanConfig is a table state: a Decoder reduced to what decides the
// boundaries and kinds of the tokens to come (normalize), and for ground
// and utf8 how long the open text run is, for the states of bulkStates
// how long the run of bytes that left it as it was.
type scanConfig struct {
	state state
	kind  Kind  // the token in progress
	intro Intro // Intro7Bit or Intro8Bit: 8-bit and UTF-8 spellings end alike
	flags Flags // its FlagMalformed

	// utf8: the bytes so far of a character in ground (u8n of them),
	// those of a character that cannot be a control or format character
	// standing for all of their length (plainLeadOf).
	u8          [3]byte
	u8n, u8need uint8
	// csi_abort_char and string_utf8: the UTF-8 unit in progress, its
	// lead byte kept only when it is C2.
	unitLead, unitRem, unitLo, unitHi byte
	unitRet                           state

	// The offset of the ESC (string_esc), the unit's lead byte
	// (csi_abort_char, string_utf8) or the character's (utf8), relative
	// to the next byte.
	off int64

	run uint8 // in ground or utf8: the length of the open text run, up to scanRun; 0: none
}

// bulkStates are the states whose runs of printable bytes Scan skips in
// bulk, as Feed does: the payload of a control string, the parameters of
// a CSI and the bytes of a malformed one.
var bulkStates = [numStates]bool{
	stateOSCString: true, stateDCSPassthrough: true, stateSOSPMAPCString: true,
	stateCSIParam: true, stateCSIIgnore: true,
}

// scanStay is how many printable bytes in a row must leave a state of
// bulkStates as it was before Scan skips the rest of the run: more than
// the parameters of an SGR such as 38;5;208 and the payloads of short
// strings, so that dense and random input, whose runs are short, stay on
// the table.
const scanStay = 8

var scanTables [4]struct {
	once sync.Once
	t    *scanTable
}

// scanTableFor returns the scan table of the options, generated on first
// use.
func scanTableFor(loneC1, apcBEL bool) *scanTable {
	return scanTableOf(scanKey(loneC1, apcBEL))
}

// scanKey is the index in scanTables of the options.
func scanKey(loneC1, apcBEL bool) uint8 {
	k := uint8(0)
	if loneC1 {
		k |= 1
	}
	if apcBEL {
		k |= 2
	}
	return k
}

// scanTableOf returns the scan table of index k in scanTables.
func scanTableOf(k uint8) *scanTable {
	e := &scanTables[k]
	e.once.Do(func() { e.t = buildScanTable(k&1 != 0, k&2 != 0, &scanClasses) })
	return e.t
}

// scanTableIn returns the table Scan and ScanEnd step d's state in: the
// table of d's options, but while a token is open (d.scan past the rows
// of ground, scanText) the table of the options it began under, whose
// rows d.scan indexes: the rows of the four tables are not the same
// states, and a row read in another table was another state (ESC [ read
// on as SOS, or its ESC given as text). An option changed with a token
// open so takes effect when the decoder is next in ground.
func (d *Decoder) scanTableIn() *scanTable {
	if d.scan <= scanText {
		d.scanKey = scanKey(d.LoneC1, d.APCBEL)
	}
	return scanTableOf(d.scanKey)
}

// probeBase is the stream offset at which buildScanTable feeds its probes.
const probeBase = 1 << 20

// normalize reduces d, whose next byte is at stream offset pos, to a table
// state: the state, and for a token in progress its kind, whether its
// introducer was ESC, FlagMalformed, and the offsets and UTF-8 unit that
// string_esc, csi_abort_char and string_utf8 read, relative to pos.
// Parameters, intermediates, payload counts and the OSC number only
// change a token's fields, not where tokens end, and are dropped. A
// character of 2 or 3 bytes in utf8 is a table state: its bytes so far
// when they may begin a C1 or format character (mayBeControl), else only
// its length and how far it has come, when its lead byte is in plainLead.
// Otherwise ok is false (Scan decodes such a character, of 4 bytes or
// led by ED, with decodeUTF8).
func normalize(d *Decoder, pos int64) (c scanConfig, ok bool) {
	c.state = d.state
	switch d.state {
	case stateGround:
		return c, true
	case stateUTF8:
		lead := d.u8[0]
		switch {
		case d.u8need > 3 || lead == 0xED:
			return c, false
		case mayBeControl(d.u8[:d.u8n]):
			copy(c.u8[:], d.u8[:d.u8n])
		case d.u8n == 2: // the third byte of any is 80–BF
			c.u8 = [3]byte{plainLeadOf[3], 0xA0}
		case lead == 0xE0: // E0's second byte is A0–BF; the others are alike
			c.u8[0] = lead
		default:
			c.u8[0] = plainLeadOf[plainLead[lead]]
		}
		c.u8n, c.u8need, c.off = d.u8n, d.u8need, d.u8off-pos
		return c, true
	}
	c.kind, c.intro, c.flags = d.tok.Kind, d.tok.Intro, d.tok.Flags&FlagMalformed
	if c.intro != Intro7Bit {
		c.intro = Intro8Bit
	}
	switch d.state {
	case stateStringEsc:
		c.off = d.escOff - pos
	case stateCSIAbortChar, stateStringUTF8:
		if d.unitLead == 0xC2 {
			c.unitLead = 0xC2
		}
		c.unitRem, c.unitLo, c.unitHi, c.unitRet = d.unitRem, d.unitLo, d.unitHi, d.unitRet
		c.off = d.unitOff - pos
	}
	return c, true
}

// plainLeadOf gives, for a length 2 or 3, the first lead byte of that
// length in plainLead but E0: the lead normalize gives the characters
// that plainLead lets pass.
var plainLeadOf = func() (t [4]byte) {
	for b := 0xFF; b >= 0xC2; b-- {
		if w := plainLead[b]; w != 0 && b != 0xE0 {
			t[w] = byte(b)
		}
	}
	return t
}()

// mayBeControl reports whether some character that begins with u, the
// first one or two bytes of a 2- or 3-byte character (lead C2–EF), is a
// C1 control (C2 80–C2 9F) or a format character (leadMayStartFormat,
// and for two bytes the block of 64 code points they begin).
func mayBeControl(u []byte) bool {
	switch {
	case u[0] == 0xC2:
		return true
	case len(u) == 1:
		return leadMayStartFormat(u[0])
	}
	k := (rune(u[0]&0x0F)<<12 | rune(u[1]&0x3F)<<6) >> 6
	return formatBlocks[k>>6]&(1<<(k&63)) != 0
}

// represent sets d, whose options are set, to a Decoder in table state c
// whose next byte is at stream offset pos.
func represent(d *Decoder, c *scanConfig, pos int64) {
	*d = Decoder{LoneC1: d.LoneC1, APCBEL: d.APCBEL, state: c.state, off: pos, overlong: DefaultMaxPayload}
	d.tok.Kind, d.tok.Intro, d.tok.Flags = c.kind, c.intro, c.flags
	d.tok.Off = pos - 1
	d.tok.Command = -1
	d.tok.Payload = probeBase // past the prefix, so that dropC2 has a C2 to take back
	switch c.state {
	case stateStringEsc:
		d.escOff = c.off + pos
	case stateCSIAbortChar, stateStringUTF8:
		d.unitLead, d.unitRem, d.unitLo, d.unitHi, d.unitRet = c.unitLead, c.unitRem, c.unitLo, c.unitHi, c.unitRet
		d.unitOff = c.off + pos
	case stateUTF8:
		copy(d.u8[:], c.u8[:])
		d.u8n, d.u8need = c.u8n, c.u8need
		d.u8off = c.off + pos
	}
}

// A probe entry has the bits of a table entry (entryNext and the others),
// the next state the index of a config, and entryStay: the byte left a
// state of bulkStates as it was (the entry's next state is its own), to
// be counted towards scanStay.
const entryStay = 1 << entryConsumeShift << 32

// buildScanTable generates the scan table by running the state methods:
// from each table state it feeds every byte to a Decoder in that state
// and records the tokens that end and the state reached, until no new
// state is reached. The states that count a run of stays are then copies
// of their state's row, but for the stays. Bytes whose column is the
// same in every state share a class.
//
// With classes (scanClasses, generated: scanclasses_table.go), only the
// first byte of each of its classes is fed, and the others take its
// entries; TestScanClasses checks that this builds the same table as
// feeding every byte, under every option set.
func buildScanTable(loneC1, apcBEL bool, classes *[256]uint8) *scanTable {
	var rep [256]uint8 // the byte fed for each byte
	var probes []byte  // the bytes fed
	var firstOfClass [256]int16
	for b := range 256 {
		if classes == nil {
			rep[b] = byte(b)
			probes = append(probes, byte(b))
			continue
		}
		c := classes[b]
		if firstOfClass[c] == 0 {
			firstOfClass[c] = int16(b) + 1
			probes = append(probes, byte(b))
		}
		rep[b] = byte(firstOfClass[c] - 1)
	}
	t := &scanTable{}
	nemits := uint32(1)
	emitIndex := map[emission]uint32{{}: 0}
	// Rows 1 to scanRun are ground in a text run, so that Scan tells them
	// from the others with one comparison.
	configs := []scanConfig{{}}
	index := map[scanConfig]uint32{{}: 0}
	for r := uint8(1); r <= scanRun; r++ {
		index[scanConfig{run: r}] = uint32(len(configs))
		configs = append(configs, scanConfig{run: r})
	}
	stateOf := func(c scanConfig) uint32 {
		k, ok := index[c]
		if !ok {
			k = uint32(len(configs))
			index[c] = k
			configs = append(configs, c)
		}
		return k
	}
	// emit returns the count and emission bits of an entry that writes
	// the records of ts; b is the byte stepped, at stream offset at.
	emit := func(ts []Token, at int64, b byte) uint64 {
		var em emission
		for k := range ts {
			tk := &ts[k]
			if tk.Final != 0 && tk.Final == b {
				tk.Final = 0xFF
			}
			em[k] = RecordOf(tk) - Record(at)<<24
		}
		k, ok := emitIndex[em]
		if !ok {
			k = nemits
			if k >= uint32(len(t.emits)) || k >= 1<<(32-entryEmitShift) {
				panic("decode: scan table overflow")
			}
			emitIndex[em] = k
			t.emits[k] = em
			nemits++
		}
		return uint64(k)<<entryEmitShift | uint64(len(ts))<<entryCountShift
	}
	d := Decoder{LoneC1: loneC1, APCBEL: apcBEL}
	var buf [2 * ScanRecords]Token
	ts := buf[:0]
	collect := func(tk *Token) { ts = append(ts, *tk) }
	// step feeds b to a Decoder in table state c (index self) at
	// probeBase and returns the entry for that byte.
	var in [1]byte
	step := func(c *scanConfig, self uint32, b byte) uint64 {
		represent(&d, c, probeBase)
		runEnd := int64(probeBase) // where an open text run ends
		if c.state == stateUTF8 {
			runEnd = d.u8off
		}
		ts = buf[:0]
		in[0] = b
		d.Feed(in[:], collect)
		n, ok := normalize(&d, probeBase+1)
		if !ok && c.state == stateGround {
			return entryLead
		}
		if k := len(ts) - 1; d.state == stateGround && k >= 0 && ts[k].Kind == KindText && !ts[k].Is(FlagEmbedded) && ts[k].End() == probeBase+1 {
			ts, n.run = ts[:k], 1
			if c.run > 0 && len(ts) == 0 && b >= 0x20 && b < 0x7F {
				n.run = min(c.run+1, scanRun)
			}
		} else if d.state == stateUTF8 && len(ts) == 0 {
			n.run = c.run // the text run goes on before the character
		}
		if c.run > 0 && !(len(ts) == 0 && n.run > 0) {
			ts = append(ts, Token{})
			copy(ts[1:], ts)
			ts[0] = Token{Off: runEnd, Kind: KindText}
		}
		if !ok {
			// The tokens before a lead byte that Scan decodes with
			// decodeUTF8 end here, and the byte is read again in ground.
			return emit(ts, probeBase, b) | scanGround
		}
		if len(ts) == 0 && n == *c && bulkStates[c.state] && b >= 0x20 && b < 0x7F {
			return 1<<entryConsumeShift | uint64(self) | entryStay
		}
		e := emit(ts, probeBase, b) | 1<<entryConsumeShift | uint64(stateOf(n))
		if c.run == scanRun && c.state == stateGround && n.state == stateGround && n.run == scanRun {
			e |= entrySkip
		}
		return e
	}
	raw := make([][256]uint64, 0, 512) // rows: about 430
	for k := 0; k < len(configs); k++ {
		c := configs[k]
		var row [256]uint64
		for _, b := range probes {
			row[b] = step(&c, uint32(k), b)
		}
		for b := range row {
			row[b] = row[rep[b]]
		}
		raw = append(raw, row)
		represent(&d, &c, probeBase)
		runEnd := int64(probeBase)
		if c.state == stateUTF8 {
			runEnd = d.u8off
		}
		ts = buf[:0]
		d.End(collect)
		flush := uint64(0)
		if c.run > 0 {
			run := Token{Off: runEnd, Kind: KindText}
			ts = append(ts, Token{})
			copy(ts[1:], ts)
			ts[0] = run
			ended := c
			ended.run = 0
			flush = emit([]Token{run}, probeBase, 0) | uint64(stateOf(ended))
		}
		t.end = append(t.end, uint32(emit(ts, probeBase, 0)))
		t.flush = append(t.flush, uint32(flush))
	}
	// The states that count stays: a row with stay j is its state's row
	// but for the stays, which lead to stay j+1, and at scanStay skip.
	for k := range raw {
		first, stays := uint64(len(raw)), false
		for b, e := range &raw[k] {
			if e&entryStay != 0 {
				raw[k][b] = e&^entryNext | first
				stays = true
			}
		}
		if !stays {
			continue
		}
		for j := uint64(1); j <= scanStay; j++ {
			row := raw[k]
			for b, e := range row {
				if e&entryStay == 0 {
					continue
				}
				if j < scanStay {
					row[b] = e&^entryNext | (first + j)
				} else {
					row[b] = e&^entryNext | (first + j - 1) | entrySkip
				}
			}
			raw = append(raw, row)
			t.end = append(t.end, t.end[k])
			t.flush = append(t.flush, t.flush[k])
		}
	}
	// Classes: bytes with equal columns.
	columns := map[string]uint8{}
	var firstOf []int
	col := make([]byte, 0, 4*len(raw))
	var classOfRep [256]int16
	for b := range 256 {
		if k := classOfRep[rep[b]]; k != 0 {
			t.class[b] = uint8(k - 1)
			continue
		}
		col = col[:0]
		for k := range raw {
			e := uint32(raw[k][b])
			col = append(col, byte(e), byte(e>>8), byte(e>>16), byte(e>>24))
		}
		k, ok := columns[string(col)]
		if !ok {
			k = uint8(len(firstOf))
			columns[string(col)] = k
			firstOf = append(firstOf, b)
		}
		t.class[b] = k
		classOfRep[rep[b]] = int16(k) + 1
	}
	if len(firstOf) > scanWidth || len(raw)*scanWidth > 1<<16 {
		panic("decode: scan table overflow")
	}
	const width = scanWidth
	row := func(e uint32) uint32 { return e&^entryNext | (e&entryNext)*width }
	for k := range raw {
		r := &raw[k]
		for c, b := range firstOf {
			e := row(uint32(r[b]))
			f := uint16(e>>entryEmitShift)<<infoEmitShift | uint16(e>>entryCountShift&3)
			if e>>entryCountShift&3 == 3 {
				f |= infoThree
			}
			if e&entryLead != 0 {
				f |= infoLead | infoSpecial
			}
			if e>>entryConsumeShift&1 == 0 {
				f |= infoSpecial
			}
			if e&entrySkip != 0 {
				f |= infoSkip | infoSpecial
			}
			t.next[k*width+c], t.info[k*width+c] = uint16(e&entryNext), f
		}
	}
	// The bytes that each row skips: those of its skip entries.
	t.skip = make([]uint8, len(raw))
	skipIndex := map[[256]bool]uint8{}
	for k := range raw {
		r := &raw[k]
		var set [256]bool
		any := false
		for b, e := range r {
			set[b] = e&entrySkip != 0
			any = any || set[b]
		}
		if !any {
			continue
		}
		x, ok := skipIndex[set]
		if !ok {
			x = uint8(len(t.skips))
			skipIndex[set] = x
			t.skips = append(t.skips, newStays(set))
		}
		t.skip[k] = x
	}
	for k := range t.flush {
		t.flush[k] = row(t.flush[k])
	}
	t.fuseShortCSI()
	t.fillSteps()
	return t
}

// shortCSIMax is the length in bytes of the longest short CSI: ESC [,
// parameter bytes and a final byte within one 64-bit word.
const shortCSIMax = 8

// fuseShortCSI marks the steps of ESC in ground (rows scanGround to
// scanText) with infoShortCSI, so that steps in assembly takes a short
// CSI that follows, ESC [ P… F of at most shortCSIMax bytes, in one step:
// P a parameter byte 0x30–0x3B, or a private marker 0x3C–0x3F as the
// first, F a final byte 0x40–0x7E. (stepsGo steps it byte by byte.) It
// reads the records and the state of that step off the table's own
// steps, and marks nothing unless the table proves them the same for
// every such sequence from every ground row: ESC is alone in its class
// (steps does not look at the byte again), leads every row to one state
// and writes at most one record there (the text run), ESC [ and every P
// on the way write none and take no special step, and each F writes one
// record and reaches one state from every row the P lead to.
func (t *scanTable) fuseShortCSI() {
	at := func(s uint32, b byte) (uint32, uint16) {
		k := s + uint32(t.class[b])
		return uint32(t.next[k]), t.info[k]
	}
	quiet := func(f uint16) bool { return f&(infoSpecial|infoCount) == 0 }
	for b := range 256 {
		if b != 0x1B && t.class[b] == t.class[0x1B] {
			return // steps takes the byte of the marked step for an ESC
		}
	}
	esc, _ := at(scanGround, 0x1B)
	for s := uint32(scanGround); s <= scanText; s += scanWidth {
		if n, f := at(s, 0x1B); n != esc || f&(infoSpecial|infoMany) != 0 {
			return
		}
	}
	entry, f := at(esc, '[')
	if !quiet(f) {
		return
	}
	// The rows a final byte may be stepped from: entry, and those its
	// parameter bytes lead to, up to shortCSIMax-3 of them.
	rows := []uint32{entry}
	seen := map[uint32]bool{entry: true}
	for from, depth := 0, 0; depth < shortCSIMax-3; depth++ {
		to := len(rows)
		for _, s := range rows[from:to] {
			last := byte(0x3B)
			if s == entry {
				last = 0x3F
			}
			for b := byte(0x30); b <= last; b++ {
				n, f := at(s, b)
				if !quiet(f) {
					return
				}
				if !seen[n] {
					seen[n] = true
					rows = append(rows, n)
				}
			}
		}
		from = to
	}
	var recs [256]Record
	next := -1
	for b := 0x40; b <= 0x7E; b++ {
		keep := Record(b)<<8 | ^Record(0xFF00)
		for k, s := range rows {
			n, f := at(s, byte(b))
			if f&(infoSpecial|infoMany|infoShortCSI) != 0 || f&infoCount != 1 || (next >= 0 && int(n) != next) {
				return
			}
			next = int(n)
			r := t.emits[f>>infoEmitShift][0] & keep
			if k > 0 && r != recs[b] {
				return
			}
			recs[b] = r
		}
	}
	t.csiRec, t.csiNext = recs, uint16(next)
	for k := range t.csiAt {
		t.csiAt[k] = [2]Record{Record(k) << 24, Record(k) << 24}
	}
	for s := uint32(scanGround); s <= scanText; s += scanWidth {
		t.info[s+uint32(t.class[0x1B])] |= infoShortCSI
	}
}
