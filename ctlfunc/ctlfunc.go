// Package ctlfunc is bytelens' one catalogue of control functions: for
// each function that a decode token can carry out, its key (introducer,
// private marker, intermediates and final byte; an OSC number; a DCS
// selector), its mnemonic, the advisory classes it raises (query, erase,
// cursor_move, …), the shape of its parameters and a one-line
// description. Package sanitize takes its advisory flags and names from
// it, package render its descriptions, the viewer its detail pane.
//
// Sources: ECMA-48 (5th edition, 1991) 8.3 for the standard functions,
// DEC STD 070 and the VT510 manual for DEC's, xterm's ctlseqs ("XTerm
// Control Sequences", 2024) for private modes, window operations, OSC
// commands and DCS requests, and the documentation of kitty, iTerm2,
// tmux, GNU screen and ConEmu for their extensions.
//
// The package imports only decode. It reads no payload byte beyond the
// structural ones an OSC number, a DCS selector or a "?" field are made
// of, and returns none.
package ctlfunc

import (
	"bytes"
	"strings"

	"github.com/bytelens/bytelens/decode"
)

// Class is a set of advisory classes: what a person at a terminal would
// have been shown differently, though nothing leaked.
type Class uint16

// Advisory classes, in the order of Classes.
const (
	Query Class = 1 << iota
	Erase
	CursorMove
	SGRConceal
	Title
	Clipboard
	Hyperlink
	AltScreen
	Reorder
)

// ClassInfo names one advisory class.
type ClassInfo struct {
	Class Class
	// Name is the class's name in reports and JSON ("cursor_move").
	Name string
	// Why says in a few words what a terminal would have done.
	Why string
}

// Classes lists every advisory class, in bit order.
var Classes = []ClassInfo{
	{Query, "query", "a terminal would have replied"},
	{Erase, "erase", "text painted over"},
	{CursorMove, "cursor_move", "text may be painted over"},
	{SGRConceal, "sgr_conceal", "a terminal would have hidden the text"},
	{Title, "title", "the window title would have changed"},
	{Clipboard, "clipboard", "the clipboard would have been used"},
	{Hyperlink, "hyperlink", "the label would have been a link"},
	{AltScreen, "alt_screen", "the alternate screen would have hidden the scrollback"},
	{Reorder, "reorder", "the text would have been shown in another order than it is read"},
}

// Names returns the names of the classes in c, in bit order.
func (c Class) Names() []string {
	var out []string
	for _, ci := range Classes {
		if c&ci.Class != 0 {
			out = append(out, ci.Name)
		}
	}
	return out
}

// Why returns the Why of the lowest class in c, or "" for none.
func (c Class) Why() string {
	for _, ci := range Classes {
		if c&ci.Class != 0 {
			return ci.Why
		}
	}
	return ""
}

// String returns the names of c joined by ",".
func (c Class) String() string { return strings.Join(c.Names(), ",") }

// QueryNote is what a description says of a function of class Query.
const QueryNote = "(query: the terminal replies)"

// Detail says how the parameters of a function are described; package
// render holds a formatter for each.
type Detail uint8

// Parameter details.
const (
	DetailNone          Detail = iota
	DetailCount                // "3 lines": Ps (default 1) and Entry.Unit
	DetailColumn               // "column 5": Ps (default 1)
	DetailRow                  // "row 5": Ps (default 1)
	DetailRowColumn            // "row 2, column 5": Pl ; Pc (defaults 1)
	DetailTimes                // "4 times": Ps (default 1)
	DetailEraseDisplay         // "the whole screen": Ps 0–3
	DetailEraseLine            // "the whole line": Ps 0–2
	DetailANSIModes            // "IRM insert mode (4)": Pm of ECMA-48 modes
	DetailDECModes             // "bracketed paste (2004)": Pm of DEC private modes
	DetailANSIModeQuery        // "4 (IRM insert mode)": one ECMA-48 mode
	DetailDECModeQuery         // "2004 (bracketed paste)": one DEC private mode
	DetailSGR                  // the SGR attribute list
	DetailScrollRegion         // "rows 1 to 10": Pt ; Pb
	DetailCursorStyle          // "steady bar": Ps 0–6
	DetailTextArea             // "24 rows, 80 columns": Ps ; Ph ; Pw
	DetailLines                // "36 lines": Ps itself
	DetailWindowOp             // "window operation 99": Ps itself
	DetailShellMark            // OSC 133's mark letter
)

