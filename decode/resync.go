package decode

import "encoding/binary"

// Synchronizing bytes. Every state of the DEC parser has a transition on
// CAN (0x18) and SUB (0x1A) back to ground ("anywhere" transitions;
// ECMA-48 8.3.13, 8.3.148), and one on ESC that ends whatever was open
// and begins a new escape sequence, except in a control string, where
// ESC waits for the next byte: '\' completes ST (ECMA-48 8.3.143) and
// returns to ground, anything else aborts the string and is read as the
// escape's first byte. So a decoder in any state, fed CAN, SUB, or ESC
// and one more byte, reaches the state a decoder in ground reaches on the
// same bytes: the runs from every start state converge there, and what
// came before no longer matters.

// LastSync returns the index in p of the last synchronizing point: a CAN
// or SUB, or an ESC that is not p's last byte. A decoder restarted in
// ground at that index (Restart) and fed p from there is in the state
// every decoder, whatever its state before it, is in after p. It returns
// -1 when p holds no synchronizing point.
func LastSync(p []byte) int {
	for i := len(p) - 1; i >= 0; {
		// Sixteen, then eight bytes at a time, back from the end: a byte
		// 0x18–0x1B (CAN, EM, SUB, ESC) makes a zero byte of a word
		// masked and offset below; the candidates are then checked one
		// by one.
		if i >= 15 {
			w, v := binary.LittleEndian.Uint64(p[i-7:]), binary.LittleEndian.Uint64(p[i-15:])
			y, x := w&(ones*0xFC)^ones*0x18, v&(ones*0xFC)^ones*0x18
			if ((y-ones)&^y|(x-ones)&^x)&highs == 0 {
				i -= 16
				continue
			}
		}
		if i >= 7 {
			w := binary.LittleEndian.Uint64(p[i-7:])
			y := w&(ones*0xFC) ^ ones*0x18
			if (y-ones)&^y&highs == 0 {
				i -= 8
				continue
			}
		}
		for j := i; j >= max(0, i-7); j-- {
			switch p[j] {
			case 0x18, 0x1A:
				return j
			case 0x1B:
				if j+1 < len(p) {
					return j
				}
			}
		}
		i -= 8
	}
	return -1
}

// Restart puts d in ground at stream offset off, with nothing open, its
// options (LoneC1, APCBEL, MaxPayload) kept: the state of a decoder just
// before a synchronizing point (LastSync) as far as every later byte is
// concerned.
func (d *Decoder) Restart(off int64) {
	*d = Decoder{LoneC1: d.LoneC1, APCBEL: d.APCBEL, MaxPayload: d.MaxPayload, off: off}
}

// Skip advances d over p, which continues the stream, emitting nothing:
// it ends in the state Feed(p) would leave, but decodes p only from its
// last synchronizing point (LastSync), when it has one.
func (d *Decoder) Skip(p []byte) {
	if k := LastSync(p); k >= 0 {
		off := d.off
		d.Restart(off + int64(k))
		p = p[k:]
	}
	d.Feed(p, func(*Token) {})
}

// NextNonPrintable returns the index of the first byte of p at or after
// i that is not printable ASCII (0x20–0x7E), or len(p), looking at eight
// bytes at a time: the scan the decoder's ground state makes over text.
func NextNonPrintable(p []byte, i int) int {
	i = skipPrintable(p, i)
	for i < len(p) && p[i] >= 0x20 && p[i] < 0x7F {
		i++
	}
	return i
}
