package sanitize

import (
	"math/bits"
	"unicode/utf8"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/screen"
)

// maxLine is how many characters BSOverstrike holds for the current
// line; a longer line is written out as it stands and a new one
// begins, so memory stays bounded.
const maxLine = 64 << 10

// histLen is the most input bytes before the current chunk that are
// kept: those of a sequence or string still open, so that the payload of
// an OSC 8 split across writes can still be read. link reads the payload
// of a string of at most histLen bytes (a payload of MaxLinkURI+256
// bytes between ESC ] and ESC \), of which all but the last byte may lie
// before the chunk, whatever the Writes' lengths.
const histLen = MaxLinkURI + 256 + 4

// cleaner applies Options to decode tokens. It appends cleaned text to out
// and counts into rep; the caller owns out and drains it.
type cleaner struct {
	opts Options
	dec  decode.Decoder
	rep  report
	out  []byte

	chunk   []byte // the input being fed
	base    int64  // stream offset of chunk[0]
	hist    []byte // the input just before chunk from where the token still open began, when that is at most histLen bytes
	flushed int64  // cleaned bytes already drained from out

	crRun int   // CRs waiting to know what follows
	crOff int64 // offset of the first of them
	// crFate is what the last run of CRs settled became (SettleCR).
	crFate CRFate

	lineMode bool   // BSOverstrike: the line is held in line
	line     []rune // current line under emulation
	col      int    // cursor column in line

	linkURI  []byte // the URI of the open OSC 8 link, to append under LinksAppend (when linkOpen), its buffer reused
	linkOpen bool
	joinBuf  []byte // bytesAt's buffer for a span that straddles hist and chunk, reused

	m *OffsetMap // optional offset map
	// mapEach is set when every token adds a point to m: an offset map
	// without line emulation (which adds a point per line instead).
	mapEach bool

	scr      *screen.Model    // the screen of CRScreen, else nil
	scrLines []lineInput      // CRScreen: where the input of each line of out begins (Writer.LineInput)
	scrScrap []screen.Segment // CRScreen outside Map: the segments of the last text taken, reused
	// embOpen is set while controls embedded in a sequence have been
	// seen and the sequence has not: embOut is the output position
	// before the first of them.
	embOpen bool
	embOut  int64

	fmt formatState // the format character policy's context

	frame int64 // offset of the latest frame boundary, 0 for none
	at    int64 // end offset of the token being handled

	tokenFn func(*decode.Token) // c.each, made once

	// path is the choice of choosePath, which tests override to compare
	// the paths; scanning is set while the decoder is driven by Scan.
	path     pathChoice
	scanning bool
	runs     recallGate // whether quickRecords calls recallRun
	// The record path (records.go): the batch Scan writes, allocated
	// when the path is first chosen (a cleaner of a short input, such as
	// String on a file name, never needs its 8 KiB), and the end of the
	// last record that is not embedded, where the next one begins.
	recs *[batchRecords]decode.Record
	next int64
	// whole counts the whole records quickRecords takes (wholeTable),
	// allocated with recs.
	whole *wholeTable

	// next32 is the low 32 bits of next while quickRecords runs, which
	// subtracts it from each record's end: a 32-bit field is an operand of
	// the subtraction, where uint32(next) is loaded into a register first
	// (BENCHMARKS.md, pol13).
	next32 uint32

	one  decode.Token // a token single builds from a record
	memo memoTable
	join [256]byte // the bytes of a token begun in an earlier Write (span)
	// sh rebuilds tokens from their bytes (rebuild): it has read from
	// shFrom, a token boundary, to its offset; shStart and shEnd are the
	// span of the token being rebuilt, shDone is set once that has been
	// emitted, and ahead[aheadI:aheadN] are the tokens it emitted past
	// it. shadowFn is c.shadow.
	sh             decode.Decoder
	shFrom         int64
	shStart, shEnd int64
	shDone         bool
	ahead          [16]decode.Token
	aheadI, aheadN int
	shadowFn       func(*decode.Token)
	// plainText is set when text tokens need nothing but copying, as far
	// as the options decide: no line emulation, no offset map, format
	// characters not escaped.
	plainText bool
}

