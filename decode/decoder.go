package decode

import (
	"encoding/binary"
	"iter"
	"math/bits"
)

// state is a DEC parser state (Williams), reduced to what bytelens needs:
// DCS is parsed as a control string whose parameters are read back from
// the payload prefix when it is named, and CSI entry and CSI param are one
// state because the private marker is recognised by position.
type state uint8

const (
	stateGround             state = iota // ground
	stateEscape                          // escape
	stateEscapeIntermediate              // escape intermediate
	stateCSIParam                        // CSI entry and CSI param
	stateCSIIntermediate                 // CSI intermediate
	stateCSIIgnore                       // CSI ignore: malformed, consumed to its final byte
	stateCSIAbortChar                    // a non-ASCII character aborting a CSI, split across Feed calls
	stateString                          // OSC string, DCS passthrough, SOS/PM/APC string, ESC k string
	stateStringEsc                       // an ESC inside a control string: ST or an abort
)

// Decoder is a streaming decoder of terminal byte streams. Its zero value
// is ready to use with the default grammar; the exported fields select the
// alternatives DESIGN.md names and must not change mid-stream.
//
// A Decoder holds fixed-size arrays only, no slices, maps or pointers:
// copying it (cp := d) takes a checkpoint from which decoding resumes
// identically.
type Decoder struct {
	// LoneC1 treats each raw byte 0x80–0x9F that is not part of a UTF-8
	// unit as a single control that introduces nothing (for legacy 8-bit
	// text such as CP1252). By default such bytes introduce what 8-bit
	// terminals introduce: 9B CSI, 9D OSC, 90 DCS, 98 SOS, 9E PM, 9F APC.
	LoneC1 bool
	// APCBEL ends an APC string at BEL, as Buildkite's timestamp APCs
	// expect. By default BEL is APC payload, as in xterm.
	APCBEL bool
	// MaxPayload is the payload length in bytes past which a control
	// string is flagged FlagOverlong; 0 means DefaultMaxPayload. The
	// payload is never buffered, whatever its length.
	MaxPayload int64

	off   int64 // offset of the next byte to be fed
	state state
	tok   Token // the escape, sequence or string in progress
	one   Token // the last single token emitted (text, controls, invalid, format)

	// A UTF-8 unit split across Feed calls.
	u8     [4]byte
	u8n    uint8
	u8need uint8
	u8off  int64

	// CSI parameters.
	np       uint16 // index of the current parameter, saturating
	anyParam bool

	// Control strings.
	cmdDone  bool  // the OSC number has been read
	strRem   uint8 // continuation bytes still expected by a UTF-8 unit in the payload
	strLead  byte  // that unit's lead byte
	strLo    byte  // accepted range of the next continuation byte
	strHi    byte
	escOff   int64 // offset of an ESC seen inside a string
	overlong int64 // MaxPayload, resolved when the string begins
}

// Offset returns the stream offset in bytes of the next byte to be fed.
func (d *Decoder) Offset() int64 { return d.off }

// InGround reports whether the decoder is between tokens, with no
// sequence, string or UTF-8 unit open. Checkpoints taken in ground resume
// without replaying anything.
func (d *Decoder) InGround() bool { return d.state == stateGround && d.u8n == 0 }

// Feed decodes p, which continues the stream, and calls emit for each
// token that ends inside p, in stream order. It consumes all of p and never
// fails. A text run is emitted in pieces at Feed boundaries; a sequence,
// string or UTF-8 unit open at the end of p is carried to the next Feed.
// The *Token passed to emit belongs to the decoder and is valid only
// during the call: emit must not modify or retain it (copy the value to
// keep it), nor retain p. Feed does not allocate.
func (d *Decoder) Feed(p []byte, emit func(*Token)) {
	base := d.off
	i := 0
	if d.u8n > 0 {
		i = d.resumeUTF8(p, emit)
	}
	for i < len(p) {
		switch d.state {
		case stateGround:
			i = d.ground(p, i, base, emit)
		case stateEscape, stateEscapeIntermediate:
			i = d.escape(p, i, base, emit)
		case stateCSIParam, stateCSIIntermediate, stateCSIIgnore:
			i = d.csi(p, i, base, emit)
		case stateString:
			i = d.str(p, i, base, emit)
		case stateStringEsc:
			i = d.stringEsc(p, i, base, emit)
		}
	}
	d.off = base + int64(len(p))
}

