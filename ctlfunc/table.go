package ctlfunc

import "github.com/bytelens/bytelens/decode"

// The catalogue. Each table is one family; within it, entries follow the
// order of their keys.

func ctl(kind decode.Kind, code byte, mn, desc string, cl Class) Entry {
	return Entry{Key: Key{Kind: kind, Final: code}, Mnemonic: mn, Description: desc, Classes: cl}
}

// c0 are the C0 controls (ECMA-48 8.3; xterm ctlseqs "Single-character
// functions"), by code.
var c0 = [32]Entry{
	ctl(decode.KindC0, 0x00, "NUL", "null", 0),
	ctl(decode.KindC0, 0x01, "SOH", "start of heading", 0),
	ctl(decode.KindC0, 0x02, "STX", "start of text", 0),
	ctl(decode.KindC0, 0x03, "ETX", "end of text", 0),
	ctl(decode.KindC0, 0x04, "EOT", "end of transmission", 0),
	ctl(decode.KindC0, 0x05, "ENQ", "enquiry (some terminals send an answerback message)", 0),
	ctl(decode.KindC0, 0x06, "ACK", "acknowledge", 0),
	ctl(decode.KindC0, 0x07, "BEL", "bell", 0),
	ctl(decode.KindC0, 0x08, "BS", "backspace (moves the cursor left; overwrites)", 0),
	ctl(decode.KindC0, 0x09, "HT", "horizontal tab", 0),
	ctl(decode.KindC0, 0x0A, "LF", "line feed", 0),
	ctl(decode.KindC0, 0x0B, "VT", "vertical tab (xterm: line feed)", 0),
	ctl(decode.KindC0, 0x0C, "FF", "form feed (xterm: line feed)", 0),
	ctl(decode.KindC0, 0x0D, "CR", "carriage return (cursor to column 1; overwrites)", 0),
	ctl(decode.KindC0, 0x0E, "SO", "shift out (invoke G1 character set)", 0),
	ctl(decode.KindC0, 0x0F, "SI", "shift in (invoke G0 character set)", 0),
	ctl(decode.KindC0, 0x10, "DLE", "data link escape", 0),
	ctl(decode.KindC0, 0x11, "DC1", "device control one (XON)", 0),
	ctl(decode.KindC0, 0x12, "DC2", "device control two", 0),
	ctl(decode.KindC0, 0x13, "DC3", "device control three (XOFF)", 0),
	ctl(decode.KindC0, 0x14, "DC4", "device control four", 0),
	ctl(decode.KindC0, 0x15, "NAK", "negative acknowledge", 0),
	ctl(decode.KindC0, 0x16, "SYN", "synchronous idle", 0),
	ctl(decode.KindC0, 0x17, "ETB", "end of transmission block", 0),
	ctl(decode.KindC0, 0x18, "CAN", "cancel (aborts a sequence)", 0),
	ctl(decode.KindC0, 0x19, "EM", "end of medium", 0),
	ctl(decode.KindC0, 0x1A, "SUB", "substitute (aborts a sequence)", 0),
	ctl(decode.KindC0, 0x1B, "ESC", "escape", 0),
	ctl(decode.KindC0, 0x1C, "FS", "file separator", 0),
	ctl(decode.KindC0, 0x1D, "GS", "group separator", 0),
	ctl(decode.KindC0, 0x1E, "RS", "record separator", 0),
	ctl(decode.KindC0, 0x1F, "US", "unit separator", 0),
}