func newCleaner(o Options) *cleaner {
	c := new(cleaner)
	c.init(o)
	return c
}

// init readies c, zero or cleared by release, for a stream under o:
// newCleaner's cleaner and a pooled one (getCleaner) are the same. The
// method values each and shadow, which a zero cleaner lacks, are made
// once per cleaner: they stay bound to it across release.
func (c *cleaner) init(o Options) {
	c.opts = o
	c.dec = decode.Decoder{LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL, MaxPayload: o.maxPayload()}
	c.rep.Schema, c.rep.Policy = Schema, policyOf(o)
	c.lineMode = o.BS == BSOverstrike
	c.scr = newScreen(o)
	if c.tokenFn == nil {
		c.tokenFn, c.shadowFn = c.each, c.shadow
	}
	c.sh, c.one.Command = c.dec, -1
	c.plainText = !c.lineMode && o.FormatChars != FormatEscape
}

// feed cleans p, the next chunk of the stream. (Writer.Write first tries
// a short chunk whole: quickText, extended.)
func (c *cleaner) feed(p []byte) {
	c.base = c.dec.Offset()
	held := len(c.out)
	// The tokens' bytes (each, bytesAt, span), capped at p's length: a
	// word loaded past a token near its end (wordOf) reads none of the
	// caller's buffer past p.
	c.chunk = p[:len(p):len(p)]
	if len(p) >= minScanPiece || c.scanning || c.path != pathAuto || c.scr != nil {
		c.feedPieces(p)
	} else {
		c.dec.Feed(p, c.tokenFn)
	}
	if c.scr != nil {
		c.screenFeed(p, held)
	}
	c.rep.Kept.NonASCIIBlanks += c.keptBlanks(held, p)
	c.rep.BytesIn += int64(len(p))
	c.keepHistory(p)
	c.chunk = nil
}

// feedPieces feeds p, the chunk, in pieces of pieceLen bytes, each on the
// path choosePath decides.
func (c *cleaner) feedPieces(p []byte) {
	for len(p) > 0 {
		n := min(len(p), pieceLen)
		c.choosePath(p[:n])
		if c.scanning {
			c.scanFeed(p[:n])
		} else {
			c.dec.Feed(p[:n], c.tokenFn)
		}
		p = p[n:]
	}
	if c.scanning {
		c.holdOpen()
	}
}

// extended keeps p, a short chunk that decode.Decoder.Extend took
// (Writer.Write; base is set, p counted), in the history as keepHistory
// keeps it: bytes that only extend the token open (a string's payload, a
// long CSI's parameters) write nothing and end no token, so the
// character before the next token is not in p. It returns the way for
// the next Write (extendWay).
func (c *cleaner) extended(p []byte) way {
	next := c.extendWay()
	if next == wayLong {
		c.hist = c.hist[:0]
	} else {
		c.keepOpen(p)
	}
	return next
}

// extendWay returns the quick way of a Write with a sequence or string
// open: wayLong once it is too long for the history (which keepHistory
// has emptied), else wayExtend.
func (c *cleaner) extendWay() way {
	if c.dec.Offset()-c.at > histLen {
		return wayLong
	}
	return wayExtend
}

