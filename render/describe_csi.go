package render

import (
	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
)

// param returns CSI parameter i, or def when it is absent or zero.
func param(t *decode.Token, i int, def uint16) uint16 {
	if i < int(t.NParam) && t.Param[i] != 0 {
		return t.Param[i]
	}
	return def
}

// rawParam returns CSI parameter i, 0 when absent.
func rawParam(t *decode.Token, i int) uint16 { return ctlfunc.Param(t, i) }

// csi describes a control sequence from the catalogue (ECMA-48 8.3; xterm
// ctlseqs "Functions using CSI").
func (d *describer) csi(t *decode.Token) {
	switch {
	case t.Final == 0:
		d.s("CSI: control sequence cut short")
	case d.function(t):
	case t.NInter != 0:
		d.s("control sequence with intermediates: unassigned or private")
	case t.Private != 0:
		d.s("CSI ", string(rune(t.Private)), " ", string(rune(t.Final)), ": private control sequence")
	default:
		d.s("CSI ", string(rune(t.Final)), ": unassigned or private control sequence")
	}
}

// detail appends the parameters of t as f.Detail says.
func (d *describer) detail(t *decode.Token, f ctlfunc.Function) {
	switch f.Detail {
	case ctlfunc.DetailCount:
		d.count(t, f.Entry.Unit)
	case ctlfunc.DetailColumn, ctlfunc.DetailRow:
		d.n(int64(param(t, 0, 1)))
	case ctlfunc.DetailRowColumn:
		d.s("row ")
		d.n(int64(param(t, 0, 1)))
		d.s(", column ")
		d.n(int64(param(t, 1, 1)))
	case ctlfunc.DetailTimes:
		d.n(int64(param(t, 0, 1)))
		d.s(" times")
	case ctlfunc.DetailEraseDisplay:
		d.s(eraseDisplay(rawParam(t, 0)))
	case ctlfunc.DetailEraseLine:
		d.s(eraseLine(rawParam(t, 0)))
	case ctlfunc.DetailANSIModes:
		d.modes(t, ctlfunc.ANSIModeName)
	case ctlfunc.DetailDECModes:
		d.modes(t, ctlfunc.DECModeName)
	case ctlfunc.DetailANSIModeQuery, ctlfunc.DetailDECModeQuery:
		name := ctlfunc.ANSIModeName
		if f.Detail == ctlfunc.DetailDECModeQuery {
			name = ctlfunc.DECModeName
		}
		d.n(int64(rawParam(t, 0)))
		if n := name(rawParam(t, 0)); n != "" {
			d.s(" (", n, ")")
		}
	case ctlfunc.DetailSGR:
		d.sgr(t)
	case ctlfunc.DetailScrollRegion:
		if t.NParam == 0 || rawParam(t, 0) == 0 && rawParam(t, 1) == 0 {
			d.s("reset to the whole screen")
			return
		}
		d.s("rows ")
		d.n(int64(param(t, 0, 1)))
		d.s(" to ")
		if b := rawParam(t, 1); b == 0 {
			d.s("the bottom")
		} else {
			d.n(int64(b))
		}
	case ctlfunc.DetailCursorStyle:
		d.s(cursorStyle(rawParam(t, 0)))
	case ctlfunc.DetailTextArea:
		d.n(int64(rawParam(t, 1)))
		d.s(" rows, ")
		d.n(int64(rawParam(t, 2)))
		d.s(" columns")
	case ctlfunc.DetailLines:
		d.n(int64(rawParam(t, 0)))
		d.s(" lines")
	case ctlfunc.DetailWindowOp:
		d.n(int64(rawParam(t, 0)))
	case ctlfunc.DetailShellMark:
		d.shellMark(t)
	}
}

func (d *describer) count(t *decode.Token, what string) {
	n := param(t, 0, 1)
	d.n(int64(n))
	d.s(" ", what)
	if n != 1 {
		d.s("s")
	}
}

// eraseDisplay names the extent of ED and DECSED (ECMA-48 8.3.39).
func eraseDisplay(p uint16) string {
	switch p {
	case 0:
		return "from the cursor to the end of the screen"
	case 1:
		return "from the start of the screen to the cursor"
	case 2:
		return "the whole screen"
	case 3:
		return "the scrollback (saved lines)"
	}
	return "(unknown extent)"
}

// eraseLine names the extent of EL and DECSEL (ECMA-48 8.3.41).
func eraseLine(p uint16) string {
	switch p {
	case 0:
		return "from the cursor to the end of the line"
	case 1:
		return "from the start of the line to the cursor"
	case 2:
		return "the whole line"
	}
	return "(unknown extent)"
}

func cursorStyle(p uint16) string {
	switch p {
	case 0, 1:
		return "blinking block"
	case 2:
		return "steady block"
	case 3:
		return "blinking underline"
	case 4:
		return "steady underline"
	case 5:
		return "blinking bar"
	case 6:
		return "steady bar"
	}
	return "(unknown)"
}

