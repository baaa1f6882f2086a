package render

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// StreamOptions select how Glyphs and WriteGlyphs draw a byte stream.
type StreamOptions struct {
	// Payloads shows the payload bytes of control strings, escaped: printable
	// ASCII and displayable UTF-8 as themselves, C0 as Control Pictures,
	// other bytes as "<9B>". By default each payload is collapsed to its
	// size, "‹24 bytes›", so that no payload byte reaches the output.
	Payloads bool
	// Chips shows each escape sequence, control sequence and control
	// string as one labelled chip, "‹CSI 31m›", "‹OSC 52 write, 24 bytes›",
	// instead of its bytes.
	Chips bool
	// Policy selects the grammar alternatives the decoder follows (C1 lone
	// bytes, BEL ending APC, the overlong limit), as sanitize would.
	Policy sanitize.Options
	// EndLine ends a glyph stream that is not empty with exactly one line
	// feed: one is added when the last glyph is not LF (bytelens glyphs
	// prints whole lines).
	EndLine bool
}

// maxSequenceShown is how many bytes of one escape or control sequence
// WriteGlyphs shows before it writes how many more there were.
const maxSequenceShown = 256

// pageSize is the number of bytes read and decoded at a time.
const pageSize = 64 << 10

// Glyphs returns the escaped-glyph stream of data, the output of bytelens
// glyphs: text as itself with LF kept as line breaks; TAB, other C0 and
// DEL as Control Pictures (␉ ␍ ␛ ␡); raw C1 and invalid bytes as "<9B>";
// C1 in UTF-8 as "<U+009B>"; format characters and other characters that
// must not reach a terminal as "<U+202E>"; escape and control sequences as
// their bytes (␛[31m) or, with o.Chips, as chips; control string payloads
// collapsed to "‹N bytes›" unless o.Payloads. A sequence or string that
// was cut short is followed by "‹aborted›" or "‹unterminated›".
func Glyphs(data []byte, o StreamOptions) Safe {
	var b bytes.Buffer
	_ = WriteGlyphs(&b, bytes.NewReader(data), int64(len(data)), o)
	return Safe{b.String()}
}

// WriteGlyphs writes the glyph stream of the first size bytes of r to w,
// as Glyphs does, reading and decoding r in pages of 64 KiB: memory stays
// bounded whatever size is. It returns the first error from r or w.
func WriteGlyphs(w io.Writer, r io.ReaderAt, size int64, o StreamOptions) error {
	return writeGlyphs(w, &sizedPages{r: r, size: size}, size, o, false)
}

// writeGlyphs writes the glyph stream of the size bytes src yields (size
// math.MaxInt64 when unknown); with flushEach it flushes w after each
// page.
func writeGlyphs(w io.Writer, src pageSource, size int64, o StreamOptions, flushEach bool) error {
	g := &glyphWriter{bw: bufio.NewWriter(w), r: src, o: o, size: size}
	dec := decoderFor(o.Policy)
	for {
		off := dec.Offset()
		p, last, err := src.next(pageSize)
		if err != nil {
			return err
		}
		g.page, g.pageOff = p, off
		dec.Feed(p, g.token)
		if g.err != nil {
			return g.err
		}
		if err := src.done(g.open); err != nil {
			return err
		}
		if flushEach {
			if err := g.bw.Flush(); err != nil {
				return err
			}
		}
		if last || len(p) == 0 {
			break
		}
	}
	g.page = nil
	dec.End(g.token)
	if o.EndLine && g.last != 0 && g.last != '\n' {
		g.writeString("\n")
	}
	if g.err != nil {
		return g.err
	}
	return g.bw.Flush()
}

// decoderFor returns a decoder with the grammar options of p.
func decoderFor(p sanitize.Options) decode.Decoder {
	return decode.Decoder{LoneC1: p.C1 == sanitize.C1Lone, APCBEL: p.APCBEL, MaxPayload: p.MaxPayload}
}

// glyphWriter renders tokens as WriteGlyphs describes.
type glyphWriter struct {
	bw      *bufio.Writer
	r       io.ReaderAt
	o       StreamOptions
	page    []byte // the page being decoded
	pageOff int64
	scratch []byte
	ahead   [escapeMax - 1]byte // peek's buffer
	size    int64               // bytes in the stream
	open    int64               // offset of the token still open: the end of the last one emitted
	out     []byte              // the line being built, reused
	last    byte                // the last byte written, 0 before any
	err     error
}