// quickText cleans p, a short chunk (Writer.Write), when it
// is text and nothing pending needs the policy (the caller tests plain):
// decode.Decoder.TakeText takes it, and its text is p's bytes as they
// stand or, completing a character the last chunk cut or longer than
// TakeText steps through, what out held then (out is left empty). ok is false,
// and nothing changed, when p is not all text. It then ends the chunk
// as feed ends one, without the calls: the text has no blank for
// keptBlanks to count, the last character written is the one before the
// next token (prevChar: an ASCII one is kept as a rune, another by its
// bytes), and the history (keepHistory) is empty unless p ends inside a
// character.
func (c *cleaner) quickText(p []byte) (text []byte, ok bool) {
	c.base = c.dec.Offset()
	text, cut, ok := c.dec.TakeText(c.out, p)
	if !ok {
		return nil, false
	}
	if len(text) > 0 && &text[0] != &p[0] {
		// Appended to out (a character completed, or more than TakeText
		// steps through: AppendText): its buffer, maybe grown, emptied;
		// text stays valid until the next append.
		c.out = text[:0]
	}
	c.dec.TakeTextBlanks() // fed is len(p), and no blank
	c.rep.BytesIn += int64(len(p))
	if len(text) == 0 { // p only goes on with a character cut
		c.keepHistory(p)
		return text, true
	}
	end := c.base + int64(len(p)-cut)
	c.at, c.fmt.prevEnd = end, end
	// An ASCII last byte is the rune, else -1: prevChar reads the tail,
	// which text holds whole, also when it began in the last chunk. Both
	// are kept without a branch on the byte.
	r := rune(text[len(text)-1])
	c.fmt.prevRune = r | -(r >> 7)
	c.fmt.keepTail(text)
	if cut == 0 {
		c.hist = c.hist[:0]
	} else {
		c.keepOpen(p)
	}
	return text, true
}

// tookWord ends p, a short chunk of printable ASCII that
// decode.Decoder.TakeWord took in ground, as quickText ends text: its
// last byte is the character before the next token, and nothing is open.
func (c *cleaner) tookWord(p []byte) {
	end := c.dec.Offset()
	c.base, c.at, c.fmt.prevEnd = end-int64(len(p)), end, end
	c.fmt.prevRune = rune(p[len(p)-1])
	c.rep.BytesIn += int64(len(p))
	c.hist = c.hist[:0]
}

// end finishes the stream.
func (c *cleaner) end() {
	held := len(c.out)
	if c.scanning {
		c.chunk, c.base = nil, c.dec.Offset()
		c.scanEnd()
	} else {
		c.dec.End(c.tokenFn)
	}
	c.endFormat()
	c.endLink() // a link left open still gets its target appended
	if c.crRun != 0 {
		c.settleCR(endOfStream)
	}
	if c.lineMode {
		c.flushLine(false)
	}
	c.screenEnd(held)
	c.rep.Kept.NonASCIIBlanks += countBlanks(c.out[held:])
	c.rep.BytesOut = c.flushed + int64(len(c.out))
}

// keepHistory keeps, at the end of chunk p, what a later token may read
// back of the input before its chunk: the bytes from where the token
// still open began (c.at, the end of the last token; nothing when the
// decoder is between tokens), if they are at most histLen, and the
// character that ends the last token, for prevChar. Text between tokens
// is not copied.
func (c *cleaner) keepHistory(p []byte) {
	if f := &c.fmt; f.prevRune < 0 && f.prevEnd > c.base {
		f.keepTail(p[:f.prevEnd-c.base])
	}
	if open := c.base + int64(len(p)) - c.at; open == 0 || open > histLen {
		c.hist = c.hist[:0]
	} else {
		c.keepOpen(p)
	}
}

// keepTail keeps the last bytes of b, up to utf8.UTFMax, as the end of the
// token before the next one (prevChar).
func (f *formatState) keepTail(b []byte) {
	if i := len(b); i >= utf8.UTFMax {
		f.tail, f.tailN = [utf8.UTFMax]byte(b[i-utf8.UTFMax:]), utf8.UTFMax
	} else {
		f.tailN = copy(f.tail[:], b)
	}
}

// keepOpen keeps, at the end of chunk p, the bytes from where the token
// still open began (keepHistory).
func (c *cleaner) keepOpen(p []byte) {
	if c.at >= c.base {
		c.hist = append(c.hist[:0], p[c.at-c.base:]...)
		return
	}
	if drop := int64(len(c.hist)) - (c.base - c.at); drop > 0 {
		c.hist = append(c.hist[:0], c.hist[drop:]...)
	}
	c.hist = append(c.hist, p...)
}

