package ctlfunc

// Mode names for the parameters of SM, RM, DECSET, DECRST, XTSAVE,
// XTRESTORE and DECRQM.

// ANSIModeName names an ECMA-48 mode (ECMA-48 8.3.125 SM, 7.1), or
// returns "" for a mode it does not know.
func ANSIModeName(p uint16) string { return ansiModes[p] }

// DECModeName names a DEC private mode (xterm ctlseqs "DEC Private Mode
// Set (DECSET)", and the mode registries of kitty, mintty and contour),
// or returns "" for a mode it does not know.
func DECModeName(p uint16) string { return decModes[p] }

var ansiModes = map[uint16]string{
	2:  "KAM keyboard lock",
	4:  "IRM insert mode",
	12: "SRM local echo off",
	20: "LNM automatic newline",
}

var decModes = map[uint16]string{
	1:    "DECCKM application cursor keys",
	2:    "DECANM VT52 mode",
	3:    "DECCOLM 132 columns",
	4:    "DECSCLM smooth scroll",
	5:    "DECSCNM reverse video",
	6:    "DECOM origin mode",
	7:    "DECAWM auto-wrap",
	8:    "DECARM auto-repeat keys",
	9:    "X10 mouse reporting",
	12:   "blinking cursor",
	25:   "DECTCEM show cursor",
	40:   "allow 80/132 column switching",
	45:   "reverse wrap-around",
	47:   "alternate screen buffer",
	66:   "DECNKM application keypad",
	67:   "DECBKM backarrow sends backspace",
	69:   "DECLRMM left and right margins",
	80:   "DECSDM sixel display mode",
	1000: "mouse click tracking",
	1001: "mouse highlight tracking",
	1002: "mouse button-event (drag) tracking",
	1003: "mouse any-event tracking",
	1004: "focus in/out events",
	1005: "UTF-8 mouse encoding",
	1006: "SGR mouse encoding",
	1007: "alternate scroll",
	1015: "urxvt mouse encoding",
	1016: "SGR pixel mouse encoding",
	1034: "meta key sets the eighth bit",
	1035: "special modifiers for Alt and NumLock",
	1036: "meta key sends ESC",
	1037: "keypad Delete sends DEL",
	1039: "Alt key sends ESC",
	1047: "alternate screen buffer, cleared on exit",
	1048: "save cursor",
	1049: "alternate screen buffer, cursor saved, cleared",
	2004: "bracketed paste",
	2026: "synchronized output",
	2027: "grapheme cluster width",
	2031: "colour scheme change reports",
	2048: "in-band window resize reports",
	7727: "mintty application escape key",
	9001: "win32 input mode",
}
