package render

import (
	"bytes"
	"strconv"

	"golang.org/x/text/unicode/runenames"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// Describe returns one line saying what a token is and does, teseq-like
// but naming the function: "SGR: foreground red, bold", "DECSET: alternate
// screen buffer, cursor saved, cleared (1049)", "OSC 52: clipboard write,
// 24 payload bytes, ended by BEL". It gives payload sizes, never payloads:
// the only payload bytes it reads are structural ones (an OSC number, a
// DCS selector such as $q or tmux;, whether an OSC field is "?"), and it
// prints none of them. Anomalies follow a semicolon: unterminated, aborted
// by CAN/SUB/ESC/C1/a non-ASCII character, malformed, ambiguous, overlong,
// overflow; then how an introducer was spelled when it was not 7-bit.
//
// Sources: ECMA-48 (5th edition, 1991) section 8.3 for the standard
// functions, ECMA-35 section 13 for nF escapes, xterm's ctlseqs ("XTerm
// Control Sequences", 2024) for private modes, window operations, OSC
// commands, DCS requests, and the documentation of kitty, iTerm2, tmux,
// GNU screen and ConEmu for their extensions.
func Describe(t *decode.Token) Safe {
	var d describer
	d.token(t)
	d.anomalies(t)
	return Safe{string(d.b)}
}

// describer builds a description in b; every byte it appends is ASCII or
// a constant of this file.
type describer struct{ b []byte }

func (d *describer) s(parts ...string) {
	for _, p := range parts {
		d.b = append(d.b, p...)
	}
}

func (d *describer) n(v int64) { d.b = strconv.AppendInt(d.b, v, 10) }

func (d *describer) token(t *decode.Token) {
	switch t.Kind {
	case decode.KindText:
		if t.Is(decode.FlagEmbedded) {
			d.s(c0Labels[t.Final&0x1F], ", executed inside the sequence that encloses it")
			return
		}
		d.s("text: ")
		d.bytesCount(t.Len)
	case decode.KindC0:
		d.s(c0Labels[t.Final&0x1F])
		if t.Is(decode.FlagEmbedded) {
			d.s(", executed inside the sequence that encloses it")
		}
	case decode.KindDEL:
		d.s("DEL: delete (ignored by terminals)")
	case decode.KindC1:
		d.s(c1Labels[t.Final&0x1F])
	case decode.KindESC:
		d.escape(t)
	case decode.KindNF:
		d.nf(t)
	case decode.KindCSI:
		d.csi(t)
	case decode.KindOSC:
		d.osc(t)
	case decode.KindDCS:
		d.dcs(t)
	case decode.KindAPC:
		q := t.PayloadPrefix()
		switch {
		case len(q) > 0 && q[0] == 'G':
			d.s("APC: kitty graphics protocol command")
		case bytes.HasPrefix(q, []byte("bk;")):
			d.s("APC: Buildkite timestamp")
		default:
			d.s("APC: application program command")
		}
		d.payload(t)
	case decode.KindPM:
		d.s("PM: privacy message")
		d.payload(t)
	case decode.KindSOS:
		d.s("SOS: start of string")
		d.payload(t)
	case decode.KindScreenTitle:
		d.s("ESC k: GNU screen / tmux window title")
		d.payload(t)
	case decode.KindInvalid:
		d.s("invalid UTF-8: ")
		d.bytesCount(t.Len)
		d.s(", one maximal subpart (one U+FFFD in cleaned text)")
	case decode.KindFormat:
		d.b = appendCodePoint(d.b, t.Rune)
		d.s(" ", formatName(t.Rune))
	default:
		d.s("unknown token")
	}
}

// bytesCount appends "N bytes" or "1 byte".
func (d *describer) bytesCount(n int64) {
	d.n(n)
	if n == 1 {
		d.s(" byte")
	} else {
		d.s(" bytes")
	}
}

// payload appends the payload size and how the string ended.
func (d *describer) payload(t *decode.Token) {
	d.s(", ")
	d.n(t.Payload)
	if t.Payload == 1 {
		d.s(" payload byte")
	} else {
		d.s(" payload bytes")
	}
	if t.Term != decode.TermNone {
		d.s(", ended by ", t.Term.String())
	}
}

// anomalies appends the token's flags and a non-7-bit introducer.
func (d *describer) anomalies(t *decode.Token) {
	sep := "; "
	add := func(parts ...string) {
		d.s(sep)
		d.s(parts...)
		sep = ", "
	}
	if t.Is(decode.FlagUnterminated) {
		add("unterminated: ")
		d.bytesCount(t.Len)
		d.s(" to the end of input swallowed")
	}
	if t.Is(decode.FlagAborted) {
		switch t.Abort {
		case decode.AbortNonASCII:
			add("aborted by a non-ASCII character")
		case decode.AbortNone:
			add("aborted")
		default:
			add("aborted by ", t.Abort.String())
		}
	}
	if t.Is(decode.FlagMalformed) {
		add("malformed: bytes out of order (ECMA-48 5.4), consumed to the final byte")
	}
	if t.Is(decode.FlagAmbiguous) {
		add("ambiguous: a C1 ST inside a string opened by ESC, kept as payload (terminals disagree)")
	}
	if t.Is(decode.FlagOverlong) {
		add("overlong payload")
	}
	if t.Is(decode.FlagOverflow) {
		add("overflow: more parameters or intermediates than stored, counts saturated")
	}
	switch t.Intro {
	case decode.Intro8Bit:
		add("8-bit C1 (raw byte 0x")
		d.b = appendHex(d.b, uint64(c1Code(t)), 2)
		d.s(")")
	case decode.IntroUTF8:
		add("C1 in UTF-8 (")
		d.b = appendCodePoint(d.b, rune(c1Code(t)))
		d.s(")")
	}
}

// c1Code returns the C1 code that introduced t.
func c1Code(t *decode.Token) byte {
	switch t.Kind {
	case decode.KindC1:
		return t.Final
	case decode.KindCSI:
		return 0x9B
	case decode.KindOSC:
		return 0x9D
	case decode.KindDCS:
		return 0x90
	case decode.KindSOS:
		return 0x98
	case decode.KindPM:
		return 0x9E
	case decode.KindAPC:
		return 0x9F
	}
	return 0
}

// c0Labels describe the C0 controls (ECMA-48 8.3; xterm ctlseqs "Single-
// character functions").
var c0Labels = [32]string{
	"NUL: null", "SOH: start of heading", "STX: start of text", "ETX: end of text",
	"EOT: end of transmission", "ENQ: enquiry (some terminals reply with an answerback)",
	"ACK: acknowledge", "BEL: bell", "BS: backspace (moves the cursor left; overwrites)",
	"HT: horizontal tab", "LF: line feed", "VT: vertical tab (xterm: line feed)",
	"FF: form feed (xterm: line feed)", "CR: carriage return (cursor to column 1; overwrites)",
	"SO: shift out (invoke G1 character set)", "SI: shift in (invoke G0 character set)",
	"DLE: data link escape", "DC1: device control one (XON)", "DC2: device control two",
	"DC3: device control three (XOFF)", "DC4: device control four", "NAK: negative acknowledge",
	"SYN: synchronous idle", "ETB: end of transmission block", "CAN: cancel (aborts a sequence)",
	"EM: end of medium", "SUB: substitute (aborts a sequence)", "ESC: escape",
	"FS: file separator", "GS: group separator", "RS: record separator", "US: unit separator",
}

// c1Labels describe the C1 controls (ECMA-48 8.3; DECID from DEC STD 070).
var c1Labels = [32]string{
	"PAD: padding character", "HOP: high octet preset", "BPH: break permitted here",
	"NBH: no break here", "IND: index (cursor down, scrolls)", "NEL: next line",
	"SSA: start of selected area", "ESA: end of selected area", "HTS: set a tab stop",
	"HTJ: character tabulation with justification", "VTS: line tabulation set",
	"PLD: partial line forward", "PLU: partial line backward",
	"RI: reverse index (cursor up, scrolls back; overwrites)", "SS2: single shift two",
	"SS3: single shift three", "DCS: device control string", "PU1: private use one",
	"PU2: private use two", "STS: set transmit state", "CCH: cancel character",
	"MW: message waiting", "SPA: start of guarded area", "EPA: end of guarded area",
	"SOS: start of string", "SGCI: single graphic character introducer",
	"DECID: identify terminal (query: the terminal replies)", "CSI: control sequence introducer",
	"ST: string terminator (no string open)", "OSC: operating system command",
	"PM: privacy message", "APC: application program command",
}

// escape describes a two-byte escape ESC F (ECMA-48 5.3; xterm ctlseqs
// "Controls beginning with ESC").
func (d *describer) escape(t *decode.Token) {
	if t.Final == 0 {
		d.s("ESC: an escape that introduces nothing")
		return
	}
	if t.Final >= 0x40 && t.Final <= 0x5F {
		// Fe: the 7-bit spelling of a C1 control.
		if l := c1Labels[t.Final-0x40]; t.Final != '\\' {
			d.s(l)
			return
		}
		d.s("ST: string terminator (no string open)")
		return
	}
	switch t.Final {
	case '6':
		d.s("DECBI: back index")
	case '7':
		d.s("DECSC: save cursor")
	case '8':
		d.s("DECRC: restore cursor (moves the cursor; overwrites)")
	case '9':
		d.s("DECFI: forward index")
	case '=':
		d.s("DECKPAM: keypad application mode")
	case '>':
		d.s("DECKPNM: keypad numeric mode")
	case '`':
		d.s("DMI: disable manual input")
	case 'b':
		d.s("EMI: enable manual input")
	case 'c':
		d.s("RIS: full reset (clears the screen)")
	case 'd':
		d.s("CMD: coding method delimiter")
	case 'l':
		d.s("HP memory lock")
	case 'm':
		d.s("HP memory unlock")
	case 'n':
		d.s("LS2: invoke G2 character set as GL")
	case 'o':
		d.s("LS3: invoke G3 character set as GL")
	case '|':
		d.s("LS3R: invoke G3 character set as GR")
	case '}':
		d.s("LS2R: invoke G2 character set as GR")
	case '~':
		d.s("LS1R: invoke G1 character set as GR")
	default:
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

// param returns CSI parameter i, or def when it is absent or zero.
func param(t *decode.Token, i int, def uint16) uint16 {
	if i < int(t.NParam) && t.Param[i] != 0 {
		return t.Param[i]
	}
	return def
}

// rawParam returns CSI parameter i, 0 when absent.
func rawParam(t *decode.Token, i int) uint16 {
	if i < int(t.NParam) {
		return t.Param[i]
	}
	return 0
}

// csi describes a control sequence (ECMA-48 8.3; xterm ctlseqs "Functions
// using CSI").
func (d *describer) csi(t *decode.Token) {
	if t.Final == 0 {
		d.s("CSI: control sequence cut short")
		return
	}
	in := t.Intermediates()
	switch {
	case len(in) == 0 && t.Private == 0:
		d.csiPlain(t)
	case len(in) == 0:
		d.csiPrivate(t)
	default:
		d.csiInter(t, in)
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

func (d *describer) csiPlain(t *decode.Token) {
	switch t.Final {
	case '@':
		d.s("ICH: insert ")
		d.count(t, "blank character")
	case 'A':
		d.s("CUU: cursor up ")
		d.count(t, "line")
	case 'B':
		d.s("CUD: cursor down ")
		d.count(t, "line")
	case 'C':
		d.s("CUF: cursor forward ")
		d.count(t, "column")
	case 'D':
		d.s("CUB: cursor back ")
		d.count(t, "column")
	case 'E':
		d.s("CNL: cursor to the start of the line ")
		d.count(t, "line")
		d.s(" down")
	case 'F':
		d.s("CPL: cursor to the start of the line ")
		d.count(t, "line")
		d.s(" up")
	case 'G':
		d.s("CHA: cursor to column ")
		d.n(int64(param(t, 0, 1)))
	case 'H', 'f':
		if t.Final == 'H' {
			d.s("CUP: cursor to row ")
		} else {
			d.s("HVP: cursor to row ")
		}
		d.n(int64(param(t, 0, 1)))
		d.s(", column ")
		d.n(int64(param(t, 1, 1)))
	case 'I':
		d.s("CHT: cursor forward ")
		d.count(t, "tab stop")
	case 'J':
		d.s("ED: erase ", eraseDisplay(rawParam(t, 0)))
	case 'K':
		d.s("EL: erase ", eraseLine(rawParam(t, 0)))
	case 'L':
		d.s("IL: insert ")
		d.count(t, "line")
	case 'M':
		d.s("DL: delete ")
		d.count(t, "line")
	case 'P':
		d.s("DCH: delete ")
		d.count(t, "character")
	case 'S':
		d.s("SU: scroll up ")
		d.count(t, "line")
	case 'T':
		d.s("SD: scroll down ")
		d.count(t, "line")
	case 'X':
		d.s("ECH: erase ")
		d.count(t, "character")
	case 'Z':
		d.s("CBT: cursor back ")
		d.count(t, "tab stop")
	case '`':
		d.s("HPA: cursor to column ")
		d.n(int64(param(t, 0, 1)))
	case 'a':
		d.s("HPR: cursor forward ")
		d.count(t, "column")
	case 'b':
		d.s("REP: repeat the preceding character ")
		d.n(int64(param(t, 0, 1)))
		d.s(" times")
	case 'c':
		if rawParam(t, 0) == 0 {
			d.s("DA1: primary device attributes (query: the terminal replies)")
		} else {
			d.s("DA1 with a parameter (ignored)")
		}
	case 'd':
		d.s("VPA: cursor to row ")
		d.n(int64(param(t, 0, 1)))
	case 'e':
		d.s("VPR: cursor down ")
		d.count(t, "line")
	case 'g':
		switch rawParam(t, 0) {
		case 0:
			d.s("TBC: clear the tab stop at the cursor")
		case 3:
			d.s("TBC: clear all tab stops")
		default:
			d.s("TBC: tab clear")
		}
	case 'h', 'l':
		if t.Final == 'h' {
			d.s("SM: set mode ")
		} else {
			d.s("RM: reset mode ")
		}
		d.modes(t, ansiModeName)
	case 'i':
		d.s("MC: media copy (printer)")
	case 'm':
		d.sgr(t)
	case 'n':
		switch rawParam(t, 0) {
		case 5:
			d.s("DSR: device status report (query: the terminal replies)")
		case 6:
			d.s("DSR: CPR, cursor position report (query: the terminal replies)")
		default:
			d.s("DSR: device status report")
		}
	case 'q':
		d.s("DECLL: load LEDs")
	case 'r':
		d.s("DECSTBM: scroll region ")
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
	case 's':
		if t.NParam == 0 {
			d.s("SCOSC: save cursor")
		} else {
			d.s("DECSLRM: set left and right margins")
		}
	case 't':
		d.xtwinops(t)
	case 'u':
		d.s("SCORC: restore cursor (moves the cursor; overwrites)")
	case 'x':
		d.s("DECREQTPARM: request terminal parameters (query: the terminal replies)")
	default:
		d.s("CSI ", string(rune(t.Final)), ": unassigned or private control sequence")
	}
}

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

// xtwinops describes CSI Ps ; Ps ; Ps t (xterm ctlseqs "Window
// manipulation (XTWINOPS)").
func (d *describer) xtwinops(t *decode.Token) {
	d.s("XTWINOPS: ")
	p := rawParam(t, 0)
	switch p {
	case 1:
		d.s("de-iconify window")
	case 2:
		d.s("iconify window")
	case 3:
		d.s("move window")
	case 4:
		d.s("resize window in pixels")
	case 5:
		d.s("raise window")
	case 6:
		d.s("lower window")
	case 7:
		d.s("refresh window")
	case 8:
		d.s("resize text area to ")
		d.n(int64(rawParam(t, 1)))
		d.s(" rows, ")
		d.n(int64(rawParam(t, 2)))
		d.s(" columns")
	case 9:
		d.s("maximize or restore window")
	case 10:
		d.s("full-screen mode")
	case 11:
		d.s("report window state (query: the terminal replies)")
	case 13:
		d.s("report window position (query: the terminal replies)")
	case 14:
		d.s("report window size in pixels (query: the terminal replies)")
	case 15:
		d.s("report screen size in pixels (query: the terminal replies)")
	case 16:
		d.s("report character cell size in pixels (query: the terminal replies)")
	case 18:
		d.s("report text area size in characters (query: the terminal replies)")
	case 19:
		d.s("report screen size in characters (query: the terminal replies)")
	case 20:
		d.s("report icon label (query: the terminal replies with a title)")
	case 21:
		d.s("report window title (query: the terminal replies with a title)")
	case 22:
		d.s("push title on the stack")
	case 23:
		d.s("pop title from the stack")
	default:
		if p >= 24 {
			d.s("resize to ")
			d.n(int64(p))
			d.s(" lines (DECSLPP)")
			return
		}
		d.s("window operation ")
		d.n(int64(p))
	}
}

func (d *describer) csiPrivate(t *decode.Token) {
	switch {
	case t.Private == '?' && (t.Final == 'h' || t.Final == 'l'):
		if t.Final == 'h' {
			d.s("DECSET: enable ")
		} else {
			d.s("DECRST: disable ")
		}
		d.modes(t, decModeName)
	case t.Private == '?' && t.Final == 's':
		d.s("XTSAVE: save DEC private modes ")
		d.modes(t, decModeName)
	case t.Private == '?' && t.Final == 'r':
		d.s("XTRESTORE: restore DEC private modes ")
		d.modes(t, decModeName)
	case t.Private == '?' && t.Final == 'n':
		switch rawParam(t, 0) {
		case 6:
			d.s("DECXCPR: extended cursor position report (query: the terminal replies)")
		case 996:
			d.s("DSR: colour scheme (dark or light) report (query: the terminal replies)")
		default:
			d.s("DSR: DEC private status report (query: the terminal replies)")
		}
	case t.Private == '?' && t.Final == 'J':
		d.s("DECSED: selective erase ", eraseDisplay(rawParam(t, 0)))
	case t.Private == '?' && t.Final == 'K':
		d.s("DECSEL: selective erase ", eraseLine(rawParam(t, 0)))
	case t.Private == '?' && t.Final == 'u':
		d.s("kitty keyboard protocol: query flags (query: the terminal replies)")
	case t.Private == '>' && t.Final == 'c':
		d.s("DA2: secondary device attributes (query: the terminal replies)")
	case t.Private == '=' && t.Final == 'c':
		d.s("DA3: tertiary device attributes (query: the terminal replies)")
	case t.Private == '>' && t.Final == 'q':
		d.s("XTVERSION: terminal name and version (query: the terminal replies)")
	case t.Private == '>' && t.Final == 'm':
		d.s("XTMODKEYS: set key modifier options")
	case t.Private == '>' && t.Final == 'n':
		d.s("XTMODKEYS: reset key modifier options")
	case t.Private == '>' && t.Final == 'u':
		d.s("kitty keyboard protocol: push flags")
	case t.Private == '=' && t.Final == 'u':
		d.s("kitty keyboard protocol: set flags")
	case t.Private == '<' && t.Final == 'u':
		d.s("kitty keyboard protocol: pop flags")
	case t.Private == '>' && t.Final == 't':
		d.s("XTSMTITLE: set title modes")
	case t.Private == '>' && t.Final == 'T':
		d.s("XTRMTITLE: reset title modes")
	case t.Private == '>' && t.Final == 's':
		d.s("XTSHIFTESCAPE: shift-escape options")
	case t.Private == '>' && t.Final == 'p':
		d.s("XTSMPOINTER: pointer mode")
	case t.Private == '<' && (t.Final == 'M' || t.Final == 'm'):
		d.s("SGR mouse report (input from a terminal, echoed)")
	default:
		d.s("CSI ", string(rune(t.Private)), " ", string(rune(t.Final)), ": private control sequence")
	}
}

func (d *describer) csiInter(t *decode.Token, in []byte) {
	key := string(in) + string(rune(t.Final))
	private := t.Private
	switch {
	case key == " q" && private == 0:
		d.s("DECSCUSR: cursor style ")
		d.s(cursorStyle(rawParam(t, 0)))
	case key == "!p" && private == 0:
		d.s("DECSTR: soft terminal reset")
	case key == "\"p" && private == 0:
		d.s("DECSCL: set conformance level")
	case key == "\"q" && private == 0:
		d.s("DECSCA: select character protection")
	case key == "$p" && private == 0:
		d.s("DECRQM: request ANSI mode ")
		d.n(int64(rawParam(t, 0)))
		if n := ansiModeName(rawParam(t, 0)); n != "" {
			d.s(" (", n, ")")
		}
		d.s(" (query: the terminal replies)")
	case key == "$p" && private == '?':
		d.s("DECRQM: request DEC private mode ")
		d.n(int64(rawParam(t, 0)))
		if n := decModeName(rawParam(t, 0)); n != "" {
			d.s(" (", n, ")")
		}
		d.s(" (query: the terminal replies)")
	case key == "$r":
		d.s("DECCARA: change attributes in a rectangle")
	case key == "$t":
		d.s("DECRARA: reverse attributes in a rectangle")
	case key == "$v":
		d.s("DECCRA: copy a rectangle")
	case key == "$w":
		d.s("DECRQPSR: request presentation state report (query: the terminal replies)")
	case key == "$x":
		d.s("DECFRA: fill a rectangle")
	case key == "$z":
		d.s("DECERA: erase a rectangle")
	case key == "${":
		d.s("DECSERA: selective erase a rectangle")
	case key == "$|":
		d.s("DECSCPP: set columns per page")
	case key == "*x":
		d.s("DECSACE: select attribute change extent")
	case key == "*|":
		d.s("DECSNLS: set lines per screen")
	case key == "*y":
		d.s("DECRQCRA: request rectangle checksum (query: the terminal replies)")
	case key == "'}":
		d.s("DECIC: insert columns")
	case key == "'~":
		d.s("DECDC: delete columns")
	case key == "'w":
		d.s("DECEFR: enable filter rectangle")
	case key == "'z":
		d.s("DECELR: enable locator reporting")
	case key == "'|":
		d.s("DECRQLP: request locator position (query: the terminal replies)")
	case key == " @":
		d.s("SL: scroll left")
	case key == " A":
		d.s("SR: scroll right")
	case key == "#p" || key == "#{":
		d.s("XTPUSHSGR: push video attributes")
	case key == "#q" || key == "#}":
		d.s("XTPOPSGR: pop video attributes")
	case key == "#|":
		d.s("XTREPORTSGR: report video attributes (query: the terminal replies)")
	case key == " t":
		d.s("DECSWBV: set warning-bell volume")
	case key == " u":
		d.s("DECSMBV: set margin-bell volume")
	default:
		d.s("control sequence with intermediates: unassigned or private")
	}
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

// ansiModeName names an ECMA-48 mode (8.3.125 SM; 7.1).
func ansiModeName(p uint16) string {
	switch p {
	case 2:
		return "KAM keyboard lock"
	case 4:
		return "IRM insert mode"
	case 12:
		return "SRM local echo off"
	case 20:
		return "LNM automatic newline"
	}
	return ""
}

// decModeName names a DEC private mode (xterm ctlseqs "DEC Private Mode
// Set (DECSET)", and the mode registries of kitty, mintty and contour).
func decModeName(p uint16) string {
	switch p {
	case 1:
		return "DECCKM application cursor keys"
	case 2:
		return "DECANM VT52 mode"
	case 3:
		return "DECCOLM 132 columns"
	case 4:
		return "DECSCLM smooth scroll"
	case 5:
		return "DECSCNM reverse video"
	case 6:
		return "DECOM origin mode"
	case 7:
		return "DECAWM auto-wrap"
	case 8:
		return "DECARM auto-repeat keys"
	case 9:
		return "X10 mouse reporting"
	case 12:
		return "blinking cursor"
	case 25:
		return "DECTCEM show cursor"
	case 40:
		return "allow 80/132 column switching"
	case 45:
		return "reverse wrap-around"
	case 47:
		return "alternate screen buffer"
	case 66:
		return "DECNKM application keypad"
	case 67:
		return "DECBKM backarrow sends backspace"
	case 69:
		return "DECLRMM left and right margins"
	case 80:
		return "DECSDM sixel display mode"
	case 1000:
		return "mouse click tracking"
	case 1001:
		return "mouse highlight tracking"
	case 1002:
		return "mouse button-event (drag) tracking"
	case 1003:
		return "mouse any-event tracking"
	case 1004:
		return "focus in/out events"
	case 1005:
		return "UTF-8 mouse encoding"
	case 1006:
		return "SGR mouse encoding"
	case 1007:
		return "alternate scroll"
	case 1015:
		return "urxvt mouse encoding"
	case 1016:
		return "SGR pixel mouse encoding"
	case 1034:
		return "meta key sets the eighth bit"
	case 1035:
		return "special modifiers for Alt and NumLock"
	case 1036:
		return "meta key sends ESC"
	case 1037:
		return "keypad Delete sends DEL"
	case 1039:
		return "Alt key sends ESC"
	case 1047:
		return "alternate screen buffer, cleared on exit"
	case 1048:
		return "save cursor"
	case 1049:
		return "alternate screen buffer, cursor saved, cleared"
	case 2004:
		return "bracketed paste"
	case 2026:
		return "synchronized output"
	case 2027:
		return "grapheme cluster width"
	case 2031:
		return "colour scheme change reports"
	case 2048:
		return "in-band window resize reports"
	case 7727:
		return "mintty application escape key"
	case 9001:
		return "win32 input mode"
	}
	return ""
}

var colourNames = [8]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// sgr describes SELECT GRAPHIC RENDITION (ECMA-48 8.3.117; ITU T.416
// extended colours; kitty underline styles).
func (d *describer) sgr(t *decode.Token) {
	d.s("SGR: ")
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

// osc describes an operating system command (xterm ctlseqs "Operating
// System Commands"; OSC 8 from egmontkob's hyperlink spec; OSC 133 from
// FinalTerm; OSC 1337 iTerm2; OSC 777 urxvt; OSC 9 iTerm2 and ConEmu).
func (d *describer) osc(t *decode.Token) {
	c := t.Command
	if c < 0 {
		d.s("OSC: no command number")
		d.payload(t)
		return
	}
	d.s("OSC ")
	d.n(int64(c))
	d.s(": ")
	q := t.PayloadPrefix()
	query := sanitize.OSCRead(t, -1)
	switch c {
	case 0:
		d.s("set icon name and window title")
	case 1:
		d.s("set icon name")
	case 2:
		d.s("set window title")
	case 3:
		d.s("set X property on the window")
	case 4:
		d.setOrQuery("colour palette entry", query)
	case 5:
		d.setOrQuery("special colour", query)
	case 6:
		d.s("enable or disable special colour")
	case 7:
		d.s("current working directory (file URL)")
	case 8:
		if sanitize.LinkCloses(t) {
			d.s("hyperlink close")
		} else {
			d.s("hyperlink open (target not shown)")
		}
	case 9:
		if bytes.HasPrefix(q, []byte("9;4;")) {
			d.s("progress indicator (ConEmu, Windows Terminal)")
		} else {
			d.s("desktop notification (iTerm2) or ConEmu command")
		}
	case 10, 11, 12, 13, 14, 15, 16, 17, 18, 19:
		d.setOrQuery(dynamicColours[c-10], query)
	case 22:
		d.s("set pointer shape")
	case 46:
		d.s("change log file")
	case 50:
		d.setOrQuery("font", query)
	case 51:
		d.s("Emacs shell command")
	case 52:
		switch {
		case sanitize.OSCRead(t, 2):
			d.s("clipboard read (query: the terminal replies with the clipboard)")
		default:
			d.s("clipboard write")
		}
	case 99:
		d.s("kitty desktop notification")
	case 104:
		d.s("reset colour palette entries")
	case 105:
		d.s("reset special colours")
	case 106:
		d.s("enable or disable special colours")
	case 110:
		d.s("reset default foreground colour")
	case 111:
		d.s("reset default background colour")
	case 112:
		d.s("reset cursor colour")
	case 113, 114, 115, 116, 117, 118, 119:
		d.s("reset a dynamic colour")
	case 133:
		d.s("shell prompt mark (FinalTerm)")
		if len(q) > 4 {
			switch q[4] {
			case 'A':
				d.s(": prompt start")
			case 'B':
				d.s(": prompt end, command input start")
			case 'C':
				d.s(": command output start")
			case 'D':
				d.s(": command finished")
			case 'P':
				d.s(": prompt properties")
			}
		}
	case 633:
		d.s("VS Code shell integration")
	case 697:
		d.s("shell integration (Warp)")
	case 777:
		d.s("urxvt extension (notification)")
	case 1337:
		switch {
		case bytes.HasPrefix(q, []byte("1337;File=")), bytes.HasPrefix(q, []byte("1337;MultipartFile=")):
			d.s("iTerm2 inline file or image transfer")
		default:
			d.s("iTerm2 proprietary command")
		}
	case 3008:
		d.s("context signalling (systemd)")
	case 5113:
		d.s("kitty file transfer")
	case 5522:
		d.s("kitty clipboard protocol")
	default:
		d.s("unrecognised command")
	}
	d.payload(t)
}

// dynamicColours names the colours OSC 10–19 set or query (xterm ctlseqs,
// "Operating System Commands", Ps = 1 0 … 1 9).
var dynamicColours = [...]string{
	"default foreground colour", "default background colour", "cursor colour",
	"mouse foreground colour", "mouse background colour",
	"Tektronix foreground colour", "Tektronix background colour",
	"highlight background colour", "Tektronix cursor colour", "highlight foreground colour",
}

func (d *describer) setOrQuery(what string, query bool) {
	if query {
		d.s("query ", what, " (query: the terminal replies)")
	} else {
		d.s("set ", what)
	}
}

// dcs describes a device control string by its selector: the parameter,
// intermediate and final bytes at the start of its payload (xterm ctlseqs
// "Device-Control functions"; tmux passthrough; sixel from DEC STD 070).
func (d *describer) dcs(t *decode.Token) {
	q := t.PayloadPrefix()
	switch {
	case bytes.HasPrefix(q, []byte("tmux;")):
		d.s("DCS: tmux passthrough (a wrapped sequence for the outer terminal)")
	case bytes.HasPrefix(q, []byte("$q")):
		d.s("DECRQSS: request selection or setting (query: the terminal replies)")
	case bytes.HasPrefix(q, []byte("+q")):
		d.s("XTGETTCAP: request termcap/terminfo capabilities (query: the terminal replies)")
	case bytes.HasPrefix(q, []byte("+p")):
		d.s("XTSETTCAP: set termcap/terminfo data")
	case bytes.HasPrefix(q, []byte("=1s")):
		d.s("DCS: begin synchronized update")
	case bytes.HasPrefix(q, []byte("=2s")):
		d.s("DCS: end synchronized update")
	case bytes.HasPrefix(q, []byte("1000p")):
		d.s("DCS: tmux control mode start")
	default:
		// Parameters (digits, ';'), intermediates, then the final byte.
		i := 0
		for i < len(q) && (q[i] >= '0' && q[i] <= '9' || q[i] == ';') {
			i++
		}
		j := i
		for j < len(q) && q[j] >= 0x20 && q[j] <= 0x2F {
			j++
		}
		final := byte(0)
		if j < len(q) {
			final = q[j]
		}
		switch {
		case final == 'q' && j == i:
			d.s("DCS: sixel graphics")
		case final == '|' && j == i:
			d.s("DECUDK: user-defined keys")
		case final == '{' && j == i:
			d.s("DECDLD: downloadable soft font")
		case final == 'p' && j == i:
			d.s("DCS: ReGIS graphics")
		case final == 'r' && j > i && q[i] == '$':
			d.s("DECRPSS: report of a selection or setting (a terminal's reply, echoed)")
		case final == 't' && j > i && q[i] == '$':
			d.s("DECRSPS: restore presentation state")
		default:
			d.s("DCS: device control string")
		}
	}
	d.payload(t)
}

// formatName names a format character by its Unicode name
// (golang.org/x/text/unicode/runenames) and what its class does.
func formatName(r rune) string {
	note := formatNotes[decode.ClassifyFormat(r)]
	switch {
	case decode.IsBidiControl(r):
		note = "bidi control (reorders text)"
	case r >= 0xE0000 && r <= 0xE007F:
		note = "invisible (can smuggle hidden text)"
	}
	return runenames.Name(r) + ": " + note
}

// formatNotes say what each format class does to text.
var formatNotes = [...]string{
	decode.FormatNone:          "text",
	decode.FormatHiding:        "format character (invisible)",
	decode.FormatJoining:       "format character (shapes the text around it)",
	decode.FormatSelector:      "variation selector (changes how the character before it is drawn)",
	decode.FormatMongolian:     "Mongolian variation selector (changes how the letter before it is drawn)",
	decode.FormatJamoFiller:    "Hangul jamo filler (invisible outside a syllable)",
	decode.FormatLineSeparator: "line break",
}
