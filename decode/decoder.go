package decode

import (
	"encoding/binary"
	"iter"
	"unicode/utf8"
)

// state is a state of the DEC parser (Paul Williams' diagram, as in xterm,
// vte and alacritty), adapted to UTF-8 and made to fail closed. Each state
// is one method, named as in the diagram, in the file of its family:
//
//	ground.go     ground
//	utf8.go       utf8                      (addition)
//	escape.go     escape, escape_intermediate
//	csi.go        csi_entry, csi_param, csi_intermediate, csi_ignore,
//	              csi_abort_char            (addition)
//	strings.go    osc_string, dcs_passthrough, sos_pm_apc_string,
//	              osc_command, osc_command_c2, string_esc,
//	              string_utf8               (additions)
//
// The departures from the diagram, all in DESIGN.md ("decode: the shared
// parser"):
//
//   - UTF-8. ground decodes UTF-8 and takes U+0080–U+009F (C2 80–C2 9F) as
//     the C1 controls they name, so that a C1 introducer cannot hide in
//     UTF-8; ill-formed input is cut into maximal subparts (Unicode 15
//     3.9). utf8 holds a character cut by the end of a Feed. Inside a CSI
//     a non-ASCII character aborts the sequence (csi_abort_char reads the
//     rest of it); inside a control string its bytes are payload
//     (string_utf8), so that a continuation byte 9C is not taken for C1 ST
//     and C2 9C (U+009C) is.
//   - Fail closed. Nothing is dropped silently: a sequence cut by CAN, SUB,
//     ESC, a C1 introducer or a non-ASCII byte is emitted with
//     FlagAborted, csi_ignore emits its sequence with FlagMalformed, and a
//     C0 executed inside a sequence is an embedded token.
//   - DCS. dcs_entry, dcs_param, dcs_intermediate and dcs_ignore are folded
//     into dcs_passthrough: the decoder does not interpret a DCS; it keeps
//     the payload's prefix, from which Token's methods read the
//     parameters.
//   - Strings keep their terminator. In the diagram ESC leaves a string
//     for escape, where '\' dispatches ST; here string_esc decides between
//     ST, which ends the string token, and an abort. osc_command reads the
//     OSC number Ps of OSC Ps ; Pt, and osc_command_c2 settles a C2 read
//     there (U+009C ends the string with the number, anything else ends
//     the number). osc_string also serves the GNU screen title ESC k,
//     which BEL ends as it ends OSC.
//   - CSI. ':' separates sub-parameters (ITU T.416) instead of leading to
//     csi_ignore; a private marker 0x3C–0x3F is taken only in csi_entry.
type state uint8

const (
	stateGround             state = iota // ground
	stateUTF8                            // utf8: a character in ground cut by the end of a Feed
	stateEscape                          // escape
	stateEscapeIntermediate              // escape_intermediate
	stateCSIEntry                        // csi_entry
	stateCSIParam                        // csi_param
	stateCSIIntermediate                 // csi_intermediate
	stateCSIIgnore                       // csi_ignore
	stateCSIAbortChar                    // csi_abort_char: the rest of a non-ASCII character that aborts a CSI
	stateOSCCommand                      // osc_command: the number Ps of OSC Ps ; Pt
	stateOSCCommandC2                    // osc_command_c2: a C2 read in osc_command
	stateOSCString                       // osc_string (and ESC k)
	stateDCSPassthrough                  // dcs_passthrough (dcs_entry … dcs_ignore folded in)
	stateSOSPMAPCString                  // sos_pm_apc_string
	stateStringEsc                       // string_esc: an ESC inside a control string
	stateStringUTF8                      // string_utf8: a UTF-8 unit inside a control string

	numStates
)

