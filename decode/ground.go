package decode

import (
	"encoding/binary"
	"math/bits"
)

// ground scans text from p[i:] and handles the first byte that is not
// text: C0 and DEL are executed (single tokens), ESC enters escape, a C1
// control (a raw byte 80–9F or C2 80–C2 9F) is executed or enters the
// state of what it introduces, and UTF-8 is decoded into text, format
// characters and maximal subparts of ill-formed units. DEC parser state:
// ground; ECMA-48 5.1 (C0), 5.2 (C1).
func (d *Decoder) ground(p []byte, i int, base int64, emit func(*Token)) int {
	start := i
	n := len(p)
	for i < n {
		b := p[i]
		if b < 0x80 {
			if !isText[b] {
				d.text(start, i, base, emit)
				i = d.control(p, i, base, emit)
				if d.state != stateGround {
					return i
				}
				start = i
				continue
			}
			i = skipPrintable(p, i+1)
			continue
		}
		// Characters whose lead byte rules out controls and format
		// characters, and the text after them (skipText).
		if j := skipText(p, i); j > i {
			i = j
			continue
		}
		if b >= 0xA0 && b < 0xC2 || b > 0xF4 {
			// A byte that can neither start a character nor be a C1
			// control is an invalid unit by itself.
			d.text(start, i, base, emit)
			d.single(emit, KindInvalid, base+int64(i), 1, 0, IntroNone, 0, 0)
			i++
			start = i
			continue
		}
		r, size, cls := decodeUTF8(p[i:])
		if cls == utfText {
			// The one place where Feed meets a non-ASCII blank in text
			// in one piece: their lead bytes are not in plainLead.
			d.blanks += isBlank(r)
			i += size
			continue
		}
		d.text(start, i, base, emit)
		if cls == utfShort {
			d.saveUTF8(p[i:], base+int64(i))
			return n
		}
		d.unit(r, size, cls, base+int64(i), emit)
		i += size
		if d.state != stateGround {
			return i
		}
		start = i
	}
	d.text(start, i, base, emit)
	return i
}

// skipText returns the index of the first byte of p at or after i that
// does not go on a run of text in ground: the run holds printable ASCII,
// TAB and LF and the characters whose lead byte rules out C1 controls and
// format characters (plainLead), whole in p, with only their continuation
// bytes checked. It stops at any other byte: a C0 control, DEL, a lead
// byte that may start a C1 control, a format character, a surrogate or a
// character of 4 bytes (decodeUTF8 decides those), an ill-formed unit and
// a character cut by the end of p. Past its first 8 bytes, a run that
// holds a character of 2 or 3 bytes goes eight bytes at a time
// (skipWords) until fewer than eight are left or a word holds the byte
// that ends the run, which skipRunes then finds. Feed's ground and
// Scan's text path both use it; TestPlainUTF8 checks it against
// decodeUTF8, TestSkipWords and FuzzSkipText against skipRunes.
func skipText(p []byte, i int) int {
	for i < len(p) && textLen[p[i]] == 1 {
		i = skipPrintable(p, i+1)
	}
	if i == len(p) || textLen[p[i]] < 2 {
		return i
	}
	// A run that ends within a few characters (random bytes, a word
	// between escapes) ends in the character loop; a longer one goes on
	// by words.
	j := skipRunes(p, i, i+8)
	if j < i+8 {
		return j
	}
	return skipRunes(p, skipWords(p, j), len(p))
}

// skipRunes is skipText one character at a time (ASCII eight bytes at a
// time), up to the first character that begins at or after end: it finds
// where a short run ends, and where the run ends in the word skipWords
// stopped at.
func skipRunes(p []byte, i, end int) int {
	n := len(p)
	for i < n && i < end {
		// One branch on the table for the bytes that stop the run, so
		// that a run ended at random (escapes, controls) costs one
		// predictable exit.
		c := p[i]
		switch w := textLen[c]; {
		case w == 0:
			return i
		case w == 1:
			i = skipPrintable(p, i+1)
		case w == 2 && i+1 < n && p[i+1]&0xC0 == 0x80:
			i += 2
		case w == 3 && i+2 < n && p[i+1]&0xC0 == 0x80 && p[i+2]&0xC0 == 0x80 && (c != 0xE0 || p[i+1] >= 0xA0):
			i += 3
		default:
			return i
		}
	}
	return i
}