// bytesAt returns the n bytes at stream offset off: from the current page
// when they are in it, else read from r into a scratch buffer (n must be
// bounded by the caller).
func (g *glyphWriter) bytesAt(off, n int64) []byte {
	if int64(cap(g.scratch)) < n {
		g.scratch = make([]byte, n)
	}
	return g.readAt(off, g.scratch[:n])
}

// readAt returns the len(buf) bytes at stream offset off: from the current
// page when they are in it, else read from r into buf.
func (g *glyphWriter) readAt(off int64, buf []byte) []byte {
	n := int64(len(buf))
	if off >= g.pageOff && off+n <= g.pageOff+int64(len(g.page)) {
		return g.page[off-g.pageOff : off-g.pageOff+n]
	}
	k, err := g.r.ReadAt(buf, off)
	if int64(k) < n {
		g.fail(readErr(off, k, err))
		return nil
	}
	return buf
}

func (g *glyphWriter) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

func (g *glyphWriter) write(b []byte) {
	if g.err == nil && len(b) > 0 {
		g.last = b[len(b)-1]
		if _, err := g.bw.Write(b); err != nil {
			g.fail(err)
		}
	}
}

func (g *glyphWriter) writeString(s string) {
	if g.err == nil && len(s) > 0 {
		g.last = s[len(s)-1]
		if _, err := g.bw.WriteString(s); err != nil {
			g.fail(err)
		}
	}
}

// token renders one token; it is the decoder's emit callback.
func (g *glyphWriter) token(t *decode.Token) {
	if !t.Is(decode.FlagEmbedded) {
		g.open = t.Off + t.Len // tokens tile the stream
	}
	if g.err != nil {
		return
	}
	var tmp [64]byte
	switch t.Kind {
	case decode.KindText:
		if t.Is(decode.FlagEmbedded) {
			if g.o.Chips {
				g.writeString(c0Pictures[t.Final&0x7F])
			}
			return // drawn with the sequence's bytes
		}
		g.text(t)
	case decode.KindC0:
		if t.Is(decode.FlagEmbedded) && !g.o.Chips {
			return
		}
		g.writeString(c0Pictures[t.Final&0x1F])
	case decode.KindDEL:
		g.writeString(c0Pictures[0x7F])
	case decode.KindC1:
		if t.Intro == decode.IntroUTF8 {
			g.write(appendCodePoint(tmp[:0], rune(t.Final)))
		} else {
			g.write(appendHexByte(tmp[:0], t.Final))
		}
	case decode.KindInvalid:
		if b := g.bytesAt(t.Off, min(t.Len, 4)); b != nil {
			out := tmp[:0]
			for _, c := range b {
				out = appendHexByte(out, c)
			}
			g.write(out)
		}
	case decode.KindFormat:
		g.write(appendCodePoint(tmp[:0], t.Rune))
	default:
		if g.o.Chips {
			g.chip(t)
		} else {
			g.sequence(t)
		}
	}
}

// text writes a text token, escaping what Text escapes but LF, and a '<'
// that would make the text read as one of the stream's own escapes
// (mimicsEscape) as "<3C>". A text run is cut into tokens where pages end,
// so the bytes after the token are looked at for a spelling that straddles
// the cut.
func (g *glyphWriter) text(t *decode.Token) {
	b := g.bytesAt(t.Off, t.Len)
	if b == nil {
		return
	}
	var ahead []byte
	if bytes.IndexByte(b[max(0, len(b)-escapeMax+1):], '<') >= 0 {
		ahead = g.peek(t.End())
	}
	g.writeAppend(func(dst []byte) []byte {
		for i := 0; i < len(b); i++ {
			if b[i] == '<' && mimicsEscape(b[i:], ahead) {
				dst = appendHexByte(appendText(dst, b[:i], true), '<')
				b, i = b[i+1:], -1
			}
		}
		return appendText(dst, b, true)
	})
}

// escapeMax is the length in bytes of the longest ASCII escape render
// writes, "<U+10FFFF>".
const escapeMax = len("<U+10FFFF>")