// Decoder is a streaming decoder of terminal byte streams. Its zero value
// is ready to use with the default grammar; the exported fields select the
// alternatives DESIGN.md names and must not change mid-stream.
//
// A Decoder holds fixed-size arrays only, no slices, maps or pointers:
// copying it (cp := d) takes a checkpoint from which decoding resumes
// identically.
type Decoder struct {
	// LoneC1 treats each raw byte 0x80–0x9F that is not part of a UTF-8
	// unit as a single control that introduces nothing (for legacy 8-bit
	// text such as CP1252). By default such bytes introduce what 8-bit
	// terminals introduce: 9B CSI, 9D OSC, 90 DCS, 98 SOS, 9E PM, 9F APC.
	LoneC1 bool
	// APCBEL ends an APC string at BEL, as Buildkite's timestamp APCs
	// expect. By default BEL is APC payload, as in xterm.
	APCBEL bool
	// MaxPayload is the payload length in bytes past which a control
	// string is flagged FlagOverlong; 0 means DefaultMaxPayload. The
	// payload is never buffered, whatever its length.
	MaxPayload int64

	off   int64 // offset of the next byte to be fed
	state state
	tok   Token // the escape, sequence or string in progress
	one   Token // the last single token emitted (text, controls, invalid, format)

	// utf8: the first bytes of a character cut by the end of a Feed.
	u8     [4]byte
	u8n    uint8
	u8need uint8
	u8off  int64

	// csi_abort_char and string_utf8: the UTF-8 unit in progress.
	unitLead byte  // its lead byte
	unitRem  uint8 // continuation bytes still expected
	unitLo   byte  // accepted range of the next continuation byte
	unitHi   byte
	unitOff  int64 // offset of its lead byte
	unitRet  state // the string state to return to after it

	// CSI parameters.
	np       uint16 // index of the current parameter, saturating
	anyParam bool

	// Control strings.
	escOff   int64 // offset of an ESC seen inside a string
	overlong int64 // MaxPayload, resolved when the string begins

	scan    uint16 // Scan's table state
	scanKey uint8  // the index in scanTables of the table whose row scan is (scanTableIn)

	// TakeTextBlanks: the non-ASCII blanks in the text Feed has emitted,
	// and the bytes Feed, AppendText, TakeText and Extend (not TakeWord)
	// have consumed, since it was last called.
	blanks, fed int64
}

// Offset returns the stream offset in bytes of the next byte to be fed.
func (d *Decoder) Offset() int64 { return d.off }

// InGround reports whether the decoder is between tokens, with no
// sequence, string or UTF-8 unit open. Checkpoints taken in ground resume
// without replaying anything.
func (d *Decoder) InGround() bool { return d.state == stateGround }

// Feed decodes p, which continues the stream, and calls emit for each
// token that ends inside p, in stream order. It consumes all of p and never
// fails. A text run is emitted in pieces at Feed boundaries; a sequence,
// string or UTF-8 unit open at the end of p is carried to the next Feed.
// The *Token passed to emit belongs to the decoder and is valid only
// during the call: emit must not modify or retain it (copy the value to
// keep it), nor retain p. Feed does not allocate.
//
// Each state method consumes bytes from p[i:] and returns the index of the
// next byte to read, when its state has changed or at the end of p; the
// common transitions go straight on to the next state's method.
func (d *Decoder) Feed(p []byte, emit func(*Token)) {
	base := d.off
	for i := 0; i < len(p); {
		switch d.state {
		case stateGround:
			i = d.ground(p, i, base, emit)
		case stateUTF8:
			i = d.utf8(p, i, emit)
		case stateEscape:
			i = d.escape(p, i, base, emit)
		case stateEscapeIntermediate:
			i = d.escapeIntermediate(p, i, base, emit)
		case stateCSIEntry:
			i = d.csiEntry(p, i, base, emit)
		case stateCSIParam:
			i = d.csiParam(p, i, base, emit)
		case stateCSIIntermediate:
			i = d.csiIntermediate(p, i, base, emit)
		case stateCSIIgnore:
			i = d.csiIgnore(p, i, base, emit)
		case stateCSIAbortChar:
			i = d.csiAbortChar(p, i, base, emit)
		case stateOSCCommand:
			i = d.oscCommand(p, i, base, emit)
		case stateOSCCommandC2:
			i = d.oscCommandC2(p, i, base, emit)
		case stateOSCString:
			i = d.oscString(p, i, base, emit)
		case stateDCSPassthrough:
			i = d.dcsPassthrough(p, i, base, emit)
		case stateSOSPMAPCString:
			i = d.sosPMAPCString(p, i, base, emit)
		case stateStringEsc:
			i = d.stringEsc(p, i, base, emit)
		case stateStringUTF8:
			i = d.stringUTF8(p, i, base, emit)
		}
	}
	d.off = base + int64(len(p))
	d.fed += int64(len(p))
}

// Extend consumes all of p, which continues the stream, when all Feed
// would do with it is go on with the token open: payload of a control
// string (osc_string, dcs_passthrough, sos_pm_apc_string) that needs no
// decision (plainPayload: no terminator, abort, 9C, or UTF-8 unit cut by
// the end of p), or parameters of a CSI past MaxParams (csi_param,
// skipParams), and reports whether it did; d is then as Feed over p would
// leave it, and Feed would have emitted nothing. Otherwise it returns
// false and d is unchanged. It is Feed for a short piece of a long token
// without Feed's dispatch; ExtendWord is its quickest case.
func (d *Decoder) Extend(p []byte) bool {
	if d.ExtendWord(p) {
		return true
	}
	return d.extend(p)
}

