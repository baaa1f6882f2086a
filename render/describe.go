package render

import (
	"bytes"
	"strconv"

	"golang.org/x/text/unicode/runenames"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
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
			d.function(&decode.Token{Kind: decode.KindC0, Final: t.Final})
			d.s(", executed inside the sequence that encloses it")
			return
		}
		d.s("text: ")
		d.bytesCount(t.Len)
	case decode.KindC0:
		d.function(t)
		if t.Is(decode.FlagEmbedded) {
			d.s(", executed inside the sequence that encloses it")
		}
	case decode.KindDEL:
		d.s("DEL: delete (ignored by terminals)")
	case decode.KindC1:
		d.function(t)
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
		d.function(t)
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

// function appends the catalogue's mnemonic and description of t's
// function, its parameters as its Detail says, and QueryNote for a
// function of class query. It reports false, appending nothing, when the
// catalogue has no entry for t.
func (d *describer) function(t *decode.Token) bool {
	f, ok := ctlfunc.Lookup(t)
	if !ok {
		return false
	}
	if f.Mnemonic != "" {
		d.s(f.Mnemonic)
		if f.Description != "" || f.Detail != ctlfunc.DetailNone {
			d.s(": ")
		}
	}
	d.s(f.Description)
	if f.Detail != ctlfunc.DetailNone {
		at := len(d.b)
		if f.Description != "" {
			d.s(" ")
		}
		d.detail(t, f)
		if len(d.b) > at+1 && d.b[at] == ' ' && d.b[at+1] == ':' { // "mark: prompt start"
			d.b = append(d.b[:at], d.b[at+1:]...)
		}
	}
	if f.Classes&ctlfunc.Query != 0 {
		d.s(" ", ctlfunc.QueryNote)
	}
	return true
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