// c1 are the C1 controls (ECMA-48 8.3; PAD, HOP and SGCI from ISO 6429
// drafts as xterm ctlseqs lists them; DECID from DEC STD 070), by code
// less 0x80. ESC Fe (0x40–0x5F) is their 7-bit spelling.
var c1 = [32]Entry{
	ctl(decode.KindC1, 0x80, "PAD", "padding character", 0),
	ctl(decode.KindC1, 0x81, "HOP", "high octet preset", 0),
	ctl(decode.KindC1, 0x82, "BPH", "break permitted here", 0),
	ctl(decode.KindC1, 0x83, "NBH", "no break here", 0),
	ctl(decode.KindC1, 0x84, "IND", "index (cursor down, scrolls)", 0),
	ctl(decode.KindC1, 0x85, "NEL", "next line", 0),
	ctl(decode.KindC1, 0x86, "SSA", "start of selected area", 0),
	ctl(decode.KindC1, 0x87, "ESA", "end of selected area", 0),
	ctl(decode.KindC1, 0x88, "HTS", "set a tab stop", 0),
	ctl(decode.KindC1, 0x89, "HTJ", "character tabulation with justification", 0),
	ctl(decode.KindC1, 0x8A, "VTS", "line tabulation set", 0),
	ctl(decode.KindC1, 0x8B, "PLD", "partial line forward", 0),
	ctl(decode.KindC1, 0x8C, "PLU", "partial line backward", 0),
	ctl(decode.KindC1, 0x8D, "RI", "reverse index (cursor up, scrolls back; overwrites)", CursorMove),
	ctl(decode.KindC1, 0x8E, "SS2", "single shift two", 0),
	ctl(decode.KindC1, 0x8F, "SS3", "single shift three", 0),
	ctl(decode.KindC1, 0x90, "DCS", "device control string", 0),
	ctl(decode.KindC1, 0x91, "PU1", "private use one", 0),
	ctl(decode.KindC1, 0x92, "PU2", "private use two", 0),
	ctl(decode.KindC1, 0x93, "STS", "set transmit state", 0),
	ctl(decode.KindC1, 0x94, "CCH", "cancel character", 0),
	ctl(decode.KindC1, 0x95, "MW", "message waiting", 0),
	ctl(decode.KindC1, 0x96, "SPA", "start of guarded area", 0),
	ctl(decode.KindC1, 0x97, "EPA", "end of guarded area", 0),
	ctl(decode.KindC1, 0x98, "SOS", "start of string", 0),
	ctl(decode.KindC1, 0x99, "SGCI", "single graphic character introducer", 0),
	ctl(decode.KindC1, 0x9A, "DECID", "identify terminal", Query),
	ctl(decode.KindC1, 0x9B, "CSI", "control sequence introducer", 0),
	ctl(decode.KindC1, 0x9C, "ST", "string terminator (no string open)", 0),
	ctl(decode.KindC1, 0x9D, "OSC", "operating system command", 0),
	ctl(decode.KindC1, 0x9E, "PM", "privacy message", 0),
	ctl(decode.KindC1, 0x9F, "APC", "application program command", 0),
}

// esc are the escape sequences ESC F with F outside Fe (ECMA-48 5.3,
// 8.3; xterm ctlseqs "Controls beginning with ESC").
var esc = []Entry{
	ctl(decode.KindESC, '6', "DECBI", "back index", 0),
	ctl(decode.KindESC, '7', "DECSC", "save cursor", 0),
	ctl(decode.KindESC, '8', "DECRC", "restore cursor (moves the cursor; overwrites)", CursorMove),
	ctl(decode.KindESC, '9', "DECFI", "forward index", 0),
	ctl(decode.KindESC, '=', "DECKPAM", "keypad application mode", 0),
	ctl(decode.KindESC, '>', "DECKPNM", "keypad numeric mode", 0),
	ctl(decode.KindESC, '`', "DMI", "disable manual input", 0),
	ctl(decode.KindESC, 'b', "EMI", "enable manual input", 0),
	ctl(decode.KindESC, 'c', "RIS", "full reset (clears the screen)", Erase),
	ctl(decode.KindESC, 'd', "CMD", "coding method delimiter", 0),
	ctl(decode.KindESC, 'l', "", "HP memory lock", 0),
	ctl(decode.KindESC, 'm', "", "HP memory unlock", 0),
	ctl(decode.KindESC, 'n', "LS2", "invoke G2 character set as GL", 0),
	ctl(decode.KindESC, 'o', "LS3", "invoke G3 character set as GL", 0),
	ctl(decode.KindESC, '|', "LS3R", "invoke G3 character set as GR", 0),
	ctl(decode.KindESC, '}', "LS2R", "invoke G2 character set as GR", 0),
	ctl(decode.KindESC, '~', "LS1R", "invoke G1 character set as GR", 0),
}

// seq builds a CSI entry: private marker and intermediates in key, which
// is spelled as the function's bytes after CSI without parameters
// ("?h", "$p", " q", "m").
func seq(key, mn, desc, params string, cl Class, d Detail, unit string, vs ...Variant) Entry {
	e := Entry{Key: Key{Kind: decode.KindCSI}, Mnemonic: mn, Description: desc, Params: params,
		Classes: cl, Detail: d, Unit: unit, Variants: vs}
	if key[0] >= '<' && key[0] <= '?' {
		e.Private, key = key[0], key[1:]
	}
	e.Inter, e.Final = key[:len(key)-1], key[len(key)-1]
	return e
}