// ExtendWord is the quickest case of Extend: it consumes p when p is 4
// to 8 bytes of ASCII 0x20–0x7F (tested as one word, notPayloadASCII)
// that go on with the payload of a control string past the prefix the
// token keeps (PrefixLen), and reports whether it did. It calls nothing,
// so that a caller with many such p (a long OSC written a few bytes at a
// time) can try it before Extend at the cost of a frameless call.
func (d *Decoder) ExtendWord(p []byte) bool {
	if d.state-stateOSCString > stateSOSPMAPCString-stateOSCString || uint(len(p)-4) > 4 || d.tok.Payload < PrefixLen || notPayloadASCII(shortWord(p)) != 0 {
		return false
	}
	n := int64(len(p))
	d.tok.Payload += n
	d.off += n
	d.fed += n
	return true
}

// extend is Extend but for its quickest case (ExtendWord).
func (d *Decoder) extend(p []byte) bool {
	switch {
	case d.state == stateCSIParam:
		if d.np < MaxParams || !d.extendParams(p) {
			return false
		}
	case d.state < stateOSCString || d.state > stateSOSPMAPCString:
		return false
	case printable(p) || plainPayload(p, 0) == len(p):
		d.payload(p)
	default:
		return false
	}
	d.off += int64(len(p))
	d.fed += int64(len(p)) // no text, so no blank
	return true
}

// notPayloadASCII returns the high bits of the bytes of w that are not
// ASCII 0x20–0x7F, and maybe of bytes above the lowest such byte; none
// when all eight are: such bytes are payload in every control string
// (strPlain) and end no UTF-8 unit.
func notPayloadASCII(w uint64) uint64 {
	return (w | (w - ones*0x20)) & highs
}

// TakeText consumes all of p, which continues the stream, when all Feed
// would do with it is emit text: what AppendText takes, the character
// the last Feed cut completed, whole characters TextPrefix accepts, and
// the start of one cut by the end of p, which it keeps. It then returns
// the text, cut, the bytes of p that start a character cut by its end,
// and ok; d is as Feed over p would leave it (the text holds no blank
// for TakeTextBlanks). The text is p[:len(p)-cut], not copied, when
// d was in ground; in state utf8 it is dst with the bytes the last Feed
// kept and p[:len(p)-cut] appended. Otherwise it returns dst, 0 and
// false, and d is unchanged.
//
// A p of up to maxTextStep bytes is read in one pass of textStep, a
// table step per byte with no branch; a longer one by AppendText. (A
// caller with many p that TakeWord takes tries that first: TakeText does
// not.)
func (d *Decoder) TakeText(dst, p []byte) (text []byte, cut int, ok bool) {
	if len(p) > maxTextStep || d.state > stateUTF8 {
		return d.AppendText(dst, p)
	}
	s, step := textChar, &textStep // a local pointer: the table's address is not loaded per byte
	if d.state == stateUTF8 {
		for _, b := range d.u8[:d.u8n] {
			s = step[b][s&7]
		}
	}
	for _, b := range p {
		s = step[b][s&7]
	}
	// cut counts the bytes of the character still open, from where it
	// began: in p, unless the one the last Feed cut is still not whole.
	if cut = int(textCut[s&7]); s == textDead || cut > len(p) {
		return dst, 0, false
	}
	if n := len(p) - cut; d.state == stateGround {
		text = p[:n]
	} else {
		k := len(dst) + int(d.u8n)
		if cap(dst)-k < maxTextStep+utf8.UTFMax {
			dst = append(dst[:cap(dst)], make([]byte, maxTextStep+utf8.UTFMax)...)[:len(dst)]
		}
		// The kept bytes in one store of the four, then p's.
		*(*[utf8.UTFMax]byte)(dst[len(dst) : len(dst)+utf8.UTFMax]) = d.u8
		text = dst[:k+copy(dst[k:k+n], p)]
		d.u8n, d.state = 0, stateGround
	}
	if cut > 0 { // saveUTF8, knowing the character from s
		i := len(p) - cut
		d.u8[0] = p[i]
		if cut == 2 {
			d.u8[1] = p[i+1]
		}
		d.u8n, d.u8need, d.u8off, d.state = uint8(cut), textNeed[s&7], d.off+int64(i), stateUTF8
	}
	d.off += int64(len(p))
	d.fed += int64(len(p))
	return text, cut, true
}

