// Package decode is bytelens' shared parser: a streaming decoder of
// terminal byte streams after the DEC/ECMA-48 parser model (Paul Williams'
// state diagram, as used by xterm, vte and alacritty), adapted to UTF-8 and
// made to fail closed.
//
// The decoder splits a byte stream into tokens whose spans tile the input:
// runs of text, single controls (C0, DEL, C1), escape sequences, control
// sequences (CSI), control strings (OSC, DCS, SOS, PM, APC and the GNU
// screen title ESC k), invalid UTF-8 units and Unicode format characters.
// It never decodes text before it has recognised controls, and it keeps no
// payload: control strings are counted and skipped, with a bounded prefix
// kept for naming.
//
// The grammar is the one in DESIGN.md ("decode: the shared parser"). It is
// written by hand, one method per state of the DEC diagram, named as in
// the diagram, in one file per family: ground.go, utf8.go, escape.go,
// csi.go and strings.go (control strings); decoder.go lists the states and
// the additions to the diagram (UTF-8, fail-closed aborts, the OSC number)
// in the doc of type state. ground skips printable ASCII eight bytes at a
// time and passes over whole UTF-8 characters whose lead byte can start
// neither a C1 control nor a format character (plainLead, derived from
// the format table); control string payloads are skipped in bulk the same
// way. reference_test.go holds a plain byte-at-a-time transcription of the
// grammar, without fast paths, that FuzzReference compares with the
// decoder token for token.
package decode

// Kind classifies a token.
type Kind uint8

// Token kinds.
const (
	// KindText is a run of text: printable ASCII, TAB, LF and well-formed
	// UTF-8 whose code point is neither a control nor a format character.
	KindText Kind = iota
	// KindC0 is one C0 control (0x00–0x1F) other than TAB and LF, ESC
	// excluded; Token.Final holds the byte.
	KindC0
	// KindDEL is the byte 0x7F.
	KindDEL
	// KindC1 is one C1 control (0x80–0x9F) that introduces nothing, in
	// either spelling (see Token.Intro); Token.Final holds the code.
	KindC1
	// KindESC is a two-byte escape sequence ESC F with F in 0x30–0x7E
	// (ECMA-48 5.3 Fe/Fp/Fs), or an ESC that was aborted or left open.
	KindESC
	// KindNF is an escape sequence ESC I… F with intermediates 0x20–0x2F
	// (ECMA-35 nF: ESC ( B, ESC # 8, ESC SP F).
	KindNF
	// KindCSI is a control sequence (ECMA-48 5.4): introducer, parameter
	// bytes 0x30–0x3F, intermediates 0x20–0x2F and a final byte 0x40–0x7E.
	KindCSI
	// KindOSC is an operating system command string (ECMA-48 8.3.89).
	KindOSC
	// KindDCS is a device control string (ECMA-48 8.3.27).
	KindDCS
	// KindAPC is an application program command string (ECMA-48 8.3.2).
	KindAPC
	// KindPM is a privacy message string (ECMA-48 8.3.94).
	KindPM
	// KindSOS is a start of string ... string terminator string (ECMA-48 8.3.128).
	KindSOS
	// KindScreenTitle is the GNU screen / tmux title string ESC k … ST.
	KindScreenTitle
	// KindInvalid is one maximal subpart of ill-formed UTF-8 (Unicode 15
	// 3.9, "U+FFFD Substitution of Maximal Subparts"), or a lone byte
	// 0xA0–0xFF.
	KindInvalid
	// KindFormat is one Unicode format character that the sanitizer has a
	// policy for (bidi controls, zero-width characters, tags, variation
	// selectors, soft hyphen); Token.Rune holds it.
	KindFormat

	numKinds
)

var kindNames = [numKinds]string{
	KindText: "text", KindC0: "c0", KindDEL: "del", KindC1: "c1",
	KindESC: "esc", KindNF: "nf", KindCSI: "csi", KindOSC: "osc",
	KindDCS: "dcs", KindAPC: "apc", KindPM: "pm", KindSOS: "sos",
	KindScreenTitle: "esc-k", KindInvalid: "invalid-utf8", KindFormat: "format",
}