// The classes of wordClass, one bit each; a byte may have two.
const (
	clsText     = 0x01 // printable ASCII, TAB, LF
	clsCont     = 0x02 // a continuation byte 80–BF
	clsLead     = 0x04 // the lead of a character in plainLead
	clsLead3    = 0x08 // the lead of a 3-byte character in plainLead, also clsLead
	clsE0       = 0x10 // E0, also clsLead3: its second byte is A0–BF
	clsContHigh = 0x20 // a continuation byte A0–BF, also clsCont
)

// wordClass gives each byte its classes for skipWords; a byte in none
// (0) ends a run of text.
var wordClass = func() (t [256]uint8) {
	for b := range 256 {
		switch w := textLen[b]; {
		case w == 1:
			t[b] = clsText
		case w == 2:
			t[b] = clsLead
		case w == 3:
			t[b] = clsLead | clsLead3
		case b >= 0x80 && b <= 0xBF:
			t[b] = clsCont
		}
	}
	t[0xE0] |= clsE0
	for b := 0xA0; b <= 0xBF; b++ {
		t[b] |= clsContHigh
	}
	return t
}()

// pairClass gives the classes (wordClass) of two bytes b0, b1 read as the
// little-endian uint16 b0 | b1<<8, in the same lanes: a word's classes
// are four loads (128 KiB, of which text of a few scripts uses a few
// lines). init fills it in place (a function returning it would copy
// 128 KiB through its stack).
var pairClass [1 << 16]uint16

func init() {
	for b1, c1 := range wordClass {
		for b0, c0 := range wordClass {
			pairClass[b1<<8|b0] = uint16(c0) | uint16(c1)<<8
		}
	}
}

// wordCarry is what a word of text calls for in the next: the
// continuation bytes (in the lanes' clsCont bit) and the bytes that
// must be A0–BF (clsContHigh bit) of the character that it ends in.
type wordCarry struct{ cont, high uint64 }

// checkWord checks the word whose bytes have the classes x (one lane
// each, pairClass), after a word that left c: no byte of no class, every
// continuation byte one that a lead before it calls for and none other,
// and the byte after E0 at least A0 (Unicode 15 Table 3-7). It returns
// nonzero for a word that does not lie wholly in a run of text, and what
// the word leaves for the next.
func checkWord(x uint64, c wordCarry) (bad uint64, next wordCarry) {
	const lead, lead3, e0, cont = ones * clsLead, ones * clsLead3, ones * clsE0, ones * clsCont
	// One continuation byte after each lead (clsLead to clsCont, a lane
	// up), a second after a 3-byte lead, A0–BF after E0 (clsE0 to
	// clsContHigh); the leads of the top lanes call for bytes of the
	// next word.
	l, l3, z := x&lead, x&lead3, x&e0
	want, high := l<<7|l3<<14|c.cont, z<<9|c.high
	// A lane of class 0 borrows: no lane holds a high bit to begin with.
	bad = (x-ones)&highs | (x&cont ^ want) | high&^x
	return bad, wordCarry{l>>57 | l3>>50, z >> 55}
}

// wordAt returns the classes (pairClass) of the 8 bytes of p from i.
func wordAt(p []byte, i int) uint64 {
	w := binary.LittleEndian.Uint64(p[i:])
	return uint64(pairClass[uint16(w)]) | uint64(pairClass[uint16(w>>16)])<<16 |
		uint64(pairClass[uint16(w>>32)])<<32 | uint64(pairClass[w>>48])<<48
}

// skipWords returns the index of the first 8-byte word of p[i:] that does
// not lie wholly in a run of text (skipText), or of the character that
// begins before it and ends in it; i is where a character begins. Each
// word's bytes are classed into the lanes of one uint64 (wordAt) and
// checked with no branch (checkWord); words go four at a time, with one
// branch (7–19 % faster than two on plain text). The loop carries no
// dependency on the bytes but the carry, so the words overlap.
func skipWords(p []byte, i int) int {
	var c wordCarry
	var x uint64 // the classes of the last word that passed
	for ; i+32 <= len(p); i += 32 {
		x0, x1, x2, x3 := wordAt(p, i), wordAt(p, i+8), wordAt(p, i+16), wordAt(p, i+24)
		bad0, c0 := checkWord(x0, c)
		bad1, c1 := checkWord(x1, c0)
		bad2, c2 := checkWord(x2, c1)
		bad3, c3 := checkWord(x3, c2)
		if bad0|bad1|bad2|bad3 != 0 {
			break
		}
		x, c = x3, c3
	}
	// The last words, or those of the four that did not pass.
	for ; i+8 <= len(p); i += 8 {
		x0 := wordAt(p, i)
		bad, c0 := checkWord(x0, c)
		if bad != 0 {
			break
		}
		x, c = x0, c0
	}
	if c.cont == 0 {
		return i
	}
	// The character began at a lead in the top two lanes of x.
	return i - int(x>>51&1*2|x>>58&1)
}