// TakeWord consumes p, which continues the stream, when d is in ground
// and p is 4 to 8 bytes of printable ASCII (tested as one word,
// shortWord), and reports whether it
// did: Feed would emit p as one text token. It is the quickest case of
// TakeText, small enough to inline at the caller (cost 80 of the
// compiler's 80: go build -gcflags=-m=2 ./decode), and does not count p
// for TakeTextBlanks (it holds no blank; the caller knows it took p).
func (d *Decoder) TakeWord(p []byte) bool {
	if d.state != stateGround || uint(len(p)-4) > 4 || notPrintable(shortWord(p)) != 0 {
		return false
	}
	d.off += int64(len(p))
	return true
}

// HoldsESC reports whether p, 4 to 8 bytes, holds an ESC (0x1B), tested
// as one word (shortWord); for a shorter or longer p it reports false.
// Such a p is not text in any state: a caller that tries a short write
// as text (TakeText) can tell at once that the try would fail.
func HoldsESC(p []byte) bool {
	if uint(len(p)-4) > 4 {
		return false
	}
	x := shortWord(p) ^ ones*0x1B
	return (x-ones)&^x&highs != 0 // a zero byte of x is an ESC of p
}

// shortWord returns the bytes of p, 4 to 8 of them, as one word of two
// 4-byte loads (little endian), which overlap when len(p) < 8: p[n-4:]
// fills bytes 4–7. A byte test over the word tests every byte of p.
func shortWord(p []byte) uint64 {
	return uint64(binary.LittleEndian.Uint32(p)) | uint64(binary.LittleEndian.Uint32(p[len(p)-4:]))<<32
}

// maxTextStep is the longest p that TakeText reads by textStep: past it
// AppendText's word scan of ASCII wins.
const maxTextStep = 16

// The states of textStep: between characters, and inside a character
// TextPrefix accepts (textLen) with one continuation byte due after one
// or two read, with two due, with two due after E0 (whose next byte must
// be A0–BF); textDead once the bytes are not such text.
const (
	textChar uint8 = iota
	textOneAfter1
	textOneAfter2
	textTwo
	textTwoE0
	textDead
)

// textCut and textNeed give, for each state of textStep inside a
// character, how many of its bytes have been read and its length.
var (
	textCut  = [8]uint8{textOneAfter1: 1, textOneAfter2: 2, textTwo: 1, textTwoE0: 1}
	textNeed = [8]uint8{textOneAfter1: 2, textOneAfter2: 3, textTwo: 3, textTwoE0: 3}
)

// textStep is a DFA over the text of TextPrefix: the next state after
// byte b in state s is textStep[b][s].
var textStep = func() (t [256][8]uint8) {
	for b := range 256 {
		next := &t[b]
		for s := range next {
			next[s] = textDead
		}
		switch {
		case textLen[b] == 1:
			next[textChar] = textChar
		case textLen[b] == 2:
			next[textChar] = textOneAfter1
		case b == 0xE0:
			next[textChar] = textTwoE0
		case textLen[b] == 3:
			next[textChar] = textTwo
		case b >= 0x80 && b <= 0xBF:
			next[textOneAfter1], next[textOneAfter2], next[textTwo] = textChar, textChar, textOneAfter2
			if b >= 0xA0 {
				next[textTwoE0] = textOneAfter2
			}
		}
	}
	return t
}()

// End reports what is still open at the end of the stream: a cut UTF-8
// unit as KindInvalid, an open escape, CSI or control string with
// FlagUnterminated (its Len is the bytes it swallowed). The decoder is
// then back in ground at the same offset, its options kept.
func (d *Decoder) End(emit func(*Token)) {
	switch d.state {
	case stateGround:
		return
	case stateUTF8:
		d.single(emit, KindInvalid, d.u8off, int64(d.u8n), 0, IntroNone, 0, 0)
		d.state = stateGround
		return
	case stateCSIAbortChar:
		// The character that aborted the CSI is cut: it is still aborted,
		// not unterminated.
		d.abort(AbortNonASCII, d.off, emit)
		return
	case stateOSCCommandC2:
		d.endCommand() // the C2 that might have begun U+009C is payload
	case stateStringEsc:
		d.tok.Final = 0x1B // the string's last byte, neither payload nor terminator
	}
	d.tok.Flags |= FlagUnterminated
	d.finish(d.off, emit)
}