// mimicsEscape reports whether s, which begins with '<', spells one of
// render's ASCII escapes: "<9B>" (two upper-case hex digits) or "<U+202E>"
// (four to six), with ahead as the bytes after s when s is cut short.
// Such a '<' in text is written "<3C>", so the text "<9B>" cannot pass for
// an escaped byte.
func mimicsEscape(s, ahead []byte) bool {
	if len(s) < escapeMax && len(ahead) > 0 {
		var buf [escapeMax]byte
		s = append(append(buf[:0], s...), ahead[:min(len(ahead), escapeMax-len(s))]...)
	}
	hex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'F' }
	if len(s) >= 4 && hex(s[1]) && hex(s[2]) && s[3] == '>' {
		return true
	}
	if len(s) < 8 || s[1] != 'U' || s[2] != '+' {
		return false
	}
	n := 0
	for n < 6 && 3+n < len(s) && hex(s[3+n]) {
		n++
	}
	return n >= 4 && 3+n < len(s) && s[3+n] == '>'
}

// peek returns up to escapeMax-1 bytes of the stream at off, fewer at its
// end, in a buffer of its own (bytesAt's scratch may hold what the caller
// is reading).
func (g *glyphWriter) peek(off int64) []byte {
	n := min(int64(len(g.ahead)), g.size-off)
	if n <= 0 {
		return nil
	}
	if off >= g.pageOff && off+n <= g.pageOff+int64(len(g.page)) {
		return g.page[off-g.pageOff : off-g.pageOff+n]
	}
	k, err := g.r.ReadAt(g.ahead[:n], off)
	if int64(k) < n && !errors.Is(err, io.EOF) {
		g.fail(readErr(off, k, err))
		return nil
	}
	return g.ahead[:k] // fewer at the end of a stream of unknown length
}

// writeAppend appends with f into a temporary buffer and writes it.
func (g *glyphWriter) writeAppend(f func([]byte) []byte) {
	var buf [512]byte
	g.write(f(buf[:0]))
}

// sequence writes an escape, CSI or control string by its bytes, the
// payload collapsed unless Payloads.
func (g *glyphWriter) sequence(t *decode.Token) {
	out := g.out[:0]
	defer func() { g.out = out[:0] }()
	if t.Kind.IsString() {
		ps, pe := payloadSpan(t)
		out = g.seqBytes(out, t, t.Off, ps-t.Off)
		g.write(out)
		g.payload(t, ps, pe)
		out = g.seqBytes(out[:0], t, pe, t.Off+t.Len-pe)
	} else {
		n := min(t.Len, maxSequenceShown)
		out = g.seqBytes(out, t, t.Off, n)
		if n < t.Len {
			out = append(out, markOpen+"+"...)
			out = appendCount(out, t.Len-n)
			out = append(out, " bytes"+markClose...)
		}
	}
	if t.Is(decode.FlagAborted) {
		out = append(out, markOpen+"aborted"+markClose...)
	}
	if t.Is(decode.FlagUnterminated) {
		out = append(out, markOpen+"unterminated"+markClose...)
	}
	g.write(out)
}

// seqBytes appends the n sequence bytes at off of t: ESC as ␛, printable
// ASCII as itself, C0 and DEL as Control Pictures, a C1 introducer or
// terminator as "<9B>" or "<U+009B>", any other byte as "<XX>".
func (g *glyphWriter) seqBytes(dst []byte, t *decode.Token, off, n int64) []byte {
	if n <= 0 {
		return dst
	}
	b := g.bytesAt(off, n)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= 0x20 && c < 0x7F:
			dst = append(dst, c)
		case c < 0x80:
			dst = append(dst, c0Pictures[c]...)
		case c == 0xC2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9F:
			dst = appendCodePoint(dst, rune(b[i+1]))
			i++
		default:
			dst = appendHexByte(dst, c)
		}
	}
	return dst
}