// Key identifies a control function by its token's parts.
type Key struct {
	// Kind is KindC0, KindC1, KindESC, KindCSI, KindOSC or KindDCS.
	Kind decode.Kind
	// Private is a CSI's private marker ('<', '=', '>', '?'), or 0.
	Private byte
	// Inter holds a CSI's intermediate bytes (0x20–0x2F), at most
	// decode.MaxIntermediate.
	Inter string
	// Final is the final byte of an ESC or CSI, or the code of a C0 or C1
	// control.
	Final byte
	// Command is an OSC's number.
	Command int32
	// Selector is the start of a DCS payload that names its function
	// ("$q", "+q", "tmux;").
	Selector string
}

// When selects a variant of a function by its parameters or payload.
type When uint8

// Variant conditions.
const (
	// WhenP0: the first CSI parameter (0 when absent) is in Lo–Hi.
	WhenP0 When = iota + 1
	// WhenAnyParam: some CSI parameter is one of Params.
	WhenAnyParam
	// WhenSGRConceal: an SGR that sets attribute 8, the arguments of
	// extended colours skipped.
	WhenSGRConceal
	// WhenRead: an OSC field is exactly "?" (Field 0 and up counts the
	// command number as field 0; -1 means any field).
	WhenRead
	// WhenLinkClose: an OSC 8 with an empty URI.
	WhenLinkClose
	// WhenPrefix: the payload begins with Prefix.
	WhenPrefix
)

// Variant is a form of a function that its parameters select. Its
// non-empty Mnemonic and Description replace the entry's; Classes and
// Detail always do.
type Variant struct {
	When   When
	Lo, Hi uint16   // WhenP0
	Params []uint16 // WhenAnyParam
	Field  int      // WhenRead
	Prefix string   // WhenPrefix

	Mnemonic    string
	Description string
	Classes     Class
	Detail      Detail
}

// Entry is one control function of the catalogue.
type Entry struct {
	Key
	// Mnemonic is the function's acronym ("CUP", "DECSET", "OSC 52"), or
	// "" for an extension without one.
	Mnemonic string
	// Description says in one line what the function does ("cursor
	// position"); a function of class Query says whose reply it asks for.
	Description string
	// Params names the parameters in ECMA-48's notation ("Pl ; Pc"), or
	// "" for none.
	Params string
	// Classes are the advisory classes it raises, unless a variant says
	// otherwise.
	Classes Class
	// Detail says how render describes the parameters; Unit is the
	// counted thing of DetailCount ("line").
	Detail Detail
	Unit   string
	// Variants are forms that the parameters select, tried in order.
	Variants []Variant
}

// Function is an entry resolved for one token: the variant its
// parameters select applied.
type Function struct {
	Entry       *Entry
	Mnemonic    string
	Description string
	Classes     Class
	Detail      Detail
}

// Lookup returns the function that t carries out, and false when the
// catalogue has none for its key (text, invalid UTF-8, format characters,
// nF escapes, APC, PM, SOS, an unassigned sequence) or the sequence was
// cut before its final byte.
func Lookup(t *decode.Token) (Function, bool) {
	n := entryNum(t)
	if n == 0 || n == formatNum {
		return Function{}, false
	}
	e := entries[n-1]
	f := Function{Entry: e, Mnemonic: e.Mnemonic, Description: e.Description, Classes: e.Classes, Detail: e.Detail}
	if v := e.variant(t); v != nil {
		if v.Mnemonic != "" {
			f.Mnemonic = v.Mnemonic
		}
		if v.Description != "" {
			f.Description = v.Description
		}
		f.Classes, f.Detail = v.Classes, v.Detail
	}
	return f, true
}

// ClassesOf returns the advisory classes t raises by itself: those of its
// function, and Reorder for a bidi control (decode.IsBidiControl). It
// does not look at anomalies; package sanitize raises nothing for a token
// cut short. For a function without variants it is one table look-up.
func ClassesOf(t *decode.Token) Class {
	n := entryNum(t)
	in := &info[n]
	switch {
	case !in.variants:
		return in.classes
	case in.conceal:
		if sgrConceals(t) {
			return in.varClasses
		}
		return in.classes
	}
	return varied(t, n)
}

// varied returns the classes of t, whose entry number n (entryNum) has
// variants or is formatNum.
func varied(t *decode.Token, n uint16) Class {
	if n == formatNum {
		if decode.IsBidiControl(t.Rune) {
			return Reorder
		}
		return 0
	}
	e := entries[n-1]
	if v := e.variant(t); v != nil {
		return v.Classes
	}
	return e.Classes
}

// variant returns the first of e's variants that t's parameters select,
// or nil.
func (e *Entry) variant(t *decode.Token) *Variant {
	for i := range e.Variants {
		if v := &e.Variants[i]; v.holds(t) {
			return v
		}
	}
	return nil
}