// Tokens returns the tokens of p decoded as a whole stream from d's
// state (a checkpoint, or the zero Decoder), End included. d is not
// changed.
func (d Decoder) Tokens(p []byte) iter.Seq[Token] {
	return func(yield func(Token) bool) {
		const chunk = 64 << 10
		dec := d
		ok := true
		emit := func(t *Token) {
			if ok {
				ok = yield(*t)
			}
		}
		for len(p) > 0 && ok {
			n := min(len(p), chunk)
			dec.Feed(p[:n], emit)
			p = p[n:]
		}
		if ok {
			dec.End(emit)
		}
	}
}

// Tokens returns the tokens of p decoded as a whole stream with the default
// grammar.
func Tokens(p []byte) iter.Seq[Token] { return Decoder{}.Tokens(p) }

// begin starts a token of kind at off, in the state that follows its
// introducer: escape, csi_entry or the string state of its kind.
func (d *Decoder) begin(kind Kind, intro Intro, off int64) {
	d.tok = Token{Off: off, Kind: kind, Intro: intro, Command: -1}
	d.introduced(kind)
}

// introduced enters the state that follows the introducer of kind, for a
// token begun as an escape whose second byte turned out to introduce a
// sequence or string.
func (d *Decoder) introduced(kind Kind) {
	d.tok.Kind = kind
	switch kind {
	case KindESC:
		d.state = stateEscape
	case KindCSI:
		d.state = stateCSIEntry
		d.np = 0
		d.anyParam = false
	default:
		d.state = stringState[kind]
		d.overlong = d.MaxPayload
		if d.overlong <= 0 {
			d.overlong = DefaultMaxPayload
		}
	}
}

// stringState gives the state in which each control string begins.
var stringState = [numKinds]state{
	KindOSC:         stateOSCCommand,
	KindScreenTitle: stateOSCString,
	KindDCS:         stateDCSPassthrough,
	KindSOS:         stateSOSPMAPCString,
	KindPM:          stateSOSPMAPCString,
	KindAPC:         stateSOSPMAPCString,
}

// finish ends the token in progress at end (exclusive), emits it and
// returns to ground.
func (d *Decoder) finish(end int64, emit func(*Token)) {
	t := &d.tok
	t.Len = end - t.Off
	if t.Kind == KindCSI && d.anyParam {
		t.ParamCount = d.np + 1
		if d.np == 0xFFFF {
			t.ParamCount = 0xFFFF
		}
		t.NParam = uint8(min(int(t.ParamCount), MaxParams))
	}
	if t.Kind.IsString() && t.Payload > d.overlong {
		t.Flags |= FlagOverlong
	}
	d.state = stateGround
	emit(t)
}

// abort ends the token in progress just before off, cut short by a.
func (d *Decoder) abort(a Abort, off int64, emit func(*Token)) {
	d.tok.Flags |= FlagAborted
	d.tok.Abort = a
	d.finish(off, emit)
}

// execute handles a C0 byte b at off inside an escape or CSI, as the DEC
// parser's "anywhere" and "execute" transitions do: CAN and SUB abort the
// sequence and are then read again in ground, ESC aborts it and starts a
// new escape, any other C0 is executed in place (an embedded token) and
// the sequence goes on. It returns how many bytes it consumed (0 or 1) and
// whether the sequence goes on in its state.
func (d *Decoder) execute(b byte, off int64, emit func(*Token)) (n int, stay bool) {
	switch b {
	case 0x18, 0x1A:
		d.abort(abortFor(b), off, emit)
		return 0, false
	case 0x1B:
		d.abort(AbortESC, off, emit)
		d.begin(KindESC, Intro7Bit, off)
		return 1, false
	}
	kind := KindC0
	if b == '\t' || b == '\n' {
		kind = KindText
	}
	d.single(emit, kind, off, 1, b, IntroNone, FlagEmbedded, 0)
	return 1, true
}

// abortFor returns the abort that CAN (0x18) or SUB (0x1A) causes.
func abortFor(b byte) Abort {
	if b == 0x18 {
		return AbortCAN
	}
	return AbortSUB
}

// single emits a token that has no parameters and no payload, reusing
// d.one: only the fields such tokens use are set, the rest stay zero.
func (d *Decoder) single(emit func(*Token), kind Kind, off, n int64, final byte, intro Intro, flags Flags, r rune) {
	t := &d.one
	t.Off, t.Len, t.Kind, t.Final, t.Intro, t.Flags, t.Rune, t.Command = off, n, kind, final, intro, flags, r, -1
	emit(t)
}
