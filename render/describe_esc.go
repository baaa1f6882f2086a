package render

import "github.com/bytelens/bytelens/decode"

// escape describes a two-byte escape ESC F from the catalogue (ECMA-48
// 5.3; xterm ctlseqs "Controls beginning with ESC"); ESC Fe is the 7-bit
// spelling of a C1 control.
func (d *describer) escape(t *decode.Token) {
	switch {
	case t.Final == 0:
		d.s("ESC: an escape that introduces nothing")
	case !d.function(t):
		d.s("ESC ")
		d.b = append(d.b, t.Final)
		d.s(": private or unassigned escape")
	}
}

// nf describes an nF escape ESC I... F (ECMA-35 13.2; xterm ctlseqs).
func (d *describer) nf(t *decode.Token) {
	in := t.Intermediates()
	if len(in) == 0 {
		d.s("nF escape")
		return
	}
	switch i0 := in[0]; {
	case i0 >= '(' && i0 <= '/' && len(in) <= 2:
		g := "G0"
		switch i0 {
		case ')', '-':
			g = "G1"
		case '*', '.':
			g = "G2"
		case '+', '/':
			g = "G3"
		}
		d.s("SCS: designate ", g, " character set ")
		d.s(charsetName(in[1:], t.Final))
	case i0 == '#' && len(in) == 1:
		switch t.Final {
		case '3':
			d.s("DECDHL: double-height line, top half")
		case '4':
			d.s("DECDHL: double-height line, bottom half")
		case '5':
			d.s("DECSWL: single-width line")
		case '6':
			d.s("DECDWL: double-width line")
		case '8':
			d.s("DECALN: screen alignment test (fills the screen with E)")
		default:
			d.s("ESC # ", string(rune(t.Final)), ": unassigned")
		}
	case i0 == ' ' && len(in) == 1:
		switch t.Final {
		case 'F':
			d.s("S7C1T: send 7-bit C1 controls")
		case 'G':
			d.s("S8C1T: send 8-bit C1 controls")
		case 'L':
			d.s("ANSI conformance level 1")
		case 'M':
			d.s("ANSI conformance level 2")
		case 'N':
			d.s("ANSI conformance level 3")
		default:
			d.s("ACS: announce code structure")
		}
	case i0 == '%' && len(in) == 1:
		switch t.Final {
		case '@':
			d.s("DOCS: select the default character set (ISO 8859-1)")
		case 'G':
			d.s("DOCS: select UTF-8")
		default:
			d.s("DOCS: designate other coding system")
		}
	default:
		d.s("nF escape (ECMA-35): unassigned")
	}
}

// charsetName names the character set designated by ESC ( [I] F.
func charsetName(in []byte, f byte) string {
	if len(in) == 1 && in[0] == '%' {
		switch f {
		case '5':
			return "DEC supplemental"
		case '6':
			return "Portuguese"
		}
	}
	if len(in) > 0 {
		return "(other)"
	}
	switch f {
	case 'B':
		return "US ASCII"
	case '0':
		return "DEC special graphics (line drawing)"
	case 'A':
		return "United Kingdom"
	case '<':
		return "DEC user-preferred supplemental"
	case '>':
		return "DEC technical"
	case '4':
		return "Dutch"
	case 'C', '5':
		return "Finnish"
	case 'R', 'f':
		return "French"
	case 'Q', '9':
		return "French Canadian"
	case 'K':
		return "German"
	case 'Y':
		return "Italian"
	case 'E', '6', '`':
		return "Norwegian/Danish"
	case 'Z':
		return "Spanish"
	case 'H', '7':
		return "Swedish"
	case '=':
		return "Swiss"
	}
	return "(other)"
}
