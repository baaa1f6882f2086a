package render

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// HexOptions select the layout of HexDump.
type HexOptions struct {
	// Width is the number of bytes per row; 0 means 16.
	Width int
	// Payloads shows payload bytes escaped in the glyph column; by default
	// each is drawn as the uniform marker ░, so no payload text appears
	// (the hex digits are always shown).
	Payloads bool
	// ASCII draws the glyph column with ASCII glyphs only (see
	// GlyphOptions.ASCII).
	ASCII bool
	// NoSqueeze prints every row; by default a run of rows identical to
	// the row before them (same bytes, same glyphs) is squeezed into one
	// line, like hexdump -C.
	NoSqueeze bool
	// Skip is the offset in bytes of the first byte shown; bytes before it
	// are still decoded, so the first row is classed in its context.
	Skip int64
	// Length is the number of bytes shown from Skip; 0 means to the end.
	Length int64
	// Policy selects the grammar alternatives the decoder follows, as
	// sanitize would.
	Policy sanitize.Options
}

// HexDump writes the bytelens hex view of the first size bytes of r to w:
// per row the offset ("0x00000000"), the bytes in hex in groups of 8, and
// a glyph column between bars drawn by GlyphCells (one cell per byte, no
// wide characters), payloads hidden unless o.Payloads. A run of rows
// identical to the one before it is replaced by one line
// "* N identical rows, 0x00000010-0x0000003f" (offsets of the first and
// last byte squeezed). The last line is the offset just past the end.
// It reads r in bounded pages and returns the first error from r or w.
func HexDump(w io.Writer, r io.ReaderAt, size int64, o HexOptions) error {
	return hexDump(w, &sizedPages{r: r, size: size}, o, false)
}