func (v *Variant) holds(t *decode.Token) bool {
	switch v.When {
	case WhenP0:
		p := Param(t, 0)
		return p >= v.Lo && p <= v.Hi
	case WhenAnyParam:
		for _, p := range t.Params() {
			for _, q := range v.Params {
				if p == q {
					return true
				}
			}
		}
	case WhenSGRConceal:
		return sgrConceals(t)
	case WhenRead:
		return OSCRead(t, v.Field)
	case WhenLinkClose:
		return LinkCloses(t)
	case WhenPrefix:
		return bytes.HasPrefix(t.PayloadPrefix(), []byte(v.Prefix))
	}
	return false
}

// Param returns CSI parameter i, or 0 when it is absent.
func Param(t *decode.Token, i int) uint16 {
	if i < int(t.NParam) {
		return t.Param[i]
	}
	return 0
}

// The catalogue arranged for look-up. Every key but a DCS selector and a
// CSI with two intermediates has a number (keyOf's layout below), and
// byKey gives, for each number, the entry's place in entries plus one (0:
// no function), so that finding a function is one index.
const (
	keyC0  = 0             // C0 code
	keyC1  = keyC0 + 32    // C1 code less 0x80
	keyESC = keyC1 + 32    // ESC final byte; Fe (0x40–0x5F) holds the C1 entries
	keyCSI = keyESC + 0x80 // [private marker][intermediate][final-0x40], below
	// A CSI's number: its private marker's index in privateMarkers, then
	// no intermediate (0) or the one intermediate 0x20–0x2F (1–16), then
	// its final byte 0x40–0x7F.
	csiInters  = 17
	keyOSC     = keyCSI + (len(privateMarkers)+1)*csiInters*64 // OSC command number below oscNumbers
	oscNumbers = 8192
	keyTitle   = keyOSC + oscNumbers // ESC k
	numKeys    = keyTitle + 1
)

var (
	// entries is every entry of the catalogue, in All's order.
	entries = All()
	// formatNum is the entry number entryNum gives a format character:
	// no entry, but classes that depend on the character (varied).
	formatNum = uint16(len(entries) + 1)
	// info holds, for each entry number (0: none), what ClassesOf needs
	// without reading the entry.
	info = func() []entryInfo {
		in := make([]entryInfo, formatNum+1)
		for i, e := range entries {
			in[i+1] = entryInfo{classes: e.Classes, variants: len(e.Variants) > 0}
			if len(e.Variants) == 1 && e.Variants[0].When == WhenSGRConceal {
				in[i+1].conceal, in[i+1].varClasses = true, e.Variants[0].Classes
			}
		}
		in[formatNum].variants = true
		return in
	}()
	byKey    [numKeys]uint16
	csiInter = map[csiKey]uint16{} // CSIs with two intermediates
	dcsNums  []uint16              // the DCS entries, in dcs order
)

// entryInfo is what ClassesOf needs of an entry: its classes, whether it
// has variants, and for SGR, whose one variant is WhenSGRConceal (the
// most common CSI of all), that variant's classes, so that it is decided
// without walking the variants.
type entryInfo struct {
	classes, varClasses Class
	variants, conceal   bool
}

type csiKey struct {
	private byte
	inter   [decode.MaxIntermediate]byte
	final   byte
}

func init() {
	for i, e := range entries {
		n := uint16(i + 1)
		switch e.Kind {
		case decode.KindC0:
			byKey[keyC0+int(e.Final&0x1F)] = n
		case decode.KindC1:
			byKey[keyC1+int(e.Final&0x1F)] = n
			byKey[keyESC+0x40+int(e.Final&0x1F)] = n
		case decode.KindESC:
			byKey[keyESC+int(e.Final)] = n
		case decode.KindCSI:
			if len(e.Inter) == 2 {
				csiInter[csiKey{e.Private, [2]byte{e.Inter[0], e.Inter[1]}, e.Final}] = n
				continue
			}
			inter := 0
			if len(e.Inter) == 1 {
				inter = 1 + int(e.Inter[0]&0x0F)
			}
			byKey[csiNum(privateIndex[e.Private], inter, e.Final)] = n
		case decode.KindOSC:
			byKey[keyOSC+int(e.Command)] = n // a number past oscNumbers panics here
		case decode.KindDCS:
			dcsNums = append(dcsNums, n)
		case decode.KindScreenTitle:
			byKey[keyTitle] = n
		}
	}
}

