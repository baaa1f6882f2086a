package sanitize

import (
	"bytes"
	"strconv"

	"github.com/bytelens/bytelens/decode"
)

// escape sets the flags of a two-byte or nF escape (ECMA-48 5.3; DEC
// private Fp: DECSC 7, DECRC 8).
func (c *cleaner) escape(t *decode.Token) {
	if t.Kind != decode.KindESC || t.Flags&(decode.FlagAborted|decode.FlagUnterminated) != 0 {
		return
	}
	f := &c.rep.Flags
	switch t.Final {
	case '8', 'M': // DECRC restores the cursor; RI moves it up
		c.flag(t, &f.CursorMove, "cursor_move")
	case 'c': // RIS: full reset, the screen is cleared
		c.flag(t, &f.Erase, "erase")
	}
}

// csi counts a control sequence and sets its flags (ECMA-48 8.3; xterm
// ctlseqs for the private and reporting ones).
func (c *cleaner) csi(t *decode.Token) {
	c.rep.countCSI(t.Private, t.Inter, t.Final)
	if t.Flags&(decode.FlagAborted|decode.FlagUnterminated|decode.FlagMalformed) != 0 {
		return
	}
	f := &c.rep.Flags
	p0 := param(t, 0)
	switch {
	case isQuery(t, p0):
		c.flag(t, &f.Query, "query")
	case t.NInter != 0:
	case t.Private == 0 && t.Final == 'm':
		if sgrConceals(t) {
			c.flag(t, &f.SGRConceal, "sgr_conceal")
		}
	case t.Private == 0 && csiFinals[t.Final] == csiErase,
		t.Private == '?' && (t.Final == 'J' || t.Final == 'K'):
		c.flag(t, &f.Erase, "erase")
	case t.Private == 0 && csiFinals[t.Final] == csiMove:
		c.flag(t, &f.CursorMove, "cursor_move")
	case t.Private == '?' && t.Final == 'h':
		for _, p := range t.Params() {
			if p == 47 || p == 1047 || p == 1049 {
				c.flag(t, &f.AltScreen, "alt_screen")
				break
			}
		}
	}
}

// CSI final bytes that erase or move the cursor (ECMA-48 8.3: ED, EL,
// ECH, DCH, DL; CUU, CUD, CUF, CUB, CNL, CPL, CHA, CUP, CHT, CBT, HVP, VPA,
// HPA, HPR, VPR; SCORC).
const (
	csiErase = 1 + iota
	csiMove
)

var csiFinals = func() (t [256]uint8) {
	for _, b := range []byte("JKXPM") {
		t[b] = csiErase
	}
	for _, b := range []byte("ABCDEFGHIZfd`aeu") {
		t[b] = csiMove
	}
	return t
}()

// param returns CSI parameter i, or 0 when it is absent.
func param(t *decode.Token, i int) uint16 {
	if i < int(t.NParam) {
		return t.Param[i]
	}
	return 0
}

// isQuery reports whether a CSI makes the terminal reply: DA1/DA2/DA3
// (c), DSR and CPR (5n, 6n, ?6n and other private n), XTWINOPS reports
// (t with 11, 13–21), DECRQM ($p), XTVERSION (>q), kitty keyboard flags
// (?u).
func isQuery(t *decode.Token, p0 uint16) bool {
	switch t.Final {
	case 'c':
		return t.NInter == 0 && p0 == 0
	case 'n':
		return t.NInter == 0 && (p0 == 5 || p0 == 6 || t.Private == '?')
	case 't':
		return t.NInter == 0 && t.Private == 0 && (p0 == 11 || p0 >= 13 && p0 <= 21)
	case 'p':
		return t.NInter == 1 && t.Inter[0] == '$'
	case 'q':
		return t.Private == '>' && t.NInter == 0
	case 'u':
		return t.Private == '?'
	}
	return false
}

// sgrConceals reports whether an SGR sets attribute 8 (conceal), skipping
// the arguments of extended colours (38/48/58;5;n and ;2;r;g;b).
func sgrConceals(t *decode.Token) bool {
	ps := t.Params()
	for i := 0; i < len(ps); i++ {
		if t.Sub&(1<<i) != 0 {
			continue
		}
		switch ps[i] {
		case 8:
			return true
		case 38, 48, 58:
			if i+1 < len(ps) && t.Sub&(1<<(i+1)) == 0 {
				switch ps[i+1] {
				case 5:
					i += 2
				case 2:
					i += 4
				}
			}
		}
	}
	return false
}

// osc counts an OSC and sets its flags (xterm ctlseqs "Operating System
// Commands"; OSC 8 from the hyperlinks spec by egmontkob).
func (c *cleaner) osc(t *decode.Token) {
	c.rep.countOSC(t.Command)
	if t.Is(decode.FlagAborted) || t.Is(decode.FlagUnterminated) {
		return
	}
	f := &c.rep.Flags
	switch t.Command {
	case 0, 1, 2:
		c.flag(t, &f.Title, "title")
	case 52:
		c.flag(t, &f.Clipboard, "clipboard")
		if oscRead(t, 2) {
			c.flag(t, &f.Query, "query")
		}
	case 8:
		c.link(t)
	case 4, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 50:
		if oscRead(t, -1) {
			c.flag(t, &f.Query, "query")
		}
	}
}