// String returns the kind's short name as used in reports ("csi", "osc",
// "esc-k", "invalid-utf8").
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "kind?"
}

// IsString reports whether k is a control string kind (OSC, DCS, APC, PM,
// SOS, ESC k), whose bytes between introducer and terminator are payload.
func (k Kind) IsString() bool { return k >= KindOSC && k <= KindScreenTitle }

// Intro says how a sequence, string or C1 control was spelled.
type Intro uint8

// Spellings of an introducer.
const (
	// IntroNone: the token has no introducer (text, C0, DEL, invalid, format).
	IntroNone Intro = iota
	// Intro7Bit: ESC followed by a byte 0x40–0x5F (or ESC k).
	Intro7Bit
	// Intro8Bit: a raw byte 0x80–0x9F that was not part of a UTF-8 unit.
	Intro8Bit
	// IntroUTF8: the UTF-8 encoding of U+0080–U+009F (C2 80–C2 9F).
	IntroUTF8
)

// String returns "7-bit", "8-bit", "utf-8" or "".
func (i Intro) String() string {
	switch i {
	case Intro7Bit:
		return "7-bit"
	case Intro8Bit:
		return "8-bit"
	case IntroUTF8:
		return "utf-8"
	}
	return ""
}

// Term says how a control string ended.
type Term uint8

// String terminators.
const (
	TermNone Term = iota // not terminated (aborted or unterminated)
	TermST               // ESC \ (7-bit ST)
	TermBEL              // BEL, the xterm OSC terminator
	TermC1               // C1 ST: a raw 9C byte or U+009C
)

// String returns "ST", "BEL", "C1 ST" or "".
func (t Term) String() string {
	switch t {
	case TermST:
		return "ST"
	case TermBEL:
		return "BEL"
	case TermC1:
		return "C1 ST"
	}
	return ""
}

// Abort names what cut a sequence or string short.
type Abort uint8

// Abort causes.
const (
	AbortNone     Abort = iota
	AbortCAN            // CAN (0x18)
	AbortSUB            // SUB (0x1A)
	AbortESC            // ESC starting a new escape
	AbortC1             // a C1 introducer starting a new sequence
	AbortNonASCII       // a non-ASCII character inside an escape or CSI
)

// String returns "CAN", "SUB", "ESC", "C1", "non-ASCII" or "".
func (a Abort) String() string {
	return [...]string{"", "CAN", "SUB", "ESC", "C1", "non-ASCII"}[a]
}

// Flags are anomalies and properties of a token. Anomalies are data, not
// errors: the decoder never fails.
type Flags uint16

// Token flags.
const (
	// FlagMalformed: a CSI with bytes out of order (ECMA-48 5.4), consumed
	// to its final byte.
	FlagMalformed Flags = 1 << iota
	// FlagAborted: cut short by CAN, SUB, ESC, a C1 introducer or a
	// non-ASCII character; Token.Abort says which.
	FlagAborted
	// FlagUnterminated: still open at the end of the input.
	FlagUnterminated
	// FlagOverlong: a control string whose payload exceeds the decoder's
	// MaxPayload bytes.
	FlagOverlong
	// FlagAmbiguous: terminals disagree about these bytes; the decoder
	// chose the reading that removes more (a C1 ST inside a string opened
	// by ESC is kept as payload).
	FlagAmbiguous
	// FlagOverflow: more parameters, digits or intermediates than stored;
	// counts saturate.
	FlagOverflow
	// FlagEmbedded: a C0 control (or TAB, LF) executed inside an escape or
	// CSI; its span lies inside the span of the next token that is not
	// embedded.
	FlagEmbedded
)

// Limits of what a Token stores. Beyond them counts saturate and
// FlagOverflow is set.
const (
	MaxParams       = 32    // parameters stored per CSI
	MaxParamValue   = 65535 // a parameter saturates here
	MaxIntermediate = 2     // intermediate bytes stored
	PrefixLen       = 16    // payload bytes kept for naming a control string
	// DefaultMaxPayload is the payload length in bytes past which a control
	// string is flagged overlong when Decoder.MaxPayload is zero.
	DefaultMaxPayload = 4096
)