// bytesAt returns the n input bytes at stream offset off, or nil when they
// are no longer held; bytes joined from hist and chunk are valid until the
// next call.
func (c *cleaner) bytesAt(off, n int64) []byte {
	if off >= c.base {
		i := off - c.base
		if i+n > int64(len(c.chunk)) {
			return nil
		}
		return c.chunk[i : i+n]
	}
	histStart := c.base - int64(len(c.hist))
	if off < histStart || off+n > c.base+int64(len(c.chunk)) {
		return nil
	}
	if off+n <= c.base {
		return c.hist[off-histStart : off+n-histStart]
	}
	// The span straddles hist and chunk: join them in a scratch buffer.
	c.joinBuf = append(append(c.joinBuf[:0], c.hist[off-histStart:]...), c.chunk[:off+n-c.base]...)
	return c.joinBuf
}

// each runs the policy over one token from the decoder. Text and invalid
// UTF-8 that need nothing but writing (the options allow it, no CR,
// format run or offset map waits on them) are written here, and a CSI
// that nothing waits on goes straight to sequence; every other token goes
// through token.
func (c *cleaner) each(t *decode.Token) {
	switch t.Kind {
	case decode.KindText:
		if c.plain() && t.Off >= c.base {
			end := t.End()
			c.at, c.fmt.prevEnd, c.fmt.prevRune = end, end, -1
			c.out = append(c.out, c.chunk[t.Off-c.base:end-c.base]...)
			return
		}
	case decode.KindInvalid:
		if c.plain() {
			c.at = t.End()
			c.rep.byKind[decode.KindInvalid]++
			c.out = append(c.out, replacement[0], replacement[1], replacement[2])
			return
		}
	case decode.KindCSI:
		if !c.mapEach && !c.fmt.pending() {
			c.at = t.End()
			// One begun in an earlier Write (short Writes cut many) is
			// read from the history (span), unless a frame boundary
			// (Writer.Frame) splits it.
			var b []byte
			if t.Flags == 0 && t.Len <= maxMemo && t.Off >= c.frame {
				b = c.span(t.Off, t.End())
			}
			if b == nil {
				c.sequence(t)
				return
			}
			if !c.recallBytes(b, 0) {
				c.sequence(t)
				c.rememberCSI(t, b)
			}
			return
		}
	}
	c.token(t)
}

// plain reports whether output can be appended as it stands: no line
// emulation, format escapes, offset map, CR run or format run wait on it.
func (c *cleaner) plain() bool {
	return c.plainText && !c.mapEach && c.crRun == 0 && !c.fmt.pending()
}

// token is the policy for one token. Text, single controls and format
// characters are handled first, as they are most tokens.
func (c *cleaner) token(t *decode.Token) {
	c.at = t.End()
	if c.fmt.pending() {
		c.beforeToken(t)
	}
	if c.mapEach {
		c.mapToken(t)
	}
	switch t.Kind {
	case decode.KindText:
		c.text(t)
	case decode.KindC0:
		c.c0(t)
	case decode.KindFormat:
		c.format(t)
	case decode.KindInvalid:
		c.rep.byKind[decode.KindInvalid]++
		c.emitString(replacement[:])
	case decode.KindDEL, decode.KindC1:
		c.rep.byKind[t.Kind]++
		c.advise(t)
	default:
		c.sequence(t)
	}
}

// replacement is U+FFFD, written for each invalid UTF-8 unit.
var replacement = [utf8.UTFMax - 1]byte([]byte(string(utf8.RuneError)))