// hexDump writes the hex view of the stream src yields; with flushEach it
// flushes w after each page.
func hexDump(w io.Writer, src pageSource, o HexOptions, flushEach bool) error {
	width := o.Width
	if width <= 0 {
		width = 16
	}
	bw := bufio.NewWriter(w)
	gopt := GlyphOptions{HidePayloads: !o.Payloads, ASCII: o.ASCII}
	dec := decoderFor(o.Policy)

	// Decode what comes before Skip, for context only.
	var off int64
	for start := max(o.Skip, 0); off < start; {
		p, last, err := src.next(int(min(pageSize, start-off)))
		if err != nil {
			return err
		}
		dec.Feed(p, func(*decode.Token) {})
		off += int64(len(p))
		if err := src.done(off); err != nil {
			return err
		}
		if last {
			break
		}
	}
	end := int64(math.MaxInt64)
	if o.Length > 0 {
		end = off + o.Length
	}

	page := (pageSize / width) * width
	var prev, cur []byte
	var squeezed int
	var squeezeFrom int64
	flush := func(next int64) {
		if squeezed > 0 {
			line := []byte("* ")
			line = appendCount(line, int64(squeezed))
			if squeezed == 1 {
				line = append(line, " identical row, "...)
			} else {
				line = append(line, " identical rows, "...)
			}
			line = appendOffset(line, squeezeFrom)
			line = append(line, '-')
			line = appendOffset(line, next-1)
			line = append(line, '\n')
			bw.Write(line)
			squeezed = 0
		}
	}
	var win Window
	var cells []Cell
	var line []byte
	for off < end {
		p, last, err := src.next(int(min(int64(page), end-off)))
		if err != nil {
			return err
		}
		if len(p) == 0 {
			break
		}
		win.decode(dec, p, last)
		dec.Feed(p, func(*decode.Token) {})
		for row := off; row < off+int64(len(p)); row += int64(width) {
			m := int(min(int64(width), off+int64(len(p))-row))
			cur, cells = appendHexRow(cur[:0], cells[:0], &win, row, m, width, gopt)
			if !o.NoSqueeze && prev != nil && bytes.Equal(cur, prev) {
				if squeezed == 0 {
					squeezeFrom = row
				}
				squeezed++
				continue
			}
			flush(row)
			line = appendOffset(line[:0], row)
			line = append(line, ' ', ' ')
			bw.Write(line)
			bw.Write(cur)
			bw.WriteByte('\n')
			prev, cur = cur, prev
		}
		off += int64(len(p))
		if err := src.done(off); err != nil { // nothing is read again
			return err
		}
		if flushEach {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if last {
			break
		}
	}
	flush(off)
	bw.Write(appendOffset(nil, off))
	bw.WriteByte('\n')
	return bw.Flush()
}

// appendHexRow appends one row without its offset: m hex cells in groups
// of 8, padded to width, then the glyph column between bars.
// cells is a scratch buffer, returned for reuse.
func appendHexRow(dst []byte, cells []Cell, w *Window, off int64, m, width int, o GlyphOptions) ([]byte, []Cell) {
	hex := AppendHexCells(cells[:0], w, off, m)
	for i := range width {
		if i > 0 && i%8 == 0 {
			dst = append(dst, ' ')
		}
		if i < len(hex) {
			dst = append(dst, hex[i].Text.s...)
		} else {
			dst = append(dst, "  "...)
		}
		dst = append(dst, ' ')
	}
	dst = append(dst, " |"...)
	glyphs := AppendGlyphCells(hex[:0], w, off, m, o)
	for _, c := range glyphs {
		dst = append(dst, c.Text.s...)
	}
	return append(dst, '|'), glyphs
}

// WriteDescriptions writes one line per token that is not text of the
// first size bytes of r — controls, escape and control sequences, control
// strings, invalid UTF-8, format characters — like teseq with offsets:
// offset in hex and decimal, length in bytes, name (sanitize.Name) and
// Describe's description. A run of identical one-byte controls is one
// line ("; 100 in a row"). Payloads appear only as sizes. It reads r in
// bounded pages and returns the first error from r or w.
func WriteDescriptions(w io.Writer, r io.ReaderAt, size int64, o StreamOptions) error {
	return writeDescriptions(w, &sizedPages{r: r, size: size}, o, false)
}

// writeDescriptions writes the descriptions of the stream src yields; with
// flushEach it flushes w after each page.
func writeDescriptions(w io.Writer, src pageSource, o StreamOptions, flushEach bool) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("OFFSET         DECIMAL   LENGTH  NAME                  DESCRIPTION\n")
	var line []byte
	var run decode.Token // a run of identical one-byte controls
	var runN int64
	write := func(t *decode.Token, n int64) {
		line = appendOffset(line[:0], t.Off)
		line = appendPadded(line, t.Off, 13)
		line = appendPadded(line, t.Len*n, 9)
		line = append(line, "  "...)
		name := Line([]byte(chipName(t)))
		line = append(line, name.s...)
		for k := name.Width(); k < 20; k++ {
			line = append(line, ' ')
		}
		line = append(line, "  "...)
		line = append(line, Describe(t).s...)
		if n > 1 {
			line = append(line, "; "...)
			line = appendCount(line, n)
			line = append(line, " in a row"...)
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	flush := func() {
		if runN > 0 {
			write(&run, runN)
			runN = 0
		}
	}
	// Embedded controls come from the decoder before the sequence they
	// lie in; they are listed after it, the first maxEmbeddedListed of
	// them.
	const maxEmbeddedListed = 64
	var pending []decode.Token
	var unlisted int64
	emit := func(t *decode.Token) {
		if t.Is(decode.FlagEmbedded) {
			if len(pending) < maxEmbeddedListed {
				pending = append(pending, *t)
			} else {
				unlisted++
			}
			return
		}
		if t.Kind == decode.KindText {
			flush()
			return
		}
		single := t.Len == 1 && t.Flags == 0 && (t.Kind == decode.KindC0 || t.Kind == decode.KindDEL || t.Kind == decode.KindC1)
		if single && runN > 0 && run.Kind == t.Kind && run.Final == t.Final && run.Off+runN == t.Off {
			runN++
			return
		}
		flush()
		if single {
			run, runN = *t, 1
			return
		}
		write(t, 1)
		for i := range pending {
			write(&pending[i], 1)
		}
		if unlisted > 0 {
			line = appendOffset(line[:0], t.Off)
			line = append(line, "  ("...)
			line = appendCount(line, unlisted)
			line = append(line, " more controls executed inside this sequence are not listed)\n"...)
			bw.Write(line)
		}
		pending, unlisted = pending[:0], 0
	}
	dec := decoderFor(o.Policy)
	for {
		p, last, err := src.next(pageSize)
		if err != nil {
			return err
		}
		dec.Feed(p, emit)
		if err := src.done(dec.Offset()); err != nil { // nothing is read again
			return err
		}
		if flushEach {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if last || len(p) == 0 {
			break
		}
	}
	dec.End(emit)
	flush()
	return bw.Flush()
}

// appendPadded appends n right-aligned in a field of width columns.
func appendPadded(dst []byte, n int64, width int) []byte {
	var tmp [20]byte
	s := appendCount(tmp[:0], n)
	for k := len(s); k < width; k++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// readErr is the error of a read at off that returned k bytes short.
func readErr(off int64, k int, err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("read at offset %d: %w", off+int64(k), err)
}