// textLen gives, for each byte that may go on a run of text in ground
// (skipText), the length in bytes of what it starts: 1 for printable
// ASCII, TAB and LF, plainLead for the lead bytes of plain characters; 0
// for every other byte.
var textLen = func() (t [256]uint8) {
	t = plainLead
	t['\t'], t['\n'] = 1, 1
	for b := 0x20; b < 0x7F; b++ {
		t[b] = 1
	}
	return t
}()

// isText marks the ASCII bytes that are text: printable ASCII, TAB and LF.
var isText = func() (t [128]bool) {
	t['\t'], t['\n'] = true, true
	for b := 0x20; b < 0x7F; b++ {
		t[b] = true
	}
	return t
}()

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skipPrintable returns the index of the first byte of p at or after i
// that is not printable ASCII (0x20–0x7E), scanning eight bytes at a time;
// fewer than eight bytes before the end of p it returns without looking.
// The loop carries no dependency on the bytes it scans (the mask is only
// tested), so the scans overlap.
func skipPrintable(p []byte, i int) int {
	for i+8 <= len(p) {
		w := binary.LittleEndian.Uint64(p[i:])
		below := (w - ones*0x20) &^ w // high bit set in the first byte < 0x20
		x := w ^ (ones * 0x7F)
		del := (x - ones) &^ x // high bit set in the first byte == 0x7F
		// Borrows only run upwards, so the lowest flagged byte is exact.
		if m := (w | below | del) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	return i
}

// plainLead gives the length in bytes of the characters that a lead byte
// starts when none of them can be a C1 control, a surrogate or a format
// character (leadMayStartFormat): 2 for C3–DF, 3 for E0 (whose second byte
// must be A0–BF) to EE but ED, except the leads of format characters; 0
// for every other byte.
var plainLead = func() (t [256]uint8) {
	for b := 0xC3; b <= 0xEE; b++ {
		switch {
		case b == 0xED || leadMayStartFormat(byte(b)):
		case b <= 0xDF:
			t[b] = 2
		default:
			t[b] = 3
		}
	}
	return t
}()

// text emits p[start:end] as one text token.
func (d *Decoder) text(start, end int, base int64, emit func(*Token)) {
	if end > start {
		d.single(emit, KindText, base+int64(start), int64(end-start), 0, IntroNone, 0, 0)
	}
}

// control handles the ASCII control byte p[i] in ground and returns the
// index of the next byte to read: ESC enters escape (and goes straight on
// to the byte after it when p holds one), DEL and the C0 controls are
// executed.
func (d *Decoder) control(p []byte, i int, base int64, emit func(*Token)) int {
	off := base + int64(i)
	switch b := p[i]; b {
	case 0x1B:
		d.begin(KindESC, Intro7Bit, off)
		if i+1 < len(p) {
			return d.escape(p, i+1, base, emit)
		}
	case 0x7F:
		d.single(emit, KindDEL, off, 1, b, IntroNone, 0, 0)
	default:
		d.single(emit, KindC0, off, 1, b, IntroNone, 0, 0)
	}
	return i + 1
}

// unit handles in ground one non-text unit of size bytes at off that
// decodeUTF8 classified as cls: it becomes a token or opens a sequence.
func (d *Decoder) unit(r rune, size int, cls utfClass, off int64, emit func(*Token)) {
	switch cls {
	case utfText:
		d.blanks += isBlank(r)
		d.single(emit, KindText, off, int64(size), 0, IntroNone, 0, r)
	case utfInvalid:
		d.single(emit, KindInvalid, off, int64(size), 0, IntroNone, 0, 0)
	case utfFormat:
		d.single(emit, KindFormat, off, int64(size), 0, IntroNone, 0, r)
	case utfRawC1:
		d.c1(byte(r), Intro8Bit, off, 1, emit)
	case utfC1:
		d.c1(byte(r), IntroUTF8, off, 2, emit)
	}
}

// c1 handles the C1 control code c (0x80–0x9F) spelled intro, size bytes
// at off: an introducer opens its sequence or string, any other code is a
// single control. ECMA-48 5.2, 8.3.
func (d *Decoder) c1(c byte, intro Intro, off int64, size int, emit func(*Token)) {
	kind := KindC1
	if intro != Intro8Bit || !d.LoneC1 {
		kind = c1Kind(c)
	}
	if kind == KindC1 {
		d.single(emit, KindC1, off, int64(size), c, intro, 0, 0)
		return
	}
	d.begin(kind, intro, off)
}

// c1Kind returns what the C1 code c introduces, or KindC1 for a single
// control.
func c1Kind(c byte) Kind {
	switch c {
	case 0x9B:
		return KindCSI
	case 0x9D:
		return KindOSC
	case 0x90:
		return KindDCS
	case 0x98:
		return KindSOS
	case 0x9E:
		return KindPM
	case 0x9F:
		return KindAPC
	}
	return KindC1
}

// TextPrefix returns the length in bytes of the longest prefix of p made
// of whole characters that ground decodes as text and nothing else:
// printable ASCII, TAB, LF, and the 2- and 3-byte UTF-8 characters whose
// lead byte rules out C1 controls, surrogates and format characters
// (plainLead). It stops early at text it does not check (4-byte
// characters, leads that may start a format character) as well as at
// controls, ESC, ill-formed UTF-8 and a character cut by the end of p.
func TextPrefix(p []byte) int {
	i, _ := textPrefix(p)
	return i
}

// textPrefix is TextPrefix (skipText for a short p, without a call per
// ASCII byte), with the length (plainLead) of the character
// that begins p[i:] when it is cut by the end of p, else 0.
func textPrefix(p []byte) (i, cut int) {
	n := len(p)
	for {
		if i+8 < n { // skipPrintable is a call: not for a short p
			i = skipPrintable(p, i)
		}
		for i < n && textLen[p[i]] == 1 {
			i++
		}
		if i == n {
			return n, 0
		}
		switch b := p[i]; textLen[b] {
		case 2:
			if i+1 == n {
				return i, 2
			}
			if p[i+1]&0xC0 != 0x80 {
				return i, 0
			}
			i += 2
		case 3:
			if i+1 < n && (p[i+1]&0xC0 != 0x80 || b == 0xE0 && p[i+1] < 0xA0) {
				return i, 0
			}
			if i+2 >= n {
				return i, 3 // cut: one byte, or two of three
			}
			if p[i+2]&0xC0 != 0x80 {
				return i, 0
			}
			i += 3
		default:
			return i, 0
		}
	}
}

// AppendText consumes all of p, which continues the stream, when all
// Feed would do with it is emit text: complete, in state utf8, the
// character cut by the last Feed as one TextPrefix accepts, take whole
// characters TextPrefix accepts, and keep the start of such a character
// cut by the end of p. It then emits nothing, appends the text (the kept
// start of the character the last Feed cut, then p[:len(p)-cut]) to dst,
// returns it, cut, the bytes of p that start a character cut by its end,
// and ok; d is as Feed over p would leave it. Otherwise it returns dst,
// 0 and false, and d is unchanged.
func (d *Decoder) AppendText(dst, p []byte) (text []byte, cut int, ok bool) {
	if !d.InText() {
		return dst, 0, false
	}
	n := 0
	if d.state == stateUTF8 {
		// The kept bytes are a well-formed prefix (saveUTF8): the lead
		// and the bytes that end the character decide.
		have, need, lead := int(d.u8n), int(d.u8need), d.u8[0]
		if n = need - have; int(textLen[lead]) != need || n > len(p) || lead == 0xE0 && have == 1 && p[0] < 0xA0 {
			return dst, 0, false
		}
		for _, b := range p[:n] {
			if b&0xC0 != 0x80 {
				return dst, 0, false
			}
		}
	}
	k, w := textPrefix(p[n:])
	if n += k; n < len(p) && w == 0 {
		return dst, 0, false
	}
	if d.state == stateUTF8 {
		dst = append(dst, d.u8[:d.u8n]...)
		d.u8n, d.state = 0, stateGround
	}
	dst = append(dst, p[:n]...)
	if n < len(p) {
		d.saveUTF8(p[n:], d.off+int64(n))
	}
	d.off += int64(len(p))
	d.fed += int64(len(p)) // and no blank: none has a lead in plainLead
	return dst, len(p) - n, true
}

// InText reports whether d is in ground or inside a character cut by the
// end of the last Feed in ground (state utf8): whether AppendText may take
// anything.
func (d *Decoder) InText() bool { return d.state <= stateUTF8 }