// p0 is a variant for first parameters lo–hi.
func p0(lo, hi uint16, mn, desc string, cl Class) Variant {
	return Variant{When: WhenP0, Lo: lo, Hi: hi, Mnemonic: mn, Description: desc, Classes: cl}
}

// csi are the control sequences (ECMA-48 8.3; xterm ctlseqs "Functions
// using CSI"; DEC STD 070 for the DEC functions; kitty's keyboard
// protocol).
var csi = []Entry{
	seq("@", "ICH", "insert", "Pn", 0, DetailCount, "blank character"),
	seq("A", "CUU", "cursor up", "Pn", CursorMove, DetailCount, "line"),
	seq("B", "CUD", "cursor down", "Pn", CursorMove, DetailCount, "line"),
	seq("C", "CUF", "cursor forward", "Pn", CursorMove, DetailCount, "column"),
	seq("D", "CUB", "cursor back", "Pn", CursorMove, DetailCount, "column"),
	seq("E", "CNL", "cursor to column 1 and down", "Pn", CursorMove, DetailCount, "line"),
	seq("F", "CPL", "cursor to column 1 and up", "Pn", CursorMove, DetailCount, "line"),
	seq("G", "CHA", "cursor to column", "Pn", CursorMove, DetailColumn, ""),
	seq("H", "CUP", "cursor to", "Pl ; Pc", CursorMove, DetailRowColumn, ""),
	seq("I", "CHT", "cursor forward", "Pn", CursorMove, DetailCount, "tab stop"),
	seq("J", "ED", "erase", "Ps", Erase, DetailEraseDisplay, ""),
	seq("K", "EL", "erase", "Ps", Erase, DetailEraseLine, ""),
	seq("L", "IL", "insert", "Pn", 0, DetailCount, "line"),
	seq("M", "DL", "delete", "Pn", Erase, DetailCount, "line"),
	seq("P", "DCH", "delete", "Pn", Erase, DetailCount, "character"),
	seq("S", "SU", "scroll up", "Pn", 0, DetailCount, "line"),
	seq("T", "SD", "scroll down", "Pn", 0, DetailCount, "line"),
	seq("X", "ECH", "erase", "Pn", Erase, DetailCount, "character"),
	seq("Z", "CBT", "cursor back", "Pn", CursorMove, DetailCount, "tab stop"),
	seq("`", "HPA", "cursor to column", "Pn", CursorMove, DetailColumn, ""),
	seq("a", "HPR", "cursor forward", "Pn", CursorMove, DetailCount, "column"),
	seq("b", "REP", "repeat the preceding character", "Pn", 0, DetailTimes, ""),
	seq("c", "DA1", "primary device attributes, with a parameter (ignored)", "Ps", 0, DetailNone, "",
		p0(0, 0, "", "primary device attributes", Query)),
	seq("d", "VPA", "cursor to row", "Pn", CursorMove, DetailRow, ""),
	seq("e", "VPR", "cursor down", "Pn", CursorMove, DetailCount, "line"),
	seq("f", "HVP", "cursor to", "Pl ; Pc", CursorMove, DetailRowColumn, ""),
	seq("g", "TBC", "tab clear", "Ps", 0, DetailNone, "",
		p0(0, 0, "", "clear the tab stop at the cursor", 0),
		p0(3, 3, "", "clear all tab stops", 0)),
	seq("h", "SM", "set mode", "Pm", 0, DetailANSIModes, ""),
	seq("i", "MC", "media copy (printer)", "Ps", 0, DetailNone, ""),
	seq("l", "RM", "reset mode", "Pm", 0, DetailANSIModes, ""),
	seq("m", "SGR", "", "Pm", 0, DetailSGR, "",
		Variant{When: WhenSGRConceal, Classes: SGRConceal, Detail: DetailSGR}),
	seq("n", "DSR", "device status report", "Ps", 0, DetailNone, "",
		p0(5, 5, "", "device status report", Query),
		p0(6, 6, "", "CPR, cursor position report", Query)),
	seq("q", "DECLL", "load LEDs", "Ps", 0, DetailNone, ""),
	seq("r", "DECSTBM", "scroll region", "Pt ; Pb", 0, DetailScrollRegion, ""),
	seq("s", "DECSLRM", "set left and right margins", "Pl ; Pr", 0, DetailNone, "",
		p0(0, 0, "SCOSC", "save cursor", 0)),
	seq("t", "XTWINOPS", "window operation", "Ps ; Ps ; Ps", 0, DetailWindowOp, "",
		p0(1, 1, "", "de-iconify window", 0),
		p0(2, 2, "", "iconify window", 0),
		p0(3, 3, "", "move window", 0),
		p0(4, 4, "", "resize window in pixels", 0),
		p0(5, 5, "", "raise window", 0),
		p0(6, 6, "", "lower window", 0),
		p0(7, 7, "", "refresh window", 0),
		Variant{When: WhenP0, Lo: 8, Hi: 8, Description: "resize text area to", Detail: DetailTextArea},
		p0(9, 9, "", "maximize or restore window", 0),
		p0(10, 10, "", "full-screen mode", 0),
		p0(11, 11, "", "report window state", Query),
		p0(13, 13, "", "report window position", Query),
		p0(14, 14, "", "report window size in pixels", Query),
		p0(15, 15, "", "report screen size in pixels", Query),
		p0(16, 16, "", "report character cell size in pixels", Query),
		p0(18, 18, "", "report text area size in characters", Query),
		p0(19, 19, "", "report screen size in characters", Query),
		p0(20, 20, "", "report icon label, the reply holds a title", Query),
		p0(21, 21, "", "report window title, the reply holds a title", Query),
		p0(22, 22, "", "push title on the stack", 0),
		p0(23, 23, "", "pop title from the stack", 0),
		Variant{When: WhenP0, Lo: 24, Hi: decode.MaxParamValue, Mnemonic: "DECSLPP", Description: "resize to", Detail: DetailLines}),
	seq("u", "SCORC", "restore cursor (moves the cursor; overwrites)", "", CursorMove, DetailNone, ""),
	seq("x", "DECREQTPARM", "request terminal parameters", "Ps", Query, DetailNone, ""),

	seq("?J", "DECSED", "selective erase", "Ps", Erase, DetailEraseDisplay, ""),
	seq("?K", "DECSEL", "selective erase", "Ps", Erase, DetailEraseLine, ""),
	seq("?h", "DECSET", "enable", "Pm", 0, DetailDECModes, "",
		Variant{When: WhenAnyParam, Params: []uint16{47, 1047, 1049}, Classes: AltScreen, Detail: DetailDECModes}),
	seq("?l", "DECRST", "disable", "Pm", 0, DetailDECModes, ""),
	seq("?n", "DSR", "DEC private status report", "Ps", Query, DetailNone, "",
		p0(6, 6, "DECXCPR", "extended cursor position report", Query),
		p0(996, 996, "", "colour scheme (dark or light) report", Query)),
	seq("?r", "XTRESTORE", "restore DEC private modes", "Pm", 0, DetailDECModes, ""),
	seq("?s", "XTSAVE", "save DEC private modes", "Pm", 0, DetailDECModes, ""),
	seq("?u", "", "kitty keyboard protocol: query flags", "", Query, DetailNone, ""),
	seq(">T", "XTRMTITLE", "reset title modes", "Pm", 0, DetailNone, ""),
	seq(">c", "DA2", "secondary device attributes, with a parameter (ignored)", "Ps", 0, DetailNone, "",
		p0(0, 0, "", "secondary device attributes", Query)),
	seq(">m", "XTMODKEYS", "set key modifier options", "Pp ; Pv", 0, DetailNone, ""),
	seq(">n", "XTMODKEYS", "reset key modifier options", "Pp", 0, DetailNone, ""),
	seq(">p", "XTSMPOINTER", "pointer mode", "Ps", 0, DetailNone, ""),
	seq(">q", "XTVERSION", "terminal name and version", "Ps", Query, DetailNone, ""),
	seq(">s", "XTSHIFTESCAPE", "shift-escape options", "Ps", 0, DetailNone, ""),
	seq(">t", "XTSMTITLE", "set title modes", "Pm", 0, DetailNone, ""),
	seq(">u", "", "kitty keyboard protocol: push flags", "Ps", 0, DetailNone, ""),
	seq("=c", "DA3", "tertiary device attributes, with a parameter (ignored)", "Ps", 0, DetailNone, "",
		p0(0, 0, "", "tertiary device attributes", Query)),
	seq("=u", "", "kitty keyboard protocol: set flags", "Ps ; Pm", 0, DetailNone, ""),
	seq("<M", "", "SGR mouse report (input from a terminal, echoed)", "Pb ; Px ; Py", 0, DetailNone, ""),
	seq("<m", "", "SGR mouse report (input from a terminal, echoed)", "Pb ; Px ; Py", 0, DetailNone, ""),
	seq("<u", "", "kitty keyboard protocol: pop flags", "Ps", 0, DetailNone, ""),

	seq(" @", "SL", "scroll left", "Pn", 0, DetailNone, ""),
	seq(" A", "SR", "scroll right", "Pn", 0, DetailNone, ""),
	seq(" q", "DECSCUSR", "cursor style", "Ps", 0, DetailCursorStyle, ""),
	seq(" t", "DECSWBV", "set warning-bell volume", "Ps", 0, DetailNone, ""),
	seq(" u", "DECSMBV", "set margin-bell volume", "Ps", 0, DetailNone, ""),
	seq("!p", "DECSTR", "soft terminal reset", "", 0, DetailNone, ""),
	seq("\"p", "DECSCL", "set conformance level", "Pl ; Pc", 0, DetailNone, ""),
	seq("\"q", "DECSCA", "select character protection", "Ps", 0, DetailNone, ""),
	seq("#p", "XTPUSHSGR", "push video attributes", "Pm", 0, DetailNone, ""),
	seq("#q", "XTPOPSGR", "pop video attributes", "", 0, DetailNone, ""),
	seq("#{", "XTPUSHSGR", "push video attributes", "Pm", 0, DetailNone, ""),
	seq("#|", "XTREPORTSGR", "report video attributes", "Pt ; Pl ; Pb ; Pr", Query, DetailNone, ""),
	seq("#}", "XTPOPSGR", "pop video attributes", "", 0, DetailNone, ""),
	seq("$p", "DECRQM", "request ANSI mode", "Pa", Query, DetailANSIModeQuery, ""),
	seq("?$p", "DECRQM", "request DEC private mode", "Pd", Query, DetailDECModeQuery, ""),
	seq("$r", "DECCARA", "change attributes in a rectangle", "Pt ; Pl ; Pb ; Pr ; Pm", 0, DetailNone, ""),
	seq("$t", "DECRARA", "reverse attributes in a rectangle", "Pt ; Pl ; Pb ; Pr ; Pm", 0, DetailNone, ""),
	seq("$v", "DECCRA", "copy a rectangle", "Pts ; Pls ; Pbs ; Prs ; Pps ; Ptd ; Pld ; Ppd", 0, DetailNone, ""),
	seq("$w", "DECRQPSR", "request presentation state report", "Ps", Query, DetailNone, ""),
	seq("$x", "DECFRA", "fill a rectangle", "Pch ; Pt ; Pl ; Pb ; Pr", 0, DetailNone, ""),
	seq("$z", "DECERA", "erase a rectangle", "Pt ; Pl ; Pb ; Pr", Erase, DetailNone, ""),
	seq("${", "DECSERA", "selective erase a rectangle", "Pt ; Pl ; Pb ; Pr", Erase, DetailNone, ""),
	seq("$|", "DECSCPP", "set columns per page", "Pn", 0, DetailNone, ""),
	seq("'w", "DECEFR", "enable filter rectangle", "Pt ; Pl ; Pb ; Pr", 0, DetailNone, ""),
	seq("'z", "DECELR", "enable locator reporting", "Ps ; Pu", 0, DetailNone, ""),
	seq("'|", "DECRQLP", "request locator position", "Ps", Query, DetailNone, ""),
	seq("'}", "DECIC", "insert columns", "Pn", 0, DetailNone, ""),
	seq("'~", "DECDC", "delete columns", "Pn", 0, DetailNone, ""),
	seq("*x", "DECSACE", "select attribute change extent", "Ps", 0, DetailNone, ""),
	seq("*y", "DECRQCRA", "request rectangle checksum (reads the screen back)", "Pid ; Pp ; Pt ; Pl ; Pb ; Pr", Query, DetailNone, ""),
	seq("*|", "DECSNLS", "set lines per screen", "Pn", 0, DetailNone, ""),
}

