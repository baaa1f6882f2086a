package render

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

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
	// FromStart, when not nil, is called when no synchronizing byte (CAN,
	// SUB, or ESC and the byte after it; decode.LastSync) lies in the
	// 64 MiB before Skip, before HexDump goes forward from 0 to Skip.
	FromStart func()
}

// HexDump writes the bytelens hex view of the first size bytes of r to w:
// per row the offset ("0x00000000"), the bytes in hex in groups of 8, and
// a glyph column between bars drawn by GlyphCells (one cell per byte, no
// wide characters), payloads hidden unless o.Payloads. A run of rows
// identical to the one before it is replaced by one line
// "* N identical rows, 0x00000010-0x0000003f" (offsets of the first and
// last byte squeezed). The last line is the offset just past the end.
// It reads r in bounded pages and returns the first error from r or w.
//
// The first row after Skip is classed exactly as in a dump from 0, but
// only the bytes from the last synchronizing point before Skip are
// decoded (see decoderBefore): HexDump seeks.
func HexDump(w io.Writer, r io.ReaderAt, size int64, o HexOptions) error {
	src := &sizedPages{r: r, size: size}
	dec := decoderFor(o.Policy)
	if o.Skip > 0 {
		var err error
		src.off = min(o.Skip, size)
		if dec, err = decoderBefore(r, src.off, dec, maxSyncBack, o.FromStart); err != nil {
			return err
		}
	}
	return hexDump(w, src, dec, o, false)
}

// syncScan is how many bytes decoderBefore reads per step; maxSyncBack
// how far back from Skip it looks for a synchronizing point.
const (
	syncScan    = 1 << 20
	maxSyncBack = 64 << 20
)

// decoderBefore returns d advanced to stream offset skip of r: it reads
// back from skip to the last synchronizing point (decode.LastSync) and
// decodes forward from there, so that the cost is the distance to that
// point, not skip. With none in the maxBack bytes before skip it
// calls fromStart (when not nil) and goes forward from 0, decoding each
// page from its last synchronizing point (Decoder.Skip).
func decoderBefore(r io.ReaderAt, skip int64, d decode.Decoder, maxBack int64, fromStart func()) (decode.Decoder, error) {
	buf := make([]byte, min(skip, syncScan+1))
	from := int64(-1)
	// Each step reads [a, end) with end one byte past the part not yet
	// looked at, so that an ESC at its end has its next byte.
	lo := max(0, skip-maxBack)
	for end := skip; end > lo; {
		a := max(lo, end-syncScan)
		p := buf[:end-a]
		if k, err := r.ReadAt(p, a); k < len(p) {
			return d, readErr(a, k, err)
		}
		if k := decode.LastSync(p); k >= 0 {
			from = a + int64(k)
			break
		}
		if a == 0 {
			from = 0 // nothing before skip synchronizes: the state at 0 is the one
		}
		if a == lo {
			break
		}
		end = a + 1
	}
	if from < 0 {
		if fromStart != nil {
			fromStart()
		}
		from = 0
	}
	d.Restart(from)
	for off := from; off < skip; {
		p := buf[:min(int64(len(buf)), skip-off)]
		if k, err := r.ReadAt(p, off); k < len(p) {
			return d, readErr(off, k, err)
		}
		d.Skip(p)
		off += int64(len(p))
	}
	return d, nil
}