// modes appends the modes of an SM/RM/DECSET/DECRST list by name.
func (d *describer) modes(t *decode.Token, name func(uint16) string) {
	ps := t.Params()
	if len(ps) == 0 {
		d.s("(no mode)")
		return
	}
	for i, p := range ps {
		if i > 0 {
			d.s(", ")
		}
		if i == 8 {
			d.s("…")
			break
		}
		if n := name(p); n != "" {
			d.s(n, " (")
			d.n(int64(p))
			d.s(")")
		} else {
			d.s("mode ")
			d.n(int64(p))
		}
	}
}

var colourNames = [8]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// sgr describes SELECT GRAPHIC RENDITION (ECMA-48 8.3.117; ITU T.416
// extended colours; kitty underline styles).
func (d *describer) sgr(t *decode.Token) {
	ps := t.Params()
	if len(ps) == 0 {
		d.s("reset attributes")
		return
	}
	sub := func(i int) bool { return t.Sub&(1<<i) != 0 }
	first := true
	item := func(parts ...string) {
		if !first {
			d.s(", ")
		}
		first = false
		d.s(parts...)
	}
	for i := 0; i < len(ps); i++ {
		if !first && len(d.b) > 200 {
			d.s(", …")
			return
		}
		p := ps[i]
		if sub(i) {
			continue // a sub-parameter not consumed below
		}
		switch {
		case p == 0:
			item("reset")
		case p == 1:
			item("bold")
		case p == 2:
			item("faint")
		case p == 3:
			item("italic")
		case p == 4:
			if i+1 < len(ps) && sub(i+1) {
				i++
				item(underlineStyle(ps[i]))
			} else {
				item("underline")
			}
		case p == 5:
			item("slow blink")
		case p == 6:
			item("rapid blink")
		case p == 7:
			item("inverse")
		case p == 8:
			item("conceal (hides text)")
		case p == 9:
			item("crossed out")
		case p == 10:
			item("primary font")
		case p >= 11 && p <= 19:
			item("alternative font")
		case p == 20:
			item("fraktur")
		case p == 21:
			item("double underline")
		case p == 22:
			item("normal intensity")
		case p == 23:
			item("not italic")
		case p == 24:
			item("not underlined")
		case p == 25:
			item("not blinking")
		case p == 27:
			item("not inverse")
		case p == 28:
			item("reveal")
		case p == 29:
			item("not crossed out")
		case p >= 30 && p <= 37:
			item("foreground ", colourNames[p-30])
		case p == 39:
			item("default foreground")
		case p >= 40 && p <= 47:
			item("background ", colourNames[p-40])
		case p == 49:
			item("default background")
		case p == 51:
			item("framed")
		case p == 52:
			item("encircled")
		case p == 53:
			item("overlined")
		case p == 54:
			item("not framed or encircled")
		case p == 55:
			item("not overlined")
		case p == 59:
			item("default underline colour")
		case p == 73:
			item("superscript")
		case p == 74:
			item("subscript")
		case p == 75:
			item("not superscript or subscript")
		case p >= 90 && p <= 97:
			item("foreground bright ", colourNames[p-90])
		case p >= 100 && p <= 107:
			item("background bright ", colourNames[p-100])
		case p == 38 || p == 48 || p == 58:
			what := "foreground"
			if p == 48 {
				what = "background"
			} else if p == 58 {
				what = "underline colour"
			}
			item(what, " ")
			i = d.extColour(t, ps, i)
		default:
			item("attribute ")
			d.n(int64(p))
		}
	}
}

// extColour appends the colour of an extended colour parameter at ps[i]
// (38, 48, 58) and returns the index of its last argument: 5;n indexed,
// 2;r;g;b direct, in the ';' form or the ':' form (which may carry a
// colour space identifier, ITU T.416).
func (d *describer) extColour(t *decode.Token, ps []uint16, i int) int {
	colon := i+1 < len(ps) && t.Sub&(1<<(i+1)) != 0
	if i+1 >= len(ps) {
		d.s("(colour missing)")
		return i
	}
	switch ps[i+1] {
	case 5:
		if i+2 < len(ps) {
			d.s("colour ")
			d.n(int64(ps[i+2]))
			d.s(" (256-colour palette)")
			return i + 2
		}
	case 2:
		args := ps[i+2:]
		if colon {
			// 38:2:[cs]:r:g:b — count the sub-parameters that follow.
			n := 0
			for n < len(args) && t.Sub&(1<<(i+2+n)) != 0 {
				n++
			}
			args = args[:n]
			if len(args) == 4 {
				args = args[1:]
			}
			if len(args) >= 3 {
				d.rgb(args[:3])
				return i + 1 + n
			}
		} else if len(args) >= 3 {
			d.rgb(args[:3])
			return i + 4
		}
	}
	d.s("(malformed extended colour)")
	if colon {
		for i+1 < len(ps) && t.Sub&(1<<(i+1)) != 0 {
			i++
		}
		return i
	}
	return i + 1
}

func (d *describer) rgb(c []uint16) {
	d.s("#")
	for _, v := range c {
		d.b = appendHex(d.b, uint64(min(v, 255)), 2)
	}
}

func underlineStyle(p uint16) string {
	switch p {
	case 0:
		return "not underlined"
	case 1:
		return "underline"
	case 2:
		return "double underline"
	case 3:
		return "curly underline"
	case 4:
		return "dotted underline"
	case 5:
		return "dashed underline"
	}
	return "underline (unknown style)"
}