// oscRead reports whether the OSC asks the terminal for a value: field
// number field (0 is the command number) is exactly "?", or, with field
// -1, any field is.
func oscRead(t *decode.Token, field int) bool {
	q := t.PayloadPrefix()
	i := 0
	for start := 0; start <= len(q); i++ {
		end := bytes.IndexByte(q[start:], ';')
		last := end < 0
		if last {
			end = len(q)
		} else {
			end += start
		}
		if (field < 0 || i == field) && end-start == 1 && q[start] == '?' &&
			(!last || t.Payload == int64(len(q))) {
			return true
		}
		start = end + 1
	}
	return false
}

// link handles an OSC 8 hyperlink "8;params;URI": a non-empty URI opens a
// link, an empty one closes it. The label between is ordinary text.
func (c *cleaner) link(t *decode.Token) {
	introLen := int64(2) // ESC ] or C2 9D
	if t.Intro == decode.Intro8Bit {
		introLen = 1
	}
	// The payload, when it is still held (it is, unless it is longer
	// than the history the cleaner keeps); otherwise its prefix.
	var pl []byte
	if t.Payload <= MaxLinkURI+256 {
		pl = c.bytesAt(t.Off+introLen, t.Payload)
	}
	whole := pl != nil
	if !whole {
		pl = t.PayloadPrefix()
	}
	var uri []byte
	open := !whole // a payload too long to hold is not a bare "8;;"
	if len(pl) > 2 {
		if semi := bytes.IndexByte(pl[2:], ';'); semi >= 0 {
			uri = pl[2+semi+1:]
			open = len(uri) > 0 || !whole
		}
	}
	if !open {
		if c.linkOpen && c.linkURI != nil {
			c.rep.Kept.LinkTargets++
			c.emitString([]byte(" <"))
			c.emitString(c.linkURI)
			c.emitString([]byte(">"))
		}
		c.linkOpen, c.linkURI = false, nil
		return
	}
	c.flag(t, &c.rep.Flags.Hyperlink, "hyperlink")
	c.rep.Kept.LinkLabels++
	c.linkOpen, c.linkURI = true, nil
	if c.opts.Links == LinksAppend && whole && len(uri) <= MaxLinkURI && printableHTTP(uri) {
		c.linkURI = append(c.linkURI[:0], uri...)
	}
}

// printableHTTP reports whether uri is http(s) and only printable ASCII
// without spaces.
func printableHTTP(uri []byte) bool {
	if !bytes.HasPrefix(uri, []byte("http://")) && !bytes.HasPrefix(uri, []byte("https://")) {
		return false
	}
	for _, b := range uri {
		if b <= 0x20 || b >= 0x7F || b == '<' || b == '>' {
			return false
		}
	}
	return true
}

// Name names a token without its payload, for findings and status lines:
// "CSI ?1049h", "CSI 6n", "OSC 52 write", "DCS $q", "ESC 8", "CR", "C1 85",
// "U+202E". CSI parameters are listed up to four.
func Name(t *decode.Token) string {
	switch t.Kind {
	case decode.KindC0:
		return c0Names[t.Final]
	case decode.KindDEL:
		return "DEL"
	case decode.KindC1:
		return c1Names[t.Final&0x1F]
	case decode.KindESC, decode.KindNF:
		if t.Final == 0 {
			return "ESC"
		}
		b := append([]byte("ESC "), t.Intermediates()...)
		return string(append(b, t.Final))
	case decode.KindCSI:
		b := []byte("CSI ")
		if t.Private != 0 {
			b = append(b, t.Private)
		}
		for i, p := range t.Params() {
			if i == 4 {
				b = append(b, "…"...)
				break
			}
			if i > 0 {
				b = append(b, ';')
			}
			b = strconv.AppendUint(b, uint64(p), 10)
		}
		b = append(b, t.Intermediates()...)
		if t.Final != 0 {
			b = append(b, t.Final)
		}
		return string(b)
	case decode.KindOSC:
		if t.Command < 0 {
			return "OSC"
		}
		s := "OSC " + strconv.Itoa(int(t.Command))
		switch t.Command {
		case 52:
			if oscRead(t, 2) {
				return s + " read"
			}
			return s + " write"
		case 8:
			return s + " link"
		case 0, 1, 2:
			return s + " title"
		}
		return s
	case decode.KindDCS:
		q := t.PayloadPrefix()
		switch {
		case bytes.HasPrefix(q, []byte("tmux;")):
			return "DCS tmux passthrough"
		case bytes.HasPrefix(q, []byte("$q")), bytes.HasPrefix(q, []byte("+q")):
			return "DCS " + string(q[:2])
		}
		return "DCS"
	case decode.KindAPC:
		if q := t.PayloadPrefix(); len(q) > 0 && q[0] == 'G' {
			return "APC kitty graphics"
		}
		return "APC"
	case decode.KindPM:
		return "PM"
	case decode.KindSOS:
		return "SOS"
	case decode.KindScreenTitle:
		return "ESC k title"
	case decode.KindInvalid:
		return "invalid UTF-8"
	case decode.KindFormat:
		return string(appendCodePoint(nil, t.Rune))
	}
	return "text"
}

// c1Names are the ECMA-48 acronyms of the C1 controls (PAD, HOP and SGCI
// from ISO 6429 drafts, as xterm ctlseqs lists them).
var c1Names = [32]string{
	"PAD", "HOP", "BPH", "NBH", "IND", "NEL", "SSA", "ESA", "HTS", "HTJ", "VTS", "PLD", "PLU", "RI", "SS2", "SS3",
	"DCS", "PU1", "PU2", "STS", "CCH", "MW", "SPA", "EPA", "SOS", "SGCI", "SCI", "CSI", "ST", "OSC", "PM", "APC",
}

// c0Names are the ECMA-48 acronyms of the C0 controls.
var c0Names = [32]string{
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
}
