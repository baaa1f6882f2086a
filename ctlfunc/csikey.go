package ctlfunc

import "github.com/bytelens/bytelens/decode"

// CSIClasses returns what ClassesOf needs to know of a CSI without
// intermediates or with one, before it looks at the parameters: the
// classes of the function with private marker private (0: none),
// intermediate inter (0: none) and final byte final (0x40–0x7E); whether
// the function has variants that its parameters select (varies), in which
// case cl holds only when none is selected; and whether its one variant is
// SGR's conceal (conceal), which SGRConceals decides from the parameter
// bytes. A consumer that has the sequence's bytes and not its Token
// (decode.Record) classifies the common CSIs with it.
func CSIClasses(private, inter, final byte) (cl Class, varies, conceal bool) {
	k := 0
	if inter != 0 {
		k = 1 + int(inter&0x0F)
	}
	in := &info[byKey[csiNum(privateIndex[private], k, final)]]
	return in.classes, in.variants, in.conceal
}

// SGRConceals reports whether an SGR whose parameter bytes (digits, ';'
// and ':', ECMA-48 5.4.2 and ITU T.416) are params sets attribute 8,
// conceal, as ClassesOf decides it from a Token: the arguments of extended
// colours are skipped. It reads the first decode.MaxParams parameters,
// each saturating at decode.MaxParamValue, as the decoder stores them.
func SGRConceals(params []byte) bool {
	var ps [decode.MaxParams]uint16
	var sub uint32
	n := 0
	v := uint32(0)
	for _, b := range params {
		if b == ';' || b == ':' {
			ps[n], v = uint16(v), 0
			if n++; n == len(ps) {
				break
			}
			if b == ':' {
				sub |= 1 << n
			}
			continue
		}
		v = min(v*10+uint32(b-'0'), decode.MaxParamValue)
	}
	if n < len(ps) {
		ps[n] = uint16(v)
		n++
	}
	return concealsIn(ps[:n], sub)
}

// OSCClasses is CSIClasses for an OSC of command number num (-1: none):
// the classes of its function, and whether the function has variants
// that its payload selects (varies), in which case cl holds only when
// none is selected. A consumer that has the string's bytes and not its
// Token classifies an OSC with it.
func OSCClasses(num int32) (cl Class, varies bool) {
	n := uint16(0)
	if uint32(num) < oscNumbers {
		n = byKey[keyOSC+int(num)]
	}
	in := &info[n]
	return in.classes, in.variants
}
