package sanitize

import (
	"bytes"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// The format character policy: what becomes of each KindFormat token,
// which may depend on the character before it (a base character for a
// variation selector, a Mongolian character for a Mongolian selector, a
// leading jamo for U+1160) or after it (a vowel jamo for U+115F). The
// table is in the package documentation.

// formatState is the cleaner's state for the format character policy. Its
// zero value is the state at the start of a stream.
type formatState struct {
	// The token just before the current one, when it wrote a character:
	// its end offset, and the character when known (-1: look it up).
	prevEnd  int64
	prevRune rune
	// tail holds the last tailN bytes of that token, when it lies in an
	// earlier chunk and prevRune is -1.
	tail  [utf8.UTFMax]byte
	tailN int
	// The last character of the cleaned text drained so far (drained),
	// and the output offset it ends at.
	drainRune rune
	drainEnd  int64

	// The last character written is a joining character (ZWNJ, ZWJ,
	// LRM, RLM, ALM, SHY): another one right after it, with nothing
	// written between, is removed.
	joined bool

	// A character held until the next token says whether it is kept
	// (0: none): U+115F, kept when it begins a conjoining jamo sequence,
	// U+FE0E/U+FE0F after # * 0-9, kept when U+20E3 follows (a keycap),
	// or a joining character, kept when the next character is in
	// heldAfter (joiningRules).
	held      rune
	heldOff   int64
	heldAfter context

	// FormatFate's question: watch is 1 + the offset of the format
	// character asked about (0: none), decided is set once its fate is
	// known, and kept says whether it was written.
	watch         int64
	decided, kept bool

	// The run of invisible characters being counted (runN > 0): its start
	// and end offsets and how many characters it holds.
	runOff, runEnd, runN int64

	// Under FormatEscape, literal text from a '<' that may go on to spell
	// one of the policy's own escapes ("<U+202E>"), held until it does
	// or cannot.
	lt  [len("<U+10FFFF>")]byte
	nlt int
}

// beforeToken runs at the start of every token: it settles a held U+115F by
// the token that follows it, ends a run of invisible characters that the
// token does not continue, and under FormatEscape releases held literal
// text when the token writes output of its own.
func (c *cleaner) beforeToken(t *decode.Token) {
	if c.fmt.held != 0 {
		c.settleHeld(t)
	}
	if c.fmt.runN > 0 && t.Kind != decode.KindFormat {
		c.endRun()
	}
	if c.fmt.nlt > 0 && writesOutput(t, c.opts) {
		c.releaseLiteral(nil)
	}
	if c.fmt.joined && t.Kind != decode.KindFormat && (t.Kind == decode.KindText || writesOutput(t, c.opts)) {
		c.fmt.joined = false
	}
}

// writesOutput reports whether a token other than text writes to the
// cleaned text or moves the emulated cursor, which ends a held spelling.
func writesOutput(t *decode.Token, o Options) bool {
	switch t.Kind {
	case decode.KindText:
		return false
	case decode.KindC0:
		switch t.Final {
		case '\r':
			return o.CR != CRDrop
		case '\b':
			return o.BS == BSOverstrike
		case 0x0B, 0x0C:
			return true
		}
		return false
	case decode.KindInvalid, decode.KindFormat:
		return true
	case decode.KindOSC:
		return t.Command == 8
	}
	return false
}

// endFormat settles what is held at the end of the stream.
func (c *cleaner) endFormat() {
	if c.fmt.held != 0 {
		c.settleHeld(nil)
	}
	if c.fmt.runN > 0 {
		c.endRun()
	}
	if c.fmt.nlt > 0 {
		c.releaseLiteral(nil)
	}
}

// format applies the format character policy to t.
func (c *cleaner) format(t *decode.Token) {
	r := t.Rune
	cls := decode.ClassifyFormat(r)
	if r == 0x115F || (r == 0xFE0E || r == 0xFE0F) && isKeycapBase(c.prevChar(t.Off)) {
		c.fmt.held, c.fmt.heldOff = r, t.Off
		return
	}
	var keep bool
	switch cls {
	case decode.FormatJoining:
		// One joins or marks where joiningRules says a script needs it;
		// a second one next to it changes nothing a reader sees, and a
		// run of them would carry a hidden message in ZWNJ/ZWJ bits.
		if c.fmt.joined {
			break
		}
		now, after := joiningDecision(r, contextOf(c.prevChar(t.Off)))
		if c.fmt.prevEnd != t.Off && (now || after != 0) {
			// Kept after a control that wrote nothing, it would stand
			// next to the last character written, which must keep it
			// as well: cleaning the text again judges it by that one.
			now, after = joiningBoth(now, after, r, c.lastWritten())
		}
		if now {
			c.endRun()
			c.rep.Kept.Format++
			c.text(t)
			c.fmt.joined = true
			c.fmt.decide(t.Off, true)
			return
		}
		if after != 0 {
			c.fmt.held, c.fmt.heldOff, c.fmt.heldAfter = r, t.Off, after
			return
		}
	case decode.FormatLineSeparator:
		c.endRun()
		if c.opts.FormatChars == FormatStrip {
			c.rep.Kept.LineSeparators++
			c.emitString([]byte{'\n'})
			c.fmt.joined = false
			return
		}
		c.removable(t.Off, t, r)
		return
	case decode.FormatSelector:
		keep = isBase(c.prevChar(t.Off), r)
	case decode.FormatMongolian:
		p := c.prevChar(t.Off)
		keep = unicode.Is(unicode.Mongolian, p) && decode.ClassifyFormat(p) != decode.FormatMongolian
	case decode.FormatJamoFiller: // U+1160
		p := c.prevChar(t.Off)
		keep = p != 0x115F && unicode.Is(leadingJamo, p)
	}
	if keep {
		c.endRun()
		c.rep.Kept.Format++
		c.text(t)
		c.fmt.joined = false
		c.fmt.decide(t.Off, true)
		return
	}
	if decode.IsBidiControl(r) {
		c.endRun()
		c.advise(t)
	} else {
		c.invisible(t.Off, t.Len)
	}
	c.removable(t.Off, t, r)
}

// Writes reports whether text cleaned under o can hold the format
// character r as itself. Under FormatKeep every one can; under
// FormatStrip and FormatEscape only those kept where their neighbours
// need them (joiners and marks, selectors, Mongolian selectors, jamo
// fillers), never a bidi control, a character that hides whatever
// surrounds it or a line separator. It is true of every rune that is not
// a format character. A reader of cleaned text kept on disk (package
// excerpt) checks with it that the text holds nothing its policy removes.
func (o Options) Writes(r rune) bool {
	switch decode.ClassifyFormat(r) {
	case decode.FormatHiding, decode.FormatLineSeparator:
		return o.FormatChars == FormatKeep
	}
	return true
}

// removable applies the policy to the format character r at off, which
// the default policy removes.
func (c *cleaner) removable(off int64, t *decode.Token, r rune) {
	c.fmt.decide(off, c.opts.FormatChars == FormatKeep)
	if c.opts.FormatChars != FormatStrip {
		c.fmt.joined = decode.ClassifyFormat(r) == decode.FormatJoining
	}
	switch c.opts.FormatChars {
	case FormatKeep:
		c.rep.Kept.Format++
		if t != nil {
			c.text(t)
		} else {
			var buf [utf8.UTFMax]byte
			c.emitString(utf8.AppendRune(buf[:0], r))
		}
	case FormatEscape:
		c.rep.Kept.Format++
		var buf [12]byte
		c.emitString(appendCodePoint(buf[:0], r))
	default:
		c.rep.Removed.Format++
	}
}

// settleHeld decides the held character now that the token after it,
// next, is known (nil at the end of the stream). U+115F begins a
// conjoining jamo sequence when next starts with a vowel jamo other than
// U+1160: the two fillers together spell a syllable of neither consonant
// nor vowel, a blank, and a run of them, with a joiner or none after
// each, would carry a hidden message. A selector after # * 0-9 makes a
// keycap when next starts with U+20E3; without it the digit looks the
// same with either selector or none, and one per digit of a log would
// carry hidden bits.
func (c *cleaner) settleHeld(next *decode.Token) {
	r, off, after := c.fmt.held, c.fmt.heldOff, c.fmt.heldAfter
	c.fmt.held, c.fmt.heldAfter = 0, 0
	heldLen := int64(utf8.RuneLen(r))
	n := rune(-1)
	if next != nil && next.Off == off+heldLen {
		n = c.firstChar(next)
	}
	var keep bool
	switch {
	case after != 0:
		// A format character after the joiner does not count: none is
		// kept after a joiner (a selector needs its base, a second joiner
		// is removed), so a joiner kept for it would stand alone in the
		// text, and cleaning that text again would remove it.
		keep = next != nil && next.Kind != decode.KindFormat && contextOf(n)&after != 0
	case r == 0x115F:
		keep = n != 0x1160 && unicode.Is(vowelJamo, n)
	default:
		keep = n == 0x20E3
	}
	if keep {
		c.endRun()
		c.rep.Kept.Format++
		var buf [utf8.UTFMax]byte
		c.emitString(utf8.AppendRune(buf[:0], r))
		c.fmt.prevEnd, c.fmt.prevRune, c.fmt.joined = off+heldLen, r, after != 0
		c.fmt.decide(off, true)
		return
	}
	c.invisible(off, heldLen)
	c.removable(off, nil, r)
}

// decide records the fate of the format character at off, if it is the
// one FormatFate asks about.
func (f *formatState) decide(off int64, kept bool) {
	if off+1 == f.watch {
		f.decided, f.kept = true, kept
	}
}

// FormatFate returns whether the sanitizer writes, under o, the format
// character toks[i] as it is (kept: by its neighbours, or by FormatKeep;
// under FormatEscape one its neighbours do not keep is written escaped,
// kept false) and whether that is known (ok): a character kept or not by
// the one after it is known once that one is among toks. It runs the
// policy over toks from the first, as SettleCR does, so that the
// character before toks[i] counts as in the stream; data holds the input
// bytes from stream offset off on, which the text tokens among toks lie
// in, and toks must not include tokens cut at the end of data. When off
// is not 0 and no token before toks[i] wrote anything, what the stream
// wrote before data decides, and ok is false. Under CRScreen, whose
// screen writes no format character, ok is false.
func FormatFate(toks []decode.Token, i int, data []byte, off int64, o Options) (kept, ok bool) {
	if i < 0 || i >= len(toks) || toks[i].Kind != decode.KindFormat || o.CR == CRScreen {
		return false, false
	}
	c := getCleaner(o)
	defer c.release()
	c.chunk, c.base = data[:len(data):len(data)], off // capped: no word loaded past data (feed)
	c.fmt.watch = toks[i].Off + 1
	for j := range toks {
		if j == i && off != 0 && c.outPos() == 0 && c.fmt.prevEnd == 0 && len(c.line) == 0 {
			return false, false // judged by the characters before data
		}
		c.each(&toks[j])
		if c.fmt.decided {
			return c.fmt.kept, true
		}
	}
	return false, false
}

// isKeycapBase reports whether r is one of the bases of the emoji keycap
// sequences (base, U+FE0F, U+20E3; emoji-sequences.txt): # * 0-9.
func isKeycapBase(r rune) bool {
	return r == '#' || r == '*' || r >= '0' && r <= '9'
}

// firstChar returns the first character of a text or format token.
func (c *cleaner) firstChar(t *decode.Token) rune {
	switch t.Kind {
	case decode.KindFormat:
		return t.Rune
	case decode.KindText:
		if b := c.bytesAt(t.Off, min(t.Len, utf8.UTFMax)); b != nil {
			r, _ := utf8.DecodeRune(b)
			return r
		}
		return t.Rune
	}
	return -1
}

// prevChar returns the character that the token ending at off wrote, or
// -1 when the token just before off wrote none: a format character after
// a control the policy removes is judged as at the start of the text. A
// joining character so judged is also judged by lastWritten (format).
func (c *cleaner) prevChar(off int64) rune {
	if off == 0 || c.fmt.prevEnd != off {
		return -1
	}
	return c.charBefore(off)
}

// charBefore returns the last character of the token ending at end, the
// last one that wrote a character (formatState.prevEnd). Of a token in an
// earlier chunk the last bytes were kept when that chunk ended
// (keepHistory).
func (c *cleaner) charBefore(end int64) rune {
	f := &c.fmt
	if f.prevRune >= 0 {
		return f.prevRune
	}
	b := f.tail[:f.tailN]
	if end > c.base {
		b = c.chunk[max(0, end-c.base-utf8.UTFMax) : end-c.base]
	}
	r, _ := utf8.DecodeLastRune(b)
	return r
}

// lastWritten returns the last character of the cleaned text written so
// far: out's last, else that of the last drain (drained) when nothing was
// written since, else that of the text a quick Write wrote straight
// through (Writer.Write), which ends at prevEnd (literal text held from
// a '<' under FormatEscape is released before a format character is
// judged: beforeToken). Under BSOverstrike it is the character before
// the cursor in the line held, if any. Where the text is the screen's
// (CRScreen, under which format characters are not written) it is -1, as
// at the start of the text.
func (c *cleaner) lastWritten() rune {
	f := &c.fmt
	switch {
	case c.scr != nil:
		return -1
	case c.lineMode && c.col > 0:
		return c.line[c.col-1]
	case c.outPos() == 0:
		return -1
	case len(c.out) > 0:
		r, _ := utf8.DecodeLastRune(c.out)
		return r
	case f.drainEnd == c.flushed:
		return f.drainRune
	}
	return c.charBefore(f.prevEnd)
}

// joiningBoth returns the decision for the joining character r that both
// now and after (joiningDecision's, after the character before r in the
// input) and joiningDecision's after the character last agree on: r is
// kept now if both keep it now, else held for the classes of the next
// character that both keep it before (one kept now keeps it before any),
// else removed (after 0).
func joiningBoth(now bool, after context, r, last rune) (bool, context) {
	now2, after2 := joiningDecision(r, contextOf(last))
	if now {
		after = ctxAny
	}
	if now2 {
		after2 = ctxAny
	}
	return now && now2, after & after2
}

// drained empties out, whose bytes the caller has written on (Writer.drain,
// Transformer.Transform), and counts them in flushed; it keeps their last
// character for lastWritten.
func (c *cleaner) drained() {
	if len(c.out) > 0 {
		c.fmt.drainRune, _ = utf8.DecodeLastRune(c.out)
		c.fmt.drainEnd = c.flushed + int64(len(c.out))
	}
	c.flushed += int64(len(c.out))
	c.out = c.out[:0]
}

// isBase reports whether r can be the base of a variation sequence with
// the selector vs. The ideographic variation selectors U+E0100–U+E01EF
// follow an ideograph (UTS #37; the Ideographic Variation Database that
// names the registered sequences is not in the UCD, so any ideograph
// counts). U+FE00–U+FE0F follow only the bases that
// StandardizedVariants.txt and emoji-variation-sequences.txt pair with
// that selector, and U+FE0E/U+FE0F after any character of the Emoji
// property, as emoji keyboards write them (variationBases, generated from
// those files and emoji-data.txt): a selector after
// any other character is no sequence a font draws, and one per character
// would carry four bits of hidden text in every character of the text.
func isBase(r, vs rune) bool {
	switch {
	case r < 0:
		return false
	case vs >= 0xE0100:
		return unicode.Is(unicode.Ideographic, r)
	}
	i, ok := slices.BinarySearchFunc(variationBases[:], r, func(b variationBase, r rune) int {
		switch {
		case b.hi < r:
			return -1
		case b.lo > r:
			return 1
		}
		return 0
	})
	return ok && variationBases[i].selectors&(1<<(vs-0xFE00)) != 0
}

// variationBase is a range [lo, hi] of base characters of variation
// sequences and the selectors that may follow each: bit n stands for
// U+FE00+n.
type variationBase struct {
	lo, hi    rune
	selectors uint16
}

//go:generate go run ./internal/variantsgen -ucd /usr/share/unicode -o variants_table.go

// Conjoining jamo by Hangul_Syllable_Type (Unicode HangulSyllableType.txt):
// L, the leading consonants, and V, the vowels. The standard library's
// unicode.Hangul script holds all jamo without telling them apart.
var (
	leadingJamo = &unicode.RangeTable{R16: []unicode.Range16{
		{Lo: 0x1100, Hi: 0x115F, Stride: 1}, {Lo: 0xA960, Hi: 0xA97C, Stride: 1},
	}}
	vowelJamo = &unicode.RangeTable{R16: []unicode.Range16{
		{Lo: 0x1160, Hi: 0x11A7, Stride: 1}, {Lo: 0xD7B0, Hi: 0xD7C6, Stride: 1},
	}}
)

// invisible adds the invisible character of n bytes at off to the current
// run, or starts a run.
func (c *cleaner) invisible(off, n int64) {
	f := &c.fmt
	if f.runN > 0 && f.runEnd != off {
		c.endRun()
	}
	if f.runN == 0 {
		f.runOff = off
	}
	f.runN++
	f.runEnd = off + n
}

// endRun raises the invisible flag for the run of invisible characters
// being counted, with one finding for the whole run.
func (c *cleaner) endRun() {
	f := &c.fmt
	if f.runN == 0 {
		return
	}
	c.rep.Flags.Invisible++
	c.rep.find(f.runOff, "invisible", invisibleName(f.runN), f.runEnd-f.runOff)
	f.runN = 0
}

// invisibleName names a run of n invisible characters without naming
// them: which characters they are is the hidden message.
func invisibleName(n int64) string {
	if n == 1 {
		return "1 invisible character"
	}
	return strconv.FormatInt(n, 10) + " invisible characters"
}

// escapeText writes literal text under FormatEscape: a '<' that begins a
// spelling of the policy's own escapes ("<U+202E>", four to six
// upper-case hex digits) is written "<U+003C>", so the text "<U+202E>"
// and an escaped override never look alike. The spelling is judged on the
// cleaned text, across tokens the policy removes, so the bytes from a '<'
// are held until the spelling completes or breaks.
func (c *cleaner) escapeText(b []byte, t *decode.Token) {
	f := &c.fmt
	for len(b) > 0 {
		if f.nlt == 0 {
			i := bytes.IndexByte(b, '<')
			if i < 0 {
				c.literal(b, t)
				return
			}
			c.literal(b[:i], t)
			f.lt[0], f.nlt, b = '<', 1, b[i+1:]
			continue
		}
		switch spellingNext(f.nlt, b[0]) {
		case spellingOpen:
			f.lt[f.nlt] = b[0]
			f.nlt++
			b = b[1:]
		case spellingDone:
			n := f.nlt
			f.nlt = 0
			c.literal(escapedLT, t)
			c.literal(f.lt[1:n], t)
			c.literal(b[:1], t)
			b = b[1:]
		default: // the byte is judged afresh
			c.releaseLiteral(t)
		}
	}
}

// escapedLT is '<' in the policy's escape form.
var escapedLT = []byte("<U+003C>")

// Spelling states of held text.
const (
	spellingOpen = iota
	spellingDone
	spellingBroken
)

// spellingNext says whether the held text "<U+…" of n bytes, followed by
// ch, may still spell "<U+XXXX>", does, or cannot.
func spellingNext(n int, ch byte) int {
	hex := ch >= '0' && ch <= '9' || ch >= 'A' && ch <= 'F'
	switch {
	case n == 1 && ch == 'U', n == 2 && ch == '+', n >= 3 && n < 9 && hex:
		return spellingOpen
	case n >= 7 && ch == '>':
		return spellingDone
	}
	return spellingBroken
}

// releaseLiteral writes held text as it stands.
func (c *cleaner) releaseLiteral(t *decode.Token) {
	n := c.fmt.nlt
	c.fmt.nlt = 0
	c.literal(c.fmt.lt[:n], t)
}