// sequence counts an escape, CSI or control string, its anomalies and the
// advisory flags it raises.
func (c *cleaner) sequence(t *decode.Token) {
	r := &c.rep
	r.byKind[t.Kind&15]++
	if t.Flags != 0 || c.frame > t.Off {
		c.irregular(t)
	}
	switch t.Kind {
	case decode.KindCSI:
		r.countCSI(t)
	case decode.KindOSC:
		r.countOSC(t)
		if t.Command == 8 && t.Flags&(decode.FlagAborted|decode.FlagUnterminated) == 0 {
			c.link(t)
		}
	}
	c.advise(t)
}

// irregular counts the anomalies of a sequence or string, and flags one
// that straddles a frame boundary (Writer.Frame).
func (c *cleaner) irregular(t *decode.Token) {
	if t.Flags != 0 {
		c.anomalies(t)
	}
	if c.frame > t.Off && c.frame < t.End() {
		c.flag(t, &c.rep.Anomalies.Split, "split")
	}
}

// advise counts the advisory flags t raises, each with a finding.
func (c *cleaner) advise(t *decode.Token) {
	if a := Advisories(t); a != 0 {
		c.raise(t, a)
	}
}

// raise counts the advisory classes a of t, each with a finding.
func (c *cleaner) raise(t *decode.Token, a Advisory) {
	for ; a != 0; a &= a - 1 {
		i := bits.TrailingZeros16(uint16(a))
		c.flag(t, &c.rep.classes[i], ctlfunc.Classes[i].Name)
	}
}

// text writes a text token.
func (c *cleaner) text(t *decode.Token) {
	c.fmt.prevEnd, c.fmt.prevRune = t.End(), -1
	var b []byte
	if t.Rune == 0 { // else one character completed across two chunks
		b = c.bytesAt(t.Off, t.Len)
	}
	if b == nil {
		var buf [utf8.UTFMax]byte
		b = utf8.AppendRune(buf[:0], t.Rune)
		c.fmt.prevRune = t.Rune
	}
	if c.opts.FormatChars == FormatEscape {
		c.escapeText(b, t)
		return
	}
	c.literal(b, t)
}

// literal writes b, bytes of the input's text; t is the token they come
// from, or nil when they were held.
func (c *cleaner) literal(b []byte, t *decode.Token) {
	if len(b) == 0 {
		return
	}
	c.resolveCR(b[0])
	if !c.lineMode {
		c.out = append(c.out, b...)
		return
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		i += n
		if t != nil {
			c.at = min(t.Off+int64(i), t.End()) // a line ends where its LF does
		}
		c.put(r)
	}
}

// emitString writes s, made by the sanitizer (an escape, a URI, U+FFFD).
func (c *cleaner) emitString(s []byte) {
	if c.fmt.nlt > 0 {
		c.releaseLiteral(nil)
	}
	c.resolveCR(s[0])
	if !c.lineMode {
		c.out = append(c.out, s...)
		return
	}
	for _, r := range string(s) {
		c.put(r)
	}
}

// c0 handles a C0 control other than TAB and LF.
func (c *cleaner) c0(t *decode.Token) {
	r := &c.rep
	switch t.Final {
	case '\r':
		r.Removed.CR++
		if c.crRun == 0 {
			c.crOff = t.Off
		}
		c.crRun++
	case '\b':
		r.Removed.BS++
		c.flag(t, &r.Flags.Overwrite, "overwrite")
		if c.opts.BS == BSOverstrike && c.col > 0 {
			c.col--
		}
	case 0x0B, 0x0C:
		c.moveDown()
	default:
		r.Removed.C0++
	}
}

// moveDown writes VT or FF as an LF (Kept.VTFF): xterm moves down a line
// for each.
func (c *cleaner) moveDown() {
	c.rep.Kept.VTFF++
	c.emitString([]byte{'\n'})
}

// endOfStream is settleCR's "next" at the end of the stream.
const endOfStream = -1

// resolveCR settles a pending run of CRs before the output byte next.
func (c *cleaner) resolveCR(next byte) {
	if c.crRun != 0 {
		c.settleCR(int(next))
	}
}