// hexDump writes the hex view of the stream src yields, decoded from dec
// (which is at src's next byte); with flushEach it flushes w after each
// page.
func hexDump(w io.Writer, src pageSource, dec decode.Decoder, o HexOptions, flushEach bool) error {
	width := o.Width
	if width <= 0 {
		width = 16
	}
	bw := bufio.NewWriter(w)
	gopt := GlyphOptions{HidePayloads: !o.Payloads, ASCII: o.ASCII}

	// Skip what comes before Skip in a stream, decoding only from each
	// page's last synchronizing point, for context only.
	off := dec.Offset()
	for start := max(o.Skip, 0); off < start; {
		p, last, err := src.next(int(min(pageSize, start-off)))
		if err != nil {
			return err
		}
		dec.Skip(p)
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
	var line, ahead []byte
	for off < end {
		// Pages end where a dump from 0 ends them, so that a row is
		// classed with the same bytes after it whatever Skip is; rows
		// not aligned to width end pages on a row.
		n := (int64(page) - off%int64(page)) / int64(width) * int64(width)
		if n == 0 {
			n = int64(page)
		}
		p, last, err := src.next(int(min(n, end-off)))
		if err != nil {
			return err
		}
		if len(p) == 0 {
			break
		}
		data, atEnd := withAhead(src, &ahead, p, off, last)
		win.decode(dec, data, atEnd)
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

// withAhead returns what the window of page p (at stream offset off)
// decodes, and whether that reaches the end of the stream: p and, unless
// p is the last page, the up to utf8.UTFMax-1 bytes after it, so that a
// character cut by the page end is drawn on its lead byte as it is inside
// a page (rows are drawn for p's bytes only). buf is a scratch buffer,
// kept for reuse.
func withAhead(src pageSource, buf *[]byte, p []byte, off int64, last bool) ([]byte, bool) {
	if last {
		return p, true
	}
	*buf = append((*buf)[:0], p...)
	var more [utf8.UTFMax - 1]byte
	k, err := src.ReadAt(more[:], off+int64(len(p)))
	if k == 0 && err != nil {
		return p, false
	}
	*buf = append(*buf, more[:k]...)
	return *buf, false
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

// Description is one token that is not text, as Descriptions reports it.
type Description struct {
	// Off is the token's offset in bytes; Len is the length in bytes it
	// covers, for a run of Count identical one-byte controls all of them.
	Off, Len int64
	// Count is 1, or the number of identical one-byte controls in a row.
	Count int64
	// Name is the token's name (sanitize.Name), Text Describe's
	// description of it.
	Name, Text Safe
	// Unlisted, when not 0, makes this a note instead of a token: that
	// many more controls executed inside the sequence at Off were not
	// listed. Len, Count, Name and Text are then zero.
	Unlisted int64
}

// maxEmbeddedListed is how many controls executed inside one sequence
// Descriptions lists; the rest are counted in a note.
const maxEmbeddedListed = 64

// Descriptions calls fn for each token that is not text of the first size
// bytes of r — controls, escape and control sequences, control strings,
// invalid UTF-8, format characters — in stream order. A run of identical
// one-byte controls is one Description. Controls executed inside a
// sequence come from the decoder before it; they are reported after it,
// the first maxEmbeddedListed of them, then a note with the count of the
// rest. Payloads appear only as sizes. fn must not keep d. It reads r in
// bounded pages and returns the first error from r or fn.
func Descriptions(r io.ReaderAt, size int64, o StreamOptions, fn func(d *Description) error) error {
	return eachDescription(&sizedPages{r: r, size: size}, o, fn, nil)
}

// WriteDescriptions writes one line per Description of the first size
// bytes of r, like teseq with offsets: offset in hex and decimal, length
// in bytes, name (sanitize.Name) and Describe's description; a run of
// identical one-byte controls ends "; 100 in a row". It returns the first
// error from r or w.
func WriteDescriptions(w io.Writer, r io.ReaderAt, size int64, o StreamOptions) error {
	return writeDescriptions(w, &sizedPages{r: r, size: size}, o, false)
}

// writeDescriptions writes the descriptions of the stream src yields; with
// flushEach it flushes w after each page.
func writeDescriptions(w io.Writer, src pageSource, o StreamOptions, flushEach bool) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("OFFSET         DECIMAL   LENGTH  NAME                  DESCRIPTION\n")
	var line []byte
	var page func() error
	if flushEach {
		page = bw.Flush
	}
	err := eachDescription(src, o, func(d *Description) error {
		line = appendOffset(line[:0], d.Off)
		if d.Unlisted > 0 {
			line = append(line, "  ("...)
			line = appendCount(line, d.Unlisted)
			line = append(line, " more controls executed inside this sequence are not listed)\n"...)
			_, err := bw.Write(line)
			return err
		}
		line = appendPadded(line, d.Off, 13)
		line = appendPadded(line, d.Len, 9)
		line = append(line, "  "...)
		line = append(line, d.Name.s...)
		for k := d.Name.Width(); k < 20; k++ {
			line = append(line, ' ')
		}
		line = append(line, "  "...)
		line = append(line, d.Text.s...)
		if d.Count > 1 {
			line = append(line, "; "...)
			line = appendCount(line, d.Count)
			line = append(line, " in a row"...)
		}
		line = append(line, '\n')
		_, err := bw.Write(line)
		return err
	}, page)
	if err != nil {
		return err
	}
	return bw.Flush()
}

// eachDescription calls fn for each Description of the stream src
// yields, and page (when not nil) after each page is decoded.
func eachDescription(src pageSource, o StreamOptions, fn func(d *Description) error, page func() error) error {
	var err error
	var d Description
	report := func(t *decode.Token, n int64) {
		if err == nil {
			d = Description{Off: t.Off, Len: t.Len * n, Count: n, Name: Line([]byte(chipName(t))), Text: Describe(t)}
			err = fn(&d)
		}
	}
	var run decode.Token // a run of identical one-byte controls
	var runN int64
	flush := func() {
		if runN > 0 {
			report(&run, runN)
			runN = 0
		}
	}
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
		report(t, 1)
		for i := range pending {
			report(&pending[i], 1)
		}
		if unlisted > 0 && err == nil {
			d = Description{Off: t.Off, Unlisted: unlisted}
			err = fn(&d)
		}
		pending, unlisted = pending[:0], 0
	}
	dec := decoderFor(o.Policy)
	for {
		p, last, rerr := src.next(pageSize)
		if rerr != nil {
			return rerr
		}
		dec.Feed(p, emit)
		if err != nil {
			return err
		}
		if rerr := src.done(dec.Offset()); rerr != nil { // nothing is read again
			return rerr
		}
		if page != nil {
			if err := page(); err != nil {
				return err
			}
		}
		if last || len(p) == 0 {
			break
		}
	}
	dec.End(emit)
	flush()
	return err
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

// DescribeSchema is the version of the JSON Lines of bytelens glyphs
// --describe --json (docs/json.md).
const DescribeSchema = "bytelens.describe/v1"

// DescribeLine is one line of bytelens glyphs --describe --json: a
// Description with its schema and stream, the names already escaped.
type DescribeLine struct {
	Schema      string `json:"schema"`
	Stream      Safe   `json:"stream"`
	Offset      int64  `json:"offset"`
	Length      int64  `json:"length,omitempty"`
	Count       int64  `json:"count,omitempty"`
	Name        Safe   `json:"name,omitzero"`
	Description Safe   `json:"description,omitzero"`
	// Unlisted counts controls executed inside the sequence at Offset
	// that are not listed; such a line has no length, name or description.
	Unlisted int64 `json:"unlisted,omitempty"`
}

// JSONLine returns d as a line of JSON Lines for the stream named
// stream, which it escapes as Line does (LF as ␊, as the other JSON outputs give a stream name).
func (d *Description) JSONLine(stream string) DescribeLine {
	return DescribeLine{
		Schema: DescribeSchema, Stream: LineString(stream), Offset: d.Off, Length: d.Len, Count: d.Count,
		Name: d.Name, Description: d.Text, Unlisted: d.Unlisted,
	}
}