// End reports what is still open at the end of the stream: a cut UTF-8
// unit as KindInvalid, an open escape, CSI or control string with
// FlagUnterminated (its Len is the bytes it swallowed). The decoder is
// then back in ground at the same offset, its options kept.
func (d *Decoder) End(emit func(*Token)) {
	if d.u8n > 0 {
		if d.state == stateCSIAbortChar {
			d.tok.Flags |= FlagAborted
			d.tok.Abort = AbortNonASCII
			d.finish(d.off, emit)
		} else {
			d.single(emit, KindInvalid, d.u8off, int64(d.u8n), 0, IntroNone, 0, 0)
		}
		d.u8n = 0
	}
	if d.state == stateString && d.strRem > 0 && d.strLead == 0xC2 && !d.cmdDone {
		d.endCommand() // the C2 that might have begun U+009C is payload
	}
	if d.state != stateGround {
		d.tok.Flags |= FlagUnterminated
		d.finish(d.off, emit)
	}
}

// Tokens returns the tokens of p decoded as a whole stream from d's
// state (a checkpoint, or the zero Decoder), End included. d is not
// changed.
func (d Decoder) Tokens(p []byte) iter.Seq[Token] {
	return func(yield func(Token) bool) {
		const chunk = 64 << 10
		dec := d
		ok := true
		emit := func(t *Token) {
			if ok {
				ok = yield(*t)
			}
		}
		for len(p) > 0 && ok {
			n := min(len(p), chunk)
			dec.Feed(p[:n], emit)
			p = p[n:]
		}
		if ok {
			dec.End(emit)
		}
	}
}

// Tokens returns the tokens of p decoded as a whole stream with the default
// grammar.
func Tokens(p []byte) iter.Seq[Token] { return Decoder{}.Tokens(p) }

// isText marks the ASCII bytes that are text: printable ASCII, TAB and LF.
var isText = [128]bool{'\t': true, '\n': true}

func init() {
	for b := 0x20; b < 0x7F; b++ {
		isText[b] = true
	}
}

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

// ground scans text from p[i:] and handles the first byte that is not text.
// DEC parser state: ground; ECMA-48 5.1 (C0), 5.2 (C1).
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
		// Fast path for characters whose lead byte rules out controls and
		// format characters (plainLead): check the continuation bytes
		// only, for as many such characters as follow. Written out here
		// because the compiler does not inline it; TestPlainUTF8 checks it
		// against decodeUTF8.
		if j := i; plainLead[b] != 0 {
			for i < n {
				c := p[i]
				if w := plainLead[c]; w == 2 && i+1 < n && p[i+1]&0xC0 == 0x80 {
					i += 2
				} else if w == 3 && i+2 < n && p[i+1]&0xC0 == 0x80 && p[i+2]&0xC0 == 0x80 && (c != 0xE0 || p[i+1] >= 0xA0) {
					i += 3
				} else {
					break
				}
			}
			if i > j {
				continue
			}
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
			i += size
			continue
		}
		d.text(start, i, base, emit)
		if cls == utfShort {
			d.saveUTF8(p[i:], base+int64(i))
			return n
		}
		i += d.unit(r, size, cls, base+int64(i), emit)
		if d.state != stateGround {
			return i
		}
		start = i
	}
	d.text(start, i, base, emit)
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
// index of the next byte to read. ESC goes straight on to the byte after
// it when p holds one.
func (d *Decoder) control(p []byte, i int, base int64, emit func(*Token)) int {
	off := base + int64(i)
	switch b := p[i]; b {
	case 0x1B:
		d.begin(KindESC, Intro7Bit, off)
		d.state = stateEscape
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

// unit handles one non-text unit of size bytes at off that decodeUTF8
// classified as cls: in ground it becomes a token or opens a sequence; in
// stateCSIAbortChar it ends the aborted CSI. It returns size.
func (d *Decoder) unit(r rune, size int, cls utfClass, off int64, emit func(*Token)) int {
	if d.state == stateCSIAbortChar {
		if cls != utfC1 {
			d.tok.Flags |= FlagAborted
			d.tok.Abort = AbortNonASCII
			d.finish(off+int64(size), emit)
			return size
		}
		d.abort(AbortC1, off, emit) // a C1 introducer completed across Feed calls
	}
	switch cls {
	case utfText:
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
	return size
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
	if kind == KindCSI {
		d.state = stateCSIParam
	} else {
		d.beginString()
	}
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

// single emits a token that has no parameters and no payload, reusing
// d.one: only the fields such tokens use are set, the rest stay zero.
func (d *Decoder) single(emit func(*Token), kind Kind, off, n int64, final byte, intro Intro, flags Flags, r rune) {
	t := &d.one
	t.Off, t.Len, t.Kind, t.Final, t.Intro, t.Flags, t.Rune, t.Command = off, n, kind, final, intro, flags, r, -1
	emit(t)
}