// payload writes the payload [ps, pe) of t: collapsed to its size, or
// escaped with Payloads, read in bounded chunks.
func (g *glyphWriter) payload(t *decode.Token, ps, pe int64) {
	n := pe - ps
	if n <= 0 {
		return
	}
	if !g.o.Payloads {
		var out []byte
		if t.Kind == decode.KindOSC && t.Command >= 0 {
			// The OSC number is named in reports; show it, count the rest.
			q := t.PayloadPrefix()
			k := 0
			for k < len(q) && q[k] >= '0' && q[k] <= '9' {
				k++
			}
			if k < len(q) && q[k] == ';' {
				k++
			}
			if k < len(q) || int64(k) == n {
				out = append(out, q[:k]...)
				n -= int64(k)
			}
		}
		if n > 0 {
			out = append(out, markOpen...)
			out = appendCount(out, n)
			if n == 1 {
				out = append(out, " byte"+markClose...)
			} else {
				out = append(out, " bytes"+markClose...)
			}
		}
		g.write(out)
		return
	}
	const chunk = 4096
	var carry [utf8.UTFMax]byte
	nc := 0
	for off := ps; off < pe && g.err == nil; {
		m := min(int64(chunk), pe-off)
		b := g.bytesAt(off, m)
		if b == nil {
			return
		}
		joined := append(append(make([]byte, 0, nc+len(b)), carry[:nc]...), b...)
		off += m
		// Keep an incomplete character for the next chunk.
		keep := 0
		if off < pe {
			for k := 1; k < utf8.UTFMax && k <= len(joined); k++ {
				c := joined[len(joined)-k]
				if c >= 0xC0 {
					if !utf8.FullRune(joined[len(joined)-k:]) {
						keep = k
					}
					break
				}
				if c < 0x80 {
					break
				}
			}
		}
		nc = copy(carry[:], joined[len(joined)-keep:])
		g.write(appendPayload(nil, joined[:len(joined)-keep]))
	}
	if nc > 0 {
		g.write(appendPayload(nil, carry[:nc]))
	}
}

// appendPayload appends payload bytes escaped: printable ASCII and
// displayable UTF-8 as themselves, C0 and DEL as Control Pictures, one of
// render's own glyphs or markers as "<U+2039>", any other byte as "<XX>".
func appendPayload(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c < 0x7F {
				dst = append(dst, c)
			} else {
				dst = append(dst, c0Pictures[c]...)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError || n > 1 {
			switch {
			case displayable(r):
				dst = append(dst, p[i:i+n]...)
				i += n
				continue
			case isMarker(r):
				dst = appendCodePoint(dst, r)
				i += n
				continue
			}
		}
		for k := 0; k < max(n, 1); k++ {
			dst = appendHexByte(dst, p[i+k])
		}
		i += max(n, 1)
	}
	return dst
}

// appendCount appends a decimal count.
func appendCount(dst []byte, n int64) []byte {
	return strconv.AppendInt(dst, n, 10)
}

// chip writes a sequence or string as one labelled chip: "‹CSI 31m›",
// "‹OSC 52 write, 21 bytes›", with anomalies after a semicolon.
func (g *glyphWriter) chip(t *decode.Token) {
	out := append(g.out[:0], markOpen...)
	defer func() { g.out = out[:0] }()
	out = appendText(out, []byte(chipName(t)), false)
	if t.Kind.IsString() {
		if g.o.Payloads {
			out = append(out, ": "...)
			g.write(out)
			ps, pe := payloadSpan(t)
			g.payload(t, ps, pe)
			out = out[:0]
		} else {
			out = append(out, ", "...)
			out = appendCount(out, t.Payload)
			if t.Payload == 1 {
				out = append(out, " byte"...)
			} else {
				out = append(out, " bytes"...)
			}
		}
	}
	sep := "; "
	for _, a := range []struct {
		f    decode.Flags
		name string
	}{
		{decode.FlagAborted, "aborted"}, {decode.FlagUnterminated, "unterminated"},
		{decode.FlagMalformed, "malformed"}, {decode.FlagAmbiguous, "ambiguous"},
		{decode.FlagOverlong, "overlong"}, {decode.FlagOverflow, "overflow"},
	} {
		if t.Is(a.f) {
			out = append(out, sep...)
			out = append(out, a.name...)
			sep = ", "
		}
	}
	out = append(out, markClose...)
	g.write(out)
}

// chipName is sanitize.Name with the ellipsis spelled in ASCII (U+2026 is
// East Asian ambiguous).
func chipName(t *decode.Token) string {
	if t.Kind == decode.KindText && t.Is(decode.FlagEmbedded) {
		return sanitize.Name(&decode.Token{Kind: decode.KindC0, Final: t.Final}) // "LF", "HT"
	}
	return strings.TrimSpace(strings.ReplaceAll(sanitize.Name(t), "…", "..."))
}
