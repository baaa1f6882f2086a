package render

import (
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// firstToken returns the first token of s that is not embedded.
func firstToken(t *testing.T, s string) decode.Token {
	t.Helper()
	for tk := range decode.Tokens([]byte(s)) {
		if !tk.Is(decode.FlagEmbedded) {
			return tk
		}
	}
	t.Fatalf("no token in %q", s)
	return decode.Token{}
}

// TestDescribe checks the description of each family of sequences: SGR,
// cursor movement and erase, scroll region, DEC private modes, device
// queries, OSC commands, DCS requests, APC/PM/SOS/ESC k, two-byte and nF
// escapes, controls, invalid UTF-8, format characters and anomalies.
func TestDescribe(t *testing.T) {
	families := []struct {
		name  string
		cases [][2]string
	}{
		{"SGR", [][2]string{
			{"\x1b[31;1m", "SGR: foreground red, bold"},
			{"\x1b[m", "SGR: reset attributes"},
			{"\x1b[38;5;196;48;2;1;2;3m", "SGR: foreground colour 196 (256-colour palette), background #010203"},
			{"\x1b[4:3;58:2::10:20:30m", "SGR: curly underline, underline colour #0a141e"},
			{"\x1b[8m", "SGR: conceal (hides text)"},
			{"\x1b[0;39;49;97;107m", "SGR: reset, default foreground, default background, foreground bright white, background bright white"},
		}},
		{"cursor and erase", [][2]string{
			{"\x1b[A", "CUU: cursor up 1 line"},
			{"\x1b[5B", "CUD: cursor down 5 lines"},
			{"\x1b[10;20H", "CUP: cursor to row 10, column 20"},
			{"\x1b[H", "CUP: cursor to row 1, column 1"},
			{"\x1b[2J", "ED: erase the whole screen"},
			{"\x1b[3J", "ED: erase the scrollback (saved lines)"},
			{"\x1b[K", "EL: erase from the cursor to the end of the line"},
			{"\x1b[1K", "EL: erase from the start of the line to the cursor"},
			{"\x1b[4X", "ECH: erase 4 characters"},
			{"\x1b[5;20r", "DECSTBM: scroll region rows 5 to 20"},
			{"\x1b[r", "DECSTBM: scroll region reset to the whole screen"},
		}},
		{"modes", [][2]string{
			{"\x1b[?1049h", "DECSET: enable alternate screen buffer, cursor saved, cleared (1049)"},
			{"\x1b[?47l", "DECRST: disable alternate screen buffer (47)"},
			{"\x1b[?1047h", "DECSET: enable alternate screen buffer, cleared on exit (1047)"},
			{"\x1b[?2004h", "DECSET: enable bracketed paste (2004)"},
			{"\x1b[?1000;1002;1003;1006h", "DECSET: enable mouse click tracking (1000), mouse button-event (drag) tracking (1002), mouse any-event tracking (1003), SGR mouse encoding (1006)"},
			{"\x1b[?25l", "DECRST: disable DECTCEM show cursor (25)"},
			{"\x1b[?1004h", "DECSET: enable focus in/out events (1004)"},
			{"\x1b[?2026h", "DECSET: enable synchronized output (2026)"},
			{"\x1b[?9999h", "DECSET: enable mode 9999"},
		}},
		{"queries", [][2]string{
			{"\x1b[c", "DA1: primary device attributes (query: the terminal replies)"},
			{"\x1b[0c", "DA1: primary device attributes (query: the terminal replies)"},
			{"\x1b[>c", "DA2: secondary device attributes (query: the terminal replies)"},
			{"\x1b[=c", "DA3: tertiary device attributes (query: the terminal replies)"},
			{"\x1b[5n", "DSR: device status report (query: the terminal replies)"},
			{"\x1b[6n", "DSR: CPR, cursor position report (query: the terminal replies)"},
			{"\x1b[?6n", "DECXCPR: extended cursor position report (query: the terminal replies)"},
			{"\x1b[14t", "XTWINOPS: report window size in pixels (query: the terminal replies)"},
			{"\x1b[18t", "XTWINOPS: report text area size in characters (query: the terminal replies)"},
			{"\x1b[21t", "XTWINOPS: report window title, the reply holds a title (query: the terminal replies)"},
			{"\x1b[22;0t", "XTWINOPS: push title on the stack"},
			{"\x1b[2004$p", "DECRQM: request ANSI mode 2004 (query: the terminal replies)"},
			{"\x1b[?2004$p", "DECRQM: request DEC private mode 2004 (bracketed paste) (query: the terminal replies)"},
			{"\x1b[>q", "XTVERSION: terminal name and version (query: the terminal replies)"},
			{"\x1b[>0q", "XTVERSION: terminal name and version (query: the terminal replies)"},
		}},
		{"other CSI", [][2]string{
			{"\x1b[2 q", "DECSCUSR: cursor style steady block"},
			{"\x1b[!p", "DECSTR: soft terminal reset"},
			{"\x1b[4h", "SM: set mode IRM insert mode (4)"},
		}},
		{"OSC", [][2]string{
			{"\x1b]0;t\a", "OSC 0: set icon name and window title, 3 payload bytes, ended by BEL"},
			{"\x1b]1;t\a", "OSC 1: set icon name, 3 payload bytes, ended by BEL"},
			{"\x1b]2;t\x1b\\", "OSC 2: set window title, 3 payload bytes, ended by ST"},
			{"\x1b]4;1;?\a", "OSC 4: query colour palette entry (query: the terminal replies), 5 payload bytes, ended by BEL"},
			{"\x1b]4;1;rgb:00/00/00\a", "OSC 4: set colour palette entry, 16 payload bytes, ended by BEL"},
			{"\x1b]10;?\a", "OSC 10: query default foreground colour (query: the terminal replies), 4 payload bytes, ended by BEL"},
			{"\x1b]11;#000\a", "OSC 11: set default background colour, 7 payload bytes, ended by BEL"},
			{"\x1b]12;?\a", "OSC 12: query cursor colour (query: the terminal replies), 4 payload bytes, ended by BEL"},
			{"\x1b]7;file://h/p\a", "OSC 7: current working directory (file URL), 12 payload bytes, ended by BEL"},
			{"\x1b]8;;http://x/\x1b\\", "OSC 8: hyperlink open (target not shown), 12 payload bytes, ended by ST"},
			{"\x1b]8;;\x1b\\", "OSC 8: hyperlink close, 3 payload bytes, ended by ST"},
			{"\x1b]52;c;ZZZZ\a", "OSC 52: clipboard write, 9 payload bytes, ended by BEL"},
			{"\x1b]52;c;?\a", "OSC 52: clipboard read, the reply holds the clipboard (query: the terminal replies), 6 payload bytes, ended by BEL"},
			{"\x1b]133;A\a", "OSC 133: shell prompt mark (FinalTerm): prompt start, 5 payload bytes, ended by BEL"},
			{"\x1b]133;D;0\a", "OSC 133: shell prompt mark (FinalTerm): command finished, 7 payload bytes, ended by BEL"},
			{"\x1b]1337;File=name=x:AAAA\a", "OSC 1337: iTerm2 inline file or image transfer, 21 payload bytes, ended by BEL"},
			{"\x1b]1337;SetMark\a", "OSC 1337: iTerm2 proprietary command, 12 payload bytes, ended by BEL"},
			{"\x1b]777;notify;a;b\a", "OSC 777: urxvt extension (notification), 14 payload bytes, ended by BEL"},
			{"\x1b]9;hello\a", "OSC 9: desktop notification (iTerm2) or ConEmu command, 7 payload bytes, ended by BEL"},
			{"\x1b]9;4;1;50\a", "OSC 9: progress indicator (ConEmu, Windows Terminal), 8 payload bytes, ended by BEL"},
			{"\x1b]x\a", "OSC: no command number, 1 payload byte, ended by BEL"},
			{"\x1b]999;x\a", "OSC 999: unrecognised command, 5 payload bytes, ended by BEL"},
		}},
		{"DCS", [][2]string{
			{"\x1bP$qm\x1b\\", "DECRQSS: request selection or setting (query: the terminal replies), 3 payload bytes, ended by ST"},
			{"\x1bP+q544e\x1b\\", "XTGETTCAP: request termcap/terminfo capabilities (query: the terminal replies), 6 payload bytes, ended by ST"},
			{"\x1bP1;2q#0~\x1b\\", "DCS: sixel graphics, 7 payload bytes, ended by ST"},
			{"\x1bPq\x1b\\", "DCS: sixel graphics, 1 payload byte, ended by ST"},
			{"\x1bPtmux;\x1b\x1b]0;x\a\x1b\\", "DCS: tmux passthrough (a wrapped sequence for the outer terminal), 5 payload bytes; aborted by ESC"},
			{"\x1bP=1s\x1b\\", "DCS: begin synchronized update, 3 payload bytes, ended by ST"},
			{"\x1bPzz\x1b\\", "DCS: device control string, 2 payload bytes, ended by ST"},
		}},
		{"APC PM SOS ESC k", [][2]string{
			{"\x1b_Gf=100;AAAA\x1b\\", "APC: kitty graphics protocol command, 11 payload bytes, ended by ST"},
			{"\x1b_foo\x1b\\", "APC: application program command, 3 payload bytes, ended by ST"},
			{"\x1b^pm\x1b\\", "PM: privacy message, 2 payload bytes, ended by ST"},
			{"\x1bXsos\x1b\\", "SOS: start of string, 3 payload bytes, ended by ST"},
			{"\x1bktitle\x1b\\", "ESC k: GNU screen / tmux window title, 5 payload bytes, ended by ST"},
		}},
		{"two-byte escapes", [][2]string{
			{"\x1b7", "DECSC: save cursor"},
			{"\x1b8", "DECRC: restore cursor (moves the cursor; overwrites)"},
			{"\x1bM", "RI: reverse index (cursor up, scrolls back; overwrites)"},
			{"\x1bc", "RIS: full reset (clears the screen)"},
			{"\x1b=", "DECKPAM: keypad application mode"},
			{"\x1b>", "DECKPNM: keypad numeric mode"},
			{"\x1bD", "IND: index (cursor down, scrolls)"},
			{"\x1bE", "NEL: next line"},
			{"\x1bH", "HTS: set a tab stop"},
			{"\x1bZ", "DECID: identify terminal (query: the terminal replies)"},
			{"\x1b\\", "ST: string terminator (no string open)"},
			{"\x1bN", "SS2: single shift two"},
		}},
		{"nF escapes", [][2]string{
			{"\x1b(B", "SCS: designate G0 character set US ASCII"},
			{"\x1b(0", "SCS: designate G0 character set DEC special graphics (line drawing)"},
			{"\x1b)A", "SCS: designate G1 character set United Kingdom"},
			{"\x1b#8", "DECALN: screen alignment test (fills the screen with E)"},
			{"\x1b#6", "DECDWL: double-width line"},
			{"\x1b F", "S7C1T: send 7-bit C1 controls"},
			{"\x1b G", "S8C1T: send 8-bit C1 controls"},
			{"\x1b%G", "DOCS: select UTF-8"},
		}},
		{"controls", [][2]string{
			{"\r", "CR: carriage return (cursor to column 1; overwrites)"},
			{"\a", "BEL: bell"},
			{"\b", "BS: backspace (moves the cursor left; overwrites)"},
			{"\x00", "NUL: null"},
			{"\x7f", "DEL: delete (ignored by terminals)"},
			{"\x85", "NEL: next line; 8-bit C1 (raw byte 0x85)"},
			{"\u0085", "NEL: next line; C1 in UTF-8 (<U+0085>)"},
			{"\x9a", "DECID: identify terminal (query: the terminal replies); 8-bit C1 (raw byte 0x9a)"},
			{"\xff", "invalid UTF-8: 1 byte, one maximal subpart (one U+FFFD in cleaned text)"},
			{"\xe6\x9b", "invalid UTF-8: 2 bytes, one maximal subpart (one U+FFFD in cleaned text)"},
		}},
		{"invalid and format", [][2]string{
			{"\u202e", "<U+202E> RIGHT-TO-LEFT OVERRIDE: bidi control (reorders text)"},
			{"\u200d", "<U+200D> ZERO WIDTH JOINER: format character (shapes the text around it)"},
			{"\u3164", "<U+3164> HANGUL FILLER: format character (invisible)"},
			{"\U000E0100", "<U+E0100> VARIATION SELECTOR-17: variation selector (changes how the character before it is drawn)"},
			{"\ufe0f", "<U+FE0F> VARIATION SELECTOR-16: variation selector (changes how the character before it is drawn)"},
			{"\U000e0041", "<U+E0041> TAG LATIN CAPITAL LETTER A: invisible (can smuggle hidden text)"},
			{"\x1b]0;unterminated", "OSC 0: set icon name and window title, 14 payload bytes; unterminated: 16 bytes to the end of input swallowed"},
			{"\x1b[31\x18", "CSI: control sequence cut short; aborted by CAN"},
		}},
		{"anomalies", [][2]string{
			{"\x1b[3中", "CSI: control sequence cut short; aborted by a non-ASCII character"},
			{"\x1b[1;2?m", "SGR: bold, faint; malformed: bytes out of order (ECMA-48 5.4), consumed to the final byte"},
			{"\x9b31m", "SGR: foreground red; 8-bit C1 (raw byte 0x9b)"},
			{"\u009b31m", "SGR: foreground red; C1 in UTF-8 (<U+009B>)"},
			{"\x1b]0;x\x9c\x1b\\", "OSC 0: set icon name and window title, 4 payload bytes, ended by ST; ambiguous: a C1 ST inside a string opened by ESC, kept as payload (terminals disagree)"},
			{"\x9d0;x\x9c", "OSC 0: set icon name and window title, 3 payload bytes, ended by C1 ST; 8-bit C1 (raw byte 0x9d)"},
			{"\x1b", "ESC: an escape that introduces nothing; unterminated: 1 byte to the end of input swallowed"},
			{"\x1b\x1b[m", "ESC: an escape that introduces nothing; aborted by ESC"},
		}},
	}
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			for _, c := range f.cases {
				tk := firstToken(t, c[0])
				if got := Describe(&tk).String(); got != c[1] {
					t.Errorf("Describe(%q)\n got %q\nwant %q", c[0], got, c[1])
				}
			}
		})
	}
}