// csiNum is the number of a CSI key: private marker index, intermediate
// (0 none, else 1 + its low four bits) and final byte 0x40–0x7F.
func csiNum(private uint8, inter int, final byte) int {
	return keyCSI + (int(private)*csiInters+inter)*64 + int(final-0x40)
}

// entryNum returns the place in entries plus one of t's function, 0 for
// none, or formatNum for a format character.
func entryNum(t *decode.Token) uint16 {
	if t.Kind == decode.KindCSI && t.NInter == 0 && t.Final-0x40 < 0x40 {
		return byKey[csiNum(privateIndex[t.Private], 0, t.Final)]
	}
	return otherNum(t)
}

// otherNum is entryNum for every token but a CSI without intermediates.
func otherNum(t *decode.Token) uint16 {
	switch t.Kind {
	case decode.KindFormat:
		return formatNum
	case decode.KindC0:
		return byKey[keyC0+int(t.Final&0x1F)]
	case decode.KindC1:
		return byKey[keyC1+int(t.Final&0x1F)]
	case decode.KindESC:
		return byKey[keyESC+int(t.Final&0x7F)] // Final 0: cut short, no entry
	case decode.KindCSI:
		if t.Final < 0x40 || t.Final >= 0x80 {
			return 0
		}
		switch t.NInter {
		case 0:
			return byKey[csiNum(privateIndex[t.Private], 0, t.Final)]
		case 1:
			return byKey[csiNum(privateIndex[t.Private], 1+int(t.Inter[0]&0x0F), t.Final)]
		}
		return csiInter[csiKey{t.Private, t.Inter, t.Final}]
	case decode.KindOSC:
		if uint32(t.Command) < oscNumbers {
			return byKey[keyOSC+int(t.Command)]
		}
	case decode.KindScreenTitle:
		return byKey[keyTitle]
	case decode.KindDCS:
		q := t.PayloadPrefix()
		for _, n := range dcsNums {
			if bytes.HasPrefix(q, []byte(entries[n-1].Selector)) {
				return n
			}
		}
	}
	return 0
}

// privateMarkers are the CSI private markers in index order; "\x00" is
// none. A byte that is no marker indexes one more row of byKey, which
// holds no function.
const privateMarkers = "\x00<=>?"

// privateIndex gives the index of each byte in privateMarkers, or
// len(privateMarkers).
var privateIndex = func() (t [256]uint8) {
	for i := range t {
		t[i] = uint8(len(privateMarkers))
		if j := strings.IndexByte(privateMarkers, byte(i)); j >= 0 {
			t[i] = uint8(j)
		}
	}
	return t
}()

// All returns every entry of the catalogue: C0, C1, ESC, CSI, OSC, DCS
// and ESC k.
func All() []*Entry {
	var out []*Entry
	for _, tab := range [][]Entry{c0[:], c1[:], esc, csi, osc, dcs, screenTitle} {
		for i := range tab {
			out = append(out, &tab[i])
		}
	}
	return out
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

// sgrConceals reports whether an SGR sets attribute 8 (conceal), skipping
// the arguments of extended colours (38/48/58;5;n and ;2;r;g;b).
func sgrConceals(t *decode.Token) bool { return concealsIn(t.Params(), t.Sub) }

// concealsIn is sgrConceals for the parameters ps of an SGR, bit i of sub
// set when ps[i] is a sub-parameter.
func concealsIn(ps []uint16, sub uint32) bool {
	for i := 0; i < len(ps); i++ {
		if sub&(1<<i) != 0 {
			continue
		}
		switch ps[i] {
		case 8:
			return true
		case 38, 48, 58:
			if i+1 < len(ps) && sub&(1<<(i+1)) == 0 {
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

// Anomaly names one decode flag, as reports and descriptions name it.
type Anomaly struct {
	Flag decode.Flags
	// Name is the anomaly's name in reports and JSON ("unterminated").
	Name string
}

// Anomalies lists the decode flags that reports count, in bit order:
// Anomalies[i].Flag is 1<<i, so that a token's flags index it
// (TestAnomaliesInBitOrder).
var Anomalies = []Anomaly{
	{decode.FlagMalformed, "malformed"},
	{decode.FlagAborted, "aborted"},
	{decode.FlagUnterminated, "unterminated"},
	{decode.FlagOverlong, "overlong"},
	{decode.FlagAmbiguous, "ambiguous"},
	{decode.FlagOverflow, "overflow"},
}

// AnomalyFlags is the set of the flags in Anomalies.
const AnomalyFlags = decode.FlagMalformed | decode.FlagAborted | decode.FlagUnterminated |
	decode.FlagOverlong | decode.FlagAmbiguous | decode.FlagOverflow
