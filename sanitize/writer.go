package sanitize

import (
	"errors"
	"io"
	"sort"

	"github.com/bytelens/bytelens/decode"

	"golang.org/x/text/transform"
)

// Writer is a streaming sanitizer: bytes written to it are cleaned and
// written to the underlying writer. State carries across writes, so a
// sequence or a UTF-8 character split between two writes is handled as
// if it came whole. Close ends the stream, writes what is still held and
// completes the report.
type Writer struct {
	w      io.Writer
	c      *cleaner
	err    error
	closed bool
	// way is the quick way a short Write (under minScanPiece bytes) is
	// first tried by, chosen after each Write that feeds the cleaner
	// (feed) from what the quick ways do not change: wayText when the
	// decoder is in ground or utf8 and nothing pending needs the policy
	// (cleaner.plain), wayExtend when a sequence or string is open and
	// wayLong when it is also too long for the history (histLen, which
	// is then empty and stays so while Extend takes its bytes), all only
	// with no error, not closed, the path chosen per piece (pathAuto), no
	// screen, not scanning.
	way way
}

// way is a quick way of Writer.Write.
type way uint8

const (
	wayFeed   way = iota // none: the cleaner feeds every Write
	wayText              // decode.Decoder.TakeWord, cleaner.quickText
	wayExtend            // decode.Decoder.Extend, cleaner.extended
	wayLong              // decode.Decoder.Extend, the history empty
)

// NewWriter returns a Writer that writes the cleaned text of its input to
// w under the policies of opts.
func NewWriter(w io.Writer, opts Options) *Writer {
	return &Writer{w: w, c: newCleaner(opts)}
}

// Write cleans p. It returns len(p), nil unless the underlying writer
// failed, in which case that error is returned now and by every later call.
// The cleaned text of p is written to the underlying writer, in one Write
// when there is any, before Write returns.
//
// A short p is first tried whole (way): 4 to 8 bytes of printable ASCII
// in ground (decode.Decoder.TakeWord) and other text (cleaner.quickText)
// are written as they stand, from p when they came whole in ground, and
// one that holds an ESC (decode.HoldsESC) goes to the cleaner at once;
// bytes that only extend the token open (decode.Decoder.ExtendWord, then
// Extend) write nothing.
func (w *Writer) Write(p []byte) (int, error) {
	c := w.c
	var text []byte
	switch w.way {
	case wayText:
		if c.dec.TakeWord(p) {
			c.tookWord(p)
			text = p
			break
		}
		var ok bool
		if len(p) >= minScanPiece || decode.HoldsESC(p) {
			return w.feed(p)
		}
		if text, ok = c.quickText(p); !ok {
			return w.feed(p)
		}
	case wayExtend, wayLong:
		if !c.dec.ExtendWord(p) && (len(p) >= minScanPiece || !c.dec.Extend(p)) {
			return w.feed(p)
		}
		c.dec.TakeTextBlanks() // fed is len(p), and no blank
		c.rep.BytesIn += int64(len(p))
		c.base = c.dec.Offset() - int64(len(p))
		if w.way == wayExtend {
			w.way = c.extended(p)
		}
		return len(p), nil
	default:
		return w.feed(p)
	}
	// As drain, for text that may not be out.
	if len(text) > 0 {
		if _, err := w.w.Write(text); err != nil {
			c.flushed += int64(len(text))
			return 0, w.fail(err)
		}
		c.flushed += int64(len(text))
	}
	return len(p), nil
}

// feed is Write for a p that the quick ways do not take: the cleaner
// feeds it, and way is chosen for the next Write.
func (w *Writer) feed(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errors.New("sanitize: write after close")
	}
	c := w.c
	c.feed(p)
	if err := w.drain(); err != nil {
		return 0, err
	}
	switch {
	case c.path != pathAuto || c.scr != nil || c.scanning:
		w.way = wayFeed
	case !c.dec.InText():
		w.way = c.extendWay()
	case c.plain():
		w.way = wayText
	default:
		w.way = wayFeed
	}
	return len(p), nil
}

// Close ends the stream: an open sequence or string is reported
// unterminated, a held line is written. It does not close the underlying
// writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed, w.way = true, wayFeed
	w.c.end()
	return w.drain()
}

