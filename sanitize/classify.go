package sanitize

import (
	"bytes"
	"math/bits"
	"strconv"

	"github.com/bytelens/bytelens/decode"
)

// Advisory is a set of the advisory flags one token raises by itself: what
// a person at a terminal would have been shown differently. The overwrite
// flag of CR and BS depends on what follows, so it is not part of it.
type Advisory uint16

// Advisory flags, named as Flags' JSON fields.
const (
	AdvQuery Advisory = 1 << iota
	AdvErase
	AdvCursorMove
	AdvSGRConceal
	AdvTitle
	AdvClipboard
	AdvHyperlink
	AdvAltScreen
	AdvReorder
)

// advisoryNames are the flags' names, in bit order.
var advisoryNames = [...]string{"query", "erase", "cursor_move", "sgr_conceal", "title", "clipboard", "hyperlink", "alt_screen", "reorder"}

// Names returns the names of the flags in a, in bit order.
func (a Advisory) Names() []string {
	var out []string
	for i, n := range advisoryNames {
		if a&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// counter returns the Flags field that counts the single flag a.
func (f *Flags) counter(a Advisory) *int64 {
	return [...]*int64{&f.Query, &f.Erase, &f.CursorMove, &f.SGRConceal, &f.Title, &f.Clipboard, &f.Hyperlink, &f.AltScreen, &f.Reorder}[bits.TrailingZeros16(uint16(a))]
}

// Advisories returns the flags t raises (ECMA-48 8.3; xterm ctlseqs for the
// private, reporting and OSC functions; the OSC 8 hyperlink spec). A token
// cut short (aborted, unterminated) or a malformed CSI raises none: no
// terminal would have carried it out.
//
//   - query: DA1/DA2/DA3 (CSI c), DSR and CPR (5n, 6n, private n), XTWINOPS
//     reports (CSI t with 11, 13–21), DECRQM ($p), XTVERSION (>q), kitty
//     keyboard flags (?u), DECRQSS and XTGETTCAP (DCS $q, +q), OSC 52 and
//     OSC 4/5/10–19/50 with a "?" field;
//   - erase: ED, EL, ECH, DCH, DL, DECSED, DECSEL, RIS;
//   - cursor_move: CUU…CHA, CUP, CHT, CBT, HVP, VPA, HPA, HPR, VPR, SCORC,
//     DECRC (ESC 8), RI (ESC M and C1 8D);
//   - sgr_conceal: SGR 8; title: OSC 0/1/2, ESC k; clipboard: OSC 52;
//   - hyperlink: an OSC 8 that opens a link; alt_screen: DECSET 47/1047/1049.
func Advisories(t *decode.Token) Advisory {
	if t.Flags&(decode.FlagAborted|decode.FlagUnterminated|decode.FlagMalformed) != 0 {
		return 0
	}
	switch t.Kind {
	case decode.KindC1:
		if t.Final == 0x8D {
			return AdvCursorMove
		}
	case decode.KindESC:
		switch t.Final {
		case '8', 'M':
			return AdvCursorMove
		case 'c':
			return AdvErase
		}
	case decode.KindCSI:
		return csiAdvisories(t)
	case decode.KindOSC:
		return oscAdvisories(t)
	case decode.KindDCS:
		if q := t.PayloadPrefix(); bytes.HasPrefix(q, []byte("$q")) || bytes.HasPrefix(q, []byte("+q")) {
			return AdvQuery
		}
	case decode.KindScreenTitle:
		return AdvTitle
	case decode.KindFormat:
		if decode.IsBidiControl(t.Rune) {
			return AdvReorder
		}
	}
	return 0
}

// csiAdvisories classifies a well-formed CSI.
func csiAdvisories(t *decode.Token) Advisory {
	switch {
	case isQuery(t, param(t, 0)):
		return AdvQuery
	case t.NInter != 0:
	case t.Private == 0 && t.Final == 'm':
		if sgrConceals(t) {
			return AdvSGRConceal
		}
	case t.Private == 0 && csiFinals[t.Final] == csiErase,
		t.Private == '?' && (t.Final == 'J' || t.Final == 'K'):
		return AdvErase
	case t.Private == 0 && csiFinals[t.Final] == csiMove:
		return AdvCursorMove
	case t.Private == '?' && t.Final == 'h':
		for _, p := range t.Params() {
			if p == 47 || p == 1047 || p == 1049 {
				return AdvAltScreen
			}
		}
	}
	return 0
}

// oscAdvisories classifies a complete OSC.
func oscAdvisories(t *decode.Token) Advisory {
	switch t.Command {
	case 0, 1, 2:
		return AdvTitle
	case 52:
		if OSCRead(t, 2) {
			return AdvClipboard | AdvQuery
		}
		return AdvClipboard
	case 8:
		if !LinkCloses(t) {
			return AdvHyperlink
		}
	case 4, 5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 50:
		if OSCRead(t, -1) {
			return AdvQuery
		}
	}
	return 0
}

// LinkCloses reports whether an OSC 8 has an empty URI ("8;params;"),
// which closes a hyperlink. It is judged on the stored payload prefix: a
// payload longer than the prefix is taken as an open.
func LinkCloses(t *decode.Token) bool {
	q := t.PayloadPrefix()
	if t.Payload != int64(len(q)) {
		return false
	}
	if len(q) <= 2 {
		return true
	}
	semi := bytes.IndexByte(q[2:], ';')
	return semi < 0 || 2+semi+1 == len(q)
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

// OSCRead reports whether an OSC asks the terminal for a value: field
// number field (0 is the command number) is exactly "?", or, with field
// -1, any field is. It is judged on the stored payload prefix.
func OSCRead(t *decode.Token, field int) bool {
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
// link, an empty one closes it (LinkCloses). The label between is
// ordinary text; under LinksAppend the URI follows the label.
func (c *cleaner) link(t *decode.Token) {
	// A close, or an open that replaces the open link (terminals let the
	// new target take over), ends the label before it.
	c.endLink()
	if LinkCloses(t) {
		return
	}
	c.rep.Kept.LinkLabels++
	if c.opts.Links != LinksAppend || t.Payload > MaxLinkURI+256 {
		return
	}
	introLen := int64(2) // ESC ] or C2 9D
	if t.Intro == decode.Intro8Bit {
		introLen = 1
	}
	pl := c.bytesAt(t.Off+introLen, t.Payload)
	if len(pl) < 2 {
		return
	}
	if semi := bytes.IndexByte(pl[2:], ';'); semi >= 0 {
		if uri := pl[2+semi+1:]; len(uri) <= MaxLinkURI && printableHTTP(uri) {
			c.linkURI = append([]byte(nil), uri...)
		}
	}
}

// endLink ends the label of the open link: under LinksAppend its URI
// follows it.
func (c *cleaner) endLink() {
	if c.linkURI != nil {
		c.rep.Kept.LinkTargets++
		c.emitString([]byte(" <"))
		c.emitString(c.linkURI)
		c.emitString([]byte(">"))
	}
	c.linkURI = nil
}

// printableHTTP reports whether uri is http(s) (the scheme in any case,
// RFC 3986 3.1) and only printable ASCII without spaces or angle brackets.
func printableHTTP(uri []byte) bool {
	scheme, _, ok := bytes.Cut(uri, []byte("://"))
	if !ok || !bytes.EqualFold(scheme, []byte("http")) && !bytes.EqualFold(scheme, []byte("https")) {
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
			if OSCRead(t, 2) {
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
