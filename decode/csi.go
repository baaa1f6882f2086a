package decode

import (
	"encoding/binary"
	"math/bits"
)

// A control sequence (ECMA-48 5.4) is read twice. The machine (csi) only
// finds where it ends: every parameter, intermediate or stray byte
// 0x20–0x3F keeps it open and any final byte 0x40–0x7E ends it, whatever
// came before, so the DEC states CSI entry, CSI param, CSI intermediate and
// CSI ignore are one state there. The builder then reads the bytes of the
// sequence through those four states (csiEntry … csiIgnore below), which
// decide its parameters, private marker, intermediates and whether it is
// malformed.

// csi is the machine's CSI state: DEC parser CSI entry, param,
// intermediate and ignore; ECMA-48 5.4.
func csi(b byte, o options) step {
	switch {
	case b >= 0x40 && b <= 0x7E:
		return to(sGround, op{code: opEndFinal})
	case b >= 0x20 && b <= 0x3F:
		return to(sCSI)
	case b < 0x80:
		return inSequence(b, sCSI)
	case b <= 0x9F && !o.loneC1:
		// A raw C1 control aborts the CSI and starts afresh (the DEC
		// parser's "anywhere" transitions).
		return redo(sGround, op{code: opAbort, n: uint8(AbortC1)})
	case b < 0xC2 || b > 0xF4:
		return to(sGround, op{code: opAbortAt}) // a lone byte, dropped with the CSI
	}
	return to(stateDesc{fam: famCSIUnit, u: leadUnit(b)})
}

// skipParams returns the index of the first byte of p at or after i that
// is not a parameter or intermediate byte (0x20–0x3F: the top three bits
// 001), eight bytes at a time, then byte by byte.
func skipParams(p []byte, i int) int {
	for i+8 <= len(p) {
		if x := binary.LittleEndian.Uint64(p[i:])&(ones*0xE0) ^ ones*0x20; x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < len(p) && p[i]&0xE0 == 0x20 {
		i++
	}
	return i
}

// csiState is where the builder's reading of a CSI's bytes stands.
type csiState uint8

const (
	csiEntry        csiState = iota // CSI entry: a private marker may come
	csiParam                        // CSI param
	csiIntermediate                 // CSI intermediate
	csiIgnore                       // CSI ignore: malformed, read to its final byte
)

// csiBytes reads bytes of a CSI between its introducer and its final byte
// (or its end, when it was cut short). C0 controls executed inside it,
// DEL and a non-ASCII character that aborted it are skipped.
func (d *Decoder) csiBytes(p []byte) {
	for i := 0; i < len(p); i++ {
		b := p[i]
		if b < 0x20 || b >= 0x7F {
			continue
		}
		switch d.cs {
		case csiEntry:
			d.csiEntry(b)
		case csiParam:
			if d.np >= MaxParams {
				// Past the stored parameters only separators count.
				i = d.countSeparators(p, i)
				continue
			}
			if b >= '0' && b <= '9' {
				i = d.digits(p, i)
				continue
			}
			d.csiParam(b)
		case csiIntermediate:
			d.csiIntermediate(b)
		}
	}
}

// csiEntry is the DEC parser's CSI entry: the byte after the introducer.
// A private marker 0x3C–0x3F is kept (ECMA-48 5.4.1 reserves them for
// private use); anything else is read as in CSI param.
func (d *Decoder) csiEntry(b byte) {
	d.cs = csiParam
	if b >= 0x3C && b <= 0x3F {
		d.tok.Private = b
		return
	}
	d.csiParam(b)
}

// csiParam is the DEC parser's CSI param: digits, ';' and ':' separators
// (ECMA-48 5.4.2, ITU T.416 sub-parameters). A private marker here, after
// the first byte, makes the sequence malformed.
func (d *Decoder) csiParam(b byte) {
	t := &d.tok
	switch {
	case b >= '0' && b <= '9':
		d.anyParam = true
		if d.np < MaxParams {
			t.Param[d.np] = uint16(addDigit(t, uint32(t.Param[d.np]), b))
		}
	case b == ';' || b == ':':
		d.anyParam = true
		if d.np < 0xFFFF {
			d.np++
		}
		if d.np >= MaxParams {
			t.Flags |= FlagOverflow
		} else if b == ':' {
			t.Sub |= 1 << d.np
		}
	case b >= 0x3C && b <= 0x3F:
		d.malformed()
	case b >= 0x20 && b <= 0x2F:
		d.cs = csiIntermediate
		d.intermediate(b)
	}
}

// digits reads the run of digits at p[i] into the current parameter, in
// a register, and returns the index of the last one.
func (d *Decoder) digits(p []byte, i int) int {
	d.anyParam = true
	t := &d.tok
	v := uint32(t.Param[d.np])
	for ; i < len(p) && p[i] >= '0' && p[i] <= '9'; i++ {
		v = addDigit(t, v, p[i])
	}
	t.Param[d.np] = uint16(v)
	return i - 1
}

// countSeparators counts the separators of the run of parameter bytes
// 0x30–0x3B at p[i] (past MaxParams, where nothing else is kept); a byte
// that starts no such run goes to csiParam. It returns the index of the
// last byte it read.
func (d *Decoder) countSeparators(p []byte, i int) int {
	j := i
	for ; j < len(p) && p[j] >= '0' && p[j] <= ';'; j++ {
		if p[j] >= ':' && d.np < 0xFFFF {
			d.np++
		}
	}
	if j == i {
		d.csiParam(p[i])
		return i
	}
	return j - 1
}

// addDigit returns v*10 plus the digit b, saturating at MaxParamValue.
func addDigit(t *Token, v uint32, b byte) uint32 {
	v = v*10 + uint32(b-'0')
	if v > MaxParamValue {
		t.Flags |= FlagOverflow
		return MaxParamValue
	}
	return v
}

// csiIntermediate is the DEC parser's CSI intermediate: more
// intermediates; a parameter byte after them makes the sequence malformed.
func (d *Decoder) csiIntermediate(b byte) {
	switch {
	case b >= 0x20 && b <= 0x2F:
		d.intermediate(b)
	case b >= 0x30 && b <= 0x3F:
		d.malformed()
	}
}

// malformed enters CSI ignore: the rest of the sequence up to its final
// byte is consumed and read no further.
func (d *Decoder) malformed() {
	d.tok.Flags |= FlagMalformed
	d.cs = csiIgnore
}