// Frame marks a frame or chunk boundary at the current offset: the next
// byte written starts a new frame. A sequence or string that straddles a
// boundary is decoded whole and counted in Anomalies.Split.
func (w *Writer) Frame() { w.c.frame = w.c.dec.Offset() }

// InGround reports whether the bytes written so far end outside any
// control sequence, control string or UTF-8 sequence: the next byte
// written begins a new token.
func (w *Writer) InGround() bool { return w.c.inGround() }

// Settled reports whether nothing written so far waits on the bytes that
// follow: the Writer is in ground (InGround), no run of CRs waits to know
// whether text overwrites it, and no format character waits on the
// character after it. A caller that cleans a piece of a stream for its
// findings can stop at a settled point and know that the findings before
// it are final.
func (w *Writer) Settled() bool {
	return w.c.inGround() && w.c.crRun == 0 && !w.c.fmt.pending()
}

// Report returns the removal report so far; after Close it is complete.
func (w *Writer) Report() Report {
	r := w.c.rep.snapshot()
	r.BytesOut = w.c.outPos()
	return r
}

// drain writes out to the underlying writer, unless it is empty or the
// writer failed before (fail), and empties it.
func (w *Writer) drain() error {
	c := w.c
	if len(c.out) > 0 && w.err == nil {
		if _, err := w.w.Write(c.out); err != nil {
			w.fail(err)
		}
	}
	c.drained()
	return w.err
}

// fail keeps err, the underlying writer's, and returns it: it sticks to
// every later Write and Close, which take no quick way.
func (w *Writer) fail(err error) error {
	w.err, w.way = err, wayFeed
	return err
}

// Bytes cleans p as a whole stream and returns the cleaned text and the
// report.
func Bytes(p []byte, opts Options) ([]byte, Report) {
	if asIs(p, opts) {
		return append(make([]byte, 0, len(p)), p...), asIsReport(opts, len(p))
	}
	return cleanBytes(p, opts)
}

// String is Bytes for strings. A string that comes out as it stands is
// returned itself, not a copy.
func String(s string, opts Options) (string, Report) {
	if stringAsIs(s, opts) {
		return s, asIsReport(opts, len(s))
	}
	b, r := cleanBytes([]byte(s), opts)
	return string(b), r
}

// Text is String without the report, for callers that keep only the
// cleaned text (capture.CleanField on each manifest field): text that
// comes out as it stands is returned without an allocation.
func Text(s string, opts Options) string {
	if stringAsIs(s, opts) {
		return s
	}
	b, _ := cleanBytes([]byte(s), opts)
	return string(b)
}

// Map cleans p like Bytes and also returns the offset map between p and
// the cleaned text.
func Map(p []byte, opts Options) ([]byte, Report, *OffsetMap) {
	c := getCleaner(opts)
	c.m, c.mapEach = &OffsetMap{}, !c.lineMode
	c.mapScreen()
	c.m.add(0, 0)
	c.out = make([]byte, 0, len(p))
	c.feed(p)
	c.end()
	c.m.add(int64(len(p)), int64(len(c.out)))
	out, rep, m := c.out, c.rep.snapshot(), c.m
	c.release()
	return out, rep, m
}

// OffsetMap relates input byte offsets to cleaned-text byte offsets. It is
// a list of points (In, Out), one where each token begins (where a line
// begins under BSOverstrike), increasing in both: the input from one point
// to the next became the output from one point to the next.
//
// Under CRScreen the points are only the two ends of the stream: lines
// come out in the screen's order, not the input's. ToInput and ToOutput
// then use the screen's cells, each of which knows the bytes that drew
// it: a character maps to those bytes (one to one for text copied as it
// is). Input that shows nothing at the end (controls, line feeds, text
// overwritten, erased, concealed or scrolled away) belongs to the text
// drawn by the input just before it: it maps to an empty span where that
// text ends, after its line feed when its line ends there. A blank or a
// line feed of the output maps to the input of its line: from the first
// byte that drew a character shown on it up to the first byte after the
// last one that draws a character shown.
type OffsetMap struct {
	In, Out []int64
	scr     *screenMap // CRScreen's map, else nil
}