// settleCR decides what the pending run of CRs was, now that the next
// output byte is known: '\n' (CRLF, CRCRLF: the LF is the line break),
// endOfStream, or any other byte (text painted over the line).
func (c *cleaner) settleCR(next int) {
	c.crRun = 0
	if next == '\n' {
		c.crFate = CRBeforeLF
		return
	}
	if next != endOfStream {
		c.crFate = CROverwrites
		c.rep.Flags.Overwrite++
		c.rep.find(c.crOff, "overwrite", "CR", 1)
	}
	if c.opts.CR != CRLines {
		return
	}
	if c.lineMode {
		c.flushLine(true)
		return
	}
	pos := c.outPos()
	c.out = append(c.out, '\n')
	if c.m != nil {
		c.m.inserted(c.crOff, pos, 1)
	}
}

// put writes r at the cursor of the emulated line.
func (c *cleaner) put(r rune) {
	if r == '\n' {
		c.flushLine(true)
		return
	}
	if c.col < len(c.line) {
		c.line[c.col] = r
	} else {
		c.line = append(c.line, r)
	}
	c.col++
	if len(c.line) >= maxLine {
		c.flushLine(false)
	}
}

// flushLine writes the emulated line out, with LF when nl is set.
func (c *cleaner) flushLine(nl bool) {
	for _, r := range c.line {
		c.out = utf8.AppendRune(c.out, r)
	}
	if nl {
		c.out = append(c.out, '\n')
	}
	c.line, c.col = c.line[:0], 0
	if c.m != nil {
		c.m.add(c.at, c.outPos())
	}
}

// mapToken adds the offset map's point for t. A control executed inside a
// sequence (FlagEmbedded) comes before the sequence that holds it and
// starts later in the input, so it adds no point of its own: the
// sequence's point takes the output position from before the first such
// control, and the map stays in input order.
func (c *cleaner) mapToken(t *decode.Token) {
	if t.Flags&decode.FlagEmbedded != 0 {
		if !c.embOpen {
			c.embOpen, c.embOut = true, c.outPos()
		}
		return
	}
	out := c.outPos()
	if c.embOpen {
		out, c.embOpen = c.embOut, false
	}
	c.m.add(t.Off, out)
}

func (c *cleaner) outPos() int64 { return c.flushed + int64(len(c.out)) }

// appendCodePoint appends "<U+XXXX>".
func appendCodePoint(b []byte, r rune) []byte {
	const hex = "0123456789ABCDEF"
	b = append(b, "<U+"...)
	digits := 4
	if r > 0xFFFF {
		digits = 5
	}
	for i := digits - 1; i >= 0; i-- {
		b = append(b, hex[(r>>(4*i))&0xF])
	}
	return append(b, '>')
}

// flag counts one advisory flag and records a finding for t.
func (c *cleaner) flag(t *decode.Token, n *int64, kind string) {
	*n++
	if len(c.rep.Findings) >= MaxFindings {
		c.rep.FindingsOmitted++
		return
	}
	c.rep.find(t.Off, kind, Name(t), t.Len)
}

// anomalies counts the decode flags of a sequence or string, in the bit
// order of ctlfunc.Anomalies.
func (c *cleaner) anomalies(t *decode.Token) {
	for f := t.Flags & ctlfunc.AnomalyFlags; f != 0; f &= f - 1 {
		i := bits.TrailingZeros16(uint16(f))
		c.flag(t, &c.rep.anomalies[i], ctlfunc.Anomalies[i].Name)
	}
	if t.Is(decode.FlagUnterminated) {
		c.rep.BytesSwallowed += t.Len
		c.rep.SwallowedByC1 = c.rep.SwallowedByC1 || t.Intro == decode.Intro8Bit
	}
}

// pending reports whether the format policy holds something that the next
// token settles (beforeToken).
func (f *formatState) pending() bool { return f.held != 0 || f.runN > 0 || f.nlt > 0 || f.joined }
