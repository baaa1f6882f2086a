package decode

import (
	"encoding/binary"
	"math/bits"
)

// ground is the DEC parser's ground state: text, and the controls that
// interrupt it (ECMA-48 5.1 C0, 5.2 C1, 5.3 escape). Text is what no token
// covers: the builder emits the gaps between the other tokens as text, so
// text bytes have no op. The UTF-8 units that start here are in utf8.go.
func ground(b byte, o options) step {
	switch {
	case b >= 0x20 && b < 0x7F || b == '\t' || b == '\n':
		return to(sGround)
	case b == 0x1B:
		return to(sEscape, op{code: opBeginESC})
	case b < 0x20:
		return to(sGround, op{code: opC0})
	case b == 0x7F:
		return to(sGround, op{code: opDEL})
	case b <= 0x9F:
		return c1(b, Intro8Bit, o)
	case b < 0xC2 || b > 0xF4:
		return to(sGround, op{code: opInvalid}) // can neither start a character nor be C1
	}
	u := leadUnit(b)
	u.check = checkLead[b]
	return to(stateDesc{fam: famGroundUnit, u: u})
}

// c1 handles the C1 control code c (0x80–0x9F) spelled intro: an
// introducer opens its sequence or string, any other code is a single
// control (ECMA-48 5.2, 8.3). Under LoneC1 a raw byte introduces nothing.
func c1(c byte, intro Intro, o options) step {
	kind := KindC1
	if intro != Intro8Bit || !o.loneC1 {
		kind = c1Kind(c)
	}
	single, begin := opC1, opBeginC1
	if intro == IntroUTF8 {
		single, begin = opC1UTF8, opBeginC1UTF8
	}
	if kind == KindC1 {
		return to(sGround, op{code: single})
	}
	return to(opened(kind, intro, o), op{code: begin})
}

// opened returns the state after the introducer of a CSI or control
// string of kind spelled intro.
func opened(kind Kind, intro Intro, o options) stateDesc {
	if kind == KindCSI {
		return sCSI
	}
	return stateDesc{fam: famString, g: group{
		bel: kind == KindOSC || kind == KindScreenTitle || kind == KindAPC && o.apcBEL,
		c1:  intro != Intro7Bit,
	}}
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

// skipText returns the index just past the run of text from p[i:] that
// needs no state: printable ASCII (eight bytes at a time), TAB, LF and
// plain multi-byte characters (skipPlainUTF8). The machine reads what
// stops it, as it would read the run byte by byte (TestFastPathAgrees).
func skipText(p []byte, i int) int {
	for i < len(p) {
		b := p[i]
		switch {
		case b >= 0x20 && b < 0x7F:
			i = skipPrintable(p, i+1)
		case b == '\n' || b == '\t':
			i++
		case plainLead[b] != 0:
			j := skipPlainUTF8(p, i)
			if j == i {
				return i
			}
			i = j
		default:
			return i
		}
	}
	return i
}

// skipPlainUTF8 returns the index just past the run of whole characters
// from p[i:] whose lead byte rules out controls and format characters
// (plainLead), checking their continuation bytes only. TestPlainUTF8
// checks it against the unit states.
func skipPlainUTF8(p []byte, i int) int {
	n := len(p)
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
	return i
}