// command builds an OSC entry.
func command(n int32, desc string, cl Class, vs ...Variant) Entry {
	return Entry{Key: Key{Kind: decode.KindOSC, Command: n}, Description: desc, Params: "Pt", Classes: cl, Variants: vs}
}

// colour is an OSC entry that sets what, or queries it with a "?" field.
func colour(n int32, what string) Entry {
	return command(n, "set "+what, 0, Variant{When: WhenRead, Field: -1, Description: "query " + what, Classes: Query})
}

// osc are the operating system commands (xterm ctlseqs "Operating System
// Commands"; OSC 8 from egmontkob's hyperlink spec; OSC 133 from
// FinalTerm; OSC 1337 iTerm2; OSC 777 urxvt; OSC 9 iTerm2 and ConEmu;
// kitty's OSC 99, 5113 and 5522).
var osc = []Entry{
	command(0, "set icon name and window title", Title),
	command(1, "set icon name", Title),
	command(2, "set window title", Title),
	command(3, "set X property on the window", 0),
	colour(4, "colour palette entry"),
	colour(5, "special colour"),
	command(6, "enable or disable special colour", 0),
	command(7, "current working directory (file URL)", 0),
	command(8, "hyperlink open (target not shown)", Hyperlink,
		Variant{When: WhenLinkClose, Description: "hyperlink close"}),
	command(9, "desktop notification (iTerm2) or ConEmu command", 0,
		Variant{When: WhenPrefix, Prefix: "9;4;", Description: "progress indicator (ConEmu, Windows Terminal)"}),
	colour(10, "default foreground colour"),
	colour(11, "default background colour"),
	colour(12, "cursor colour"),
	colour(13, "mouse foreground colour"),
	colour(14, "mouse background colour"),
	colour(15, "Tektronix foreground colour"),
	colour(16, "Tektronix background colour"),
	colour(17, "highlight background colour"),
	colour(18, "Tektronix cursor colour"),
	colour(19, "highlight foreground colour"),
	command(22, "set pointer shape", 0),
	command(46, "change log file", 0),
	colour(50, "font"),
	command(51, "Emacs shell command", 0),
	command(52, "clipboard write", Clipboard,
		Variant{When: WhenRead, Field: 2, Description: "clipboard read, the reply holds the clipboard", Classes: Clipboard | Query}),
	command(99, "kitty desktop notification", 0),
	command(104, "reset colour palette entries", 0),
	command(105, "reset special colours", 0),
	command(106, "enable or disable special colours", 0),
	command(110, "reset default foreground colour", 0),
	command(111, "reset default background colour", 0),
	command(112, "reset cursor colour", 0),
	command(113, "reset a dynamic colour", 0),
	command(114, "reset a dynamic colour", 0),
	command(115, "reset a dynamic colour", 0),
	command(116, "reset a dynamic colour", 0),
	command(117, "reset a dynamic colour", 0),
	command(118, "reset a dynamic colour", 0),
	command(119, "reset a dynamic colour", 0),
	{Key: Key{Kind: decode.KindOSC, Command: 133}, Description: "shell prompt mark (FinalTerm)", Params: "Ps ; Pt", Detail: DetailShellMark},
	command(633, "VS Code shell integration", 0),
	command(697, "shell integration (Warp)", 0),
	command(777, "urxvt extension (notification)", 0),
	command(1337, "iTerm2 proprietary command", 0,
		Variant{When: WhenPrefix, Prefix: "1337;File=", Description: "iTerm2 inline file or image transfer"},
		Variant{When: WhenPrefix, Prefix: "1337;MultipartFile=", Description: "iTerm2 inline file or image transfer"}),
	command(3008, "context signalling (systemd)", 0),
	command(5113, "kitty file transfer", 0),
	command(5522, "kitty clipboard protocol", Clipboard),
}

