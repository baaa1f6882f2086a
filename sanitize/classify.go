package sanitize

import (
	"bytes"
	"reflect"
	"strconv"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
)

// Advisory is a set of the advisory flags one token raises by itself: what
// a person at a terminal would have been shown differently. The classes,
// their names and their order are the catalogue's (ctlfunc.Classes). The
// overwrite and invisible flags depend on what surrounds a token, so they
// are not part of it.
type Advisory = ctlfunc.Class

// flagCounters gives, for each class in ctlfunc.Classes order, the index
// of the Flags field whose JSON name is the class's name, and
// anomalyCounters the same for ctlfunc.Anomalies and Anomalies: the
// cleaner counts in arrays in catalogue order and the report's snapshot
// fills the fields. TestCountersNamed checks that every name has a field.
var (
	flagCounters    = fieldsByJSON(reflect.TypeFor[Flags](), len(ctlfunc.Classes), func(i int) string { return ctlfunc.Classes[i].Name })
	anomalyCounters = fieldsByJSON(reflect.TypeFor[Anomalies](), len(ctlfunc.Anomalies), func(i int) string { return ctlfunc.Anomalies[i].Name })
)

// fieldsByJSON returns, for names 0 to n-1, the index of the int64 field
// of struct type t with that JSON name, or -1.
func fieldsByJSON(t reflect.Type, n int, name func(int) string) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = -1
		for j := range t.NumField() {
			if t.Field(j).Tag.Get("json") == name(i) {
				idx[i] = j
			}
		}
	}
	return idx
}

// Advisories returns the flags t raises: its function's classes in the
// catalogue (package ctlfunc, which cites ECMA-48 8.3, xterm ctlseqs and
// the OSC 8 hyperlink spec), and reorder for a bidi control. A token cut
// short (aborted, unterminated) or a malformed CSI raises none: no
// terminal would have carried it out.
func Advisories(t *decode.Token) Advisory {
	if t.Flags&(decode.FlagAborted|decode.FlagUnterminated|decode.FlagMalformed) != 0 {
		return 0
	}
	return ctlfunc.ClassesOf(t)
}

// LinkCloses reports whether an OSC 8 closes a hyperlink (ctlfunc.LinkCloses).
func LinkCloses(t *decode.Token) bool { return ctlfunc.LinkCloses(t) }

// OSCRead reports whether an OSC asks the terminal for a value
// (ctlfunc.OSCRead): field number field (0 is the command number) is
// exactly "?", or, with field -1, any field is.
func OSCRead(t *decode.Token, field int) bool { return ctlfunc.OSCRead(t, field) }

// link handles an OSC 8 hyperlink "8;params;URI": a non-empty URI opens a
// link, an empty one closes it (LinkCloses). The label between is
// ordinary text; under LinksAppend the URI follows the label, when the
// string is at most histLen bytes long (so that it can be read back
// however the Writes cut it) and the URI at most MaxLinkURI.
func (c *cleaner) link(t *decode.Token) {
	// A close, or an open that replaces the open link (terminals let the
	// new target take over), ends the label before it.
	c.endLink()
	if LinkCloses(t) {
		return
	}
	c.rep.Kept.LinkLabels++
	if c.opts.Links != LinksAppend || t.Payload > MaxLinkURI+256 || t.Len > histLen {
		return
	}
	pl := c.bytesAt(t.PayloadStart(), t.Payload)
	if len(pl) < 2 {
		return
	}
	if semi := bytes.IndexByte(pl[2:], ';'); semi >= 0 {
		if uri := pl[2+semi+1:]; len(uri) <= MaxLinkURI && printableHTTP(uri) {
			c.linkURI, c.linkOpen = append(c.linkURI[:0], uri...), true
		}
	}
}

// endLink ends the label of the open link: under LinksAppend its URI
// follows it.
func (c *cleaner) endLink() {
	if c.linkOpen {
		c.rep.Kept.LinkTargets++
		c.emitString([]byte(" <"))
		c.emitString(c.linkURI)
		c.emitString([]byte(">"))
	}
	c.linkOpen = false
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
// "U+202E". CSI parameters are listed up to four; a CSI left open with
// nothing after its introducer is "CSI", as an OSC without a number is
// "OSC".
func Name(t *decode.Token) string {
	switch t.Kind {
	case decode.KindC0, decode.KindC1:
		f, _ := ctlfunc.Lookup(t)
		return f.Mnemonic
	case decode.KindDEL:
		return "DEL"
	case decode.KindESC, decode.KindNF:
		if t.Final == 0 {
			return "ESC"
		}
		var buf [8]byte
		b := append(append(buf[:0], "ESC "...), t.Intermediates()...)
		return string(append(b, t.Final))
	case decode.KindCSI:
		var buf [48]byte // "CSI ?65535;65535;65535;65535…$$q" fits
		b := append(buf[:0], "CSI "...)
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
		if len(b) == len("CSI ") { // cut after ESC [, before anything of its own
			return "CSI"
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