func (m *OffsetMap) add(in, out int64) {
	n := len(m.In)
	if n > 0 && m.In[n-1] == in {
		m.Out[n-1] = out
		return
	}
	m.In = append(m.In, in)
	m.Out = append(m.Out, out)
}

// inserted records n output bytes written at output offset out for the
// input at offset in, after points for later input had been added at out:
// a run of CRs becomes its LF only when the token after it arrives. Those
// points move past the n bytes, so the CRs map to the LF and the text
// after them maps byte for byte.
func (m *OffsetMap) inserted(in, out, n int64) {
	for i := len(m.In) - 1; i >= 0 && m.In[i] > in && m.Out[i] == out; i-- {
		m.Out[i] += n
	}
}

// segment returns the index of the last point at or before x in xs.
func segment(xs []int64, x int64) int {
	return sort.Search(len(xs), func(i int) bool { return xs[i] > x }) - 1
}

// ToOutput returns the output span [start, end) that the input byte at
// offset in became part of; start == end when it was removed.
func (m *OffsetMap) ToOutput(in int64) (start, end int64) {
	if m.scr != nil {
		return m.scr.toOutput(in)
	}
	i := segment(m.In, in)
	if i < 0 || i+1 >= len(m.In) {
		return 0, 0
	}
	start, end = m.Out[i], m.Out[i+1]
	// Text copied byte for byte maps one to one.
	if end-start == m.In[i+1]-m.In[i] && end > start {
		start += in - m.In[i]
		return start, start + 1
	}
	return start, end
}

// ToInput returns the input span [start, end) that produced the output
// byte at offset out.
func (m *OffsetMap) ToInput(out int64) (start, end int64) {
	if m.scr != nil {
		return m.scr.toInput(out)
	}
	// The last point whose output starts at or before out and is not empty.
	i := segment(m.Out, out)
	for i >= 0 && i+1 < len(m.Out) && m.Out[i+1] == m.Out[i] {
		i--
	}
	for i+1 < len(m.Out) && m.Out[i+1] <= out {
		i++
	}
	if i < 0 || i+1 >= len(m.In) {
		return 0, 0
	}
	start, end = m.In[i], m.In[i+1]
	if end-start == m.Out[i+1]-m.Out[i] {
		start += out - m.Out[i]
		return start, start + 1
	}
	return start, end
}

// Transformer is a transform.Transformer that cleans its input under fixed
// options, for integrators of golang.org/x/text/transform
// (transform.NewReader, transform.NewWriter). It is stateful: Reset starts
// a new stream.
type Transformer struct {
	opts    Options
	c       *cleaner
	pending []byte
	ended   bool
}

// NewTransformer returns a Transformer with opts.
func NewTransformer(opts Options) *Transformer {
	return &Transformer{opts: opts, c: newCleaner(opts)}
}

// Reset starts a new stream and a new report.
func (t *Transformer) Reset() {
	t.c, t.pending, t.ended = newCleaner(t.opts), t.pending[:0], false
}

// Report returns the report of the current stream so far.
func (t *Transformer) Report() Report { return t.c.rep.snapshot() }

// Transform implements transform.Transformer. It writes first the output
// held from the call before; once none is held it consumes all of src,
// holding output that does not fit in dst for the next call
// (transform.ErrShortDst, src consumed or not). A nil error means all of
// src was consumed, as the interface requires.
func (t *Transformer) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nDst = t.flush(dst)
	if len(t.pending) == 0 && !t.ended {
		c := t.c
		c.feed(src)
		nSrc = len(src)
		if atEOF {
			c.end()
			t.ended = true
		}
		t.pending = append(t.pending, c.out...)
		c.drained()
		nDst += t.flush(dst[nDst:])
	}
	if len(t.pending) > 0 {
		return nDst, nSrc, transform.ErrShortDst
	}
	return nDst, nSrc, nil
}

// flush copies the held output that fits into dst and returns how many
// bytes it copied.
func (t *Transformer) flush(dst []byte) int {
	n := copy(dst, t.pending)
	t.pending = t.pending[:copy(t.pending, t.pending[n:])]
	return n
}