// selector builds a DCS entry.
func selector(sel, mn, desc string, cl Class) Entry {
	return Entry{Key: Key{Kind: decode.KindDCS, Selector: sel}, Mnemonic: mn, Description: desc, Params: "Pt", Classes: cl}
}

// dcs are the device control strings named by the start of their payload
// (xterm ctlseqs "Device-Control functions"; tmux passthrough and
// control mode; the synchronized-update proposal).
var dcs = []Entry{
	selector("tmux;", "DCS", "tmux passthrough (a wrapped sequence for the outer terminal)", 0),
	selector("$q", "DECRQSS", "request selection or setting", Query),
	selector("+q", "XTGETTCAP", "request termcap/terminfo capabilities", Query),
	selector("+p", "XTSETTCAP", "set termcap/terminfo data", 0),
	selector("=1s", "DCS", "begin synchronized update", 0),
	selector("=2s", "DCS", "end synchronized update", 0),
	selector("1000p", "DCS", "tmux control mode start", 0),
}

// screenTitle is the GNU screen / tmux title string ESC k … ST.
var screenTitle = []Entry{
	{Key: Key{Kind: decode.KindScreenTitle}, Mnemonic: "ESC k", Description: "GNU screen / tmux window title", Params: "Pt", Classes: Title},
}