// Token is one element of the stream: a span of the input and what it is.
// Spans are absolute: Off counts bytes from the start of the stream, across
// every Feed. Tokens never point into the caller's buffers.
type Token struct {
	Off int64 // offset in bytes of the first byte, from the start of the stream
	Len int64 // length in bytes, introducer and terminator included

	Kind  Kind
	Intro Intro // how the introducer was spelled (sequences, strings, C1)
	Flags Flags
	Abort Abort // what aborted the token, with FlagAborted
	Term  Term  // how a control string ended

	// Final is the final byte of an escape or CSI, or the code of a C0,
	// DEL or C1 control (0x00–0x1F, 0x7F, 0x80–0x9F). A control string
	// left open at the end of the stream by an ESC (perhaps the first byte
	// of ST) has Final 0x1B: that ESC is its last byte, neither payload
	// nor terminator.
	Final byte
	// Private is a CSI's private marker ('<', '=', '>', '?'), or 0.
	Private byte
	// Inter holds the first NInter intermediate bytes (0x20–0x2F).
	Inter  [MaxIntermediate]byte
	NInter uint8

	// Param holds the first NParam parameters of a CSI, each saturating at
	// MaxParamValue; an omitted parameter is 0. ParamCount is the number of
	// parameters present, saturating at 65535. Bit i of Sub is set when
	// parameter i was introduced by ':' (a sub-parameter, ITU T.416).
	Param      [MaxParams]uint16
	NParam     uint8
	ParamCount uint16
	Sub        uint32

	// Command is an OSC's leading number (0 title, 8 hyperlink, 52
	// clipboard…), or -1 when the payload does not start with digits
	// followed by ';' or the end.
	Command int32
	// Payload is the number of payload bytes of a control string: the
	// bytes between introducer and terminator.
	Payload int64
	// Prefix holds the first NPrefix payload bytes of a control string, for
	// naming it (OSC 52 read or write, DCS tmux passthrough, DECRQSS). It
	// is payload: never show it where DESIGN.md forbids payloads.
	Prefix  [PrefixLen]byte
	NPrefix uint8

	// Rune is the code point of a format character, of a UTF-8 C1, or of a
	// text token that is one character completed across two Feed calls.
	Rune rune
}

// Params returns the stored parameters of a CSI.
func (t *Token) Params() []uint16 { return t.Param[:t.NParam] }

// Intermediates returns the stored intermediate bytes.
func (t *Token) Intermediates() []byte { return t.Inter[:t.NInter] }

// PayloadPrefix returns the stored payload prefix of a control string.
func (t *Token) PayloadPrefix() []byte { return t.Prefix[:t.NPrefix] }

// End returns the offset just past the token.
func (t *Token) End() int64 { return t.Off + t.Len }

// PayloadStart returns the stream offset in bytes of a control string's
// payload, which runs to PayloadStart()+Payload. After a C1 introducer
// (9D, or C2 9D under UTF-8) it is the byte after it. After ESC, C0
// controls may come before the introducer's final byte (ESC NUL ] opens
// an OSC: the escape state executes C0 controls, in the DEC parser as in
// xterm, and they are embedded tokens here), so it is read back from the
// string's end: the payload ends at its terminator, ESC \ (2 bytes) or
// BEL (1), or at the end of a string that is unterminated or aborted
// (the byte that aborts it is not the string's), or before the ESC that
// ends one left open (Final 0x1B). For a token that is not
// a control string it returns End.
func (t *Token) PayloadStart() int64 {
	switch {
	case !t.Kind.IsString():
		return t.End()
	case t.Intro == Intro8Bit:
		return t.Off + 1
	case t.Intro == IntroUTF8:
		return t.Off + 2
	}
	start := t.End() - t.Payload
	switch t.Term {
	case TermST:
		start -= 2
	case TermBEL:
		start--
	}
	if t.Final == 0x1B {
		start--
	}
	return start
}

// Is reports whether every flag in f is set.
func (t *Token) Is(f Flags) bool { return t.Flags&f == f }
