package sanitize

import "bytes"

// The carry of a short Write (carry9, session 9; BENCHMARKS.md). A
// Write of fewer than minScanPiece bytes that holds an ESC and begins
// between tokens is fed to the cleaner (Feed and the token policy) from
// the Writer's own buffer, after the bytes carried from the Write before:
// the bytes of an escape, CSI or string still open at its end, at most
// carryMax of them, with no control embedded in it, are not kept in the
// decoder (which is rewound to where the token begins, decode.Rewind)
// but at the front of that buffer, and the next Write's bytes are
// appended to them. Its tokens then begin in the chunk, so that the
// policy reads their bytes from it (each, span) instead of joining the
// history and the chunk, and nothing is kept in the history. Those bytes
// write nothing until their token ends, so holding them changes no
// output. A Write of minScanPiece bytes or more, Frame and Close feed the
// carried bytes first (release).

// carryMax is the most bytes a Writer carries: a short sequence (the memo
// takes up to maxMemo bytes) and the start of a string; a longer token
// goes on in the decoder (Extend).
const carryMax = 32

// carries reports whether the short Write p is fed from the carry buffer:
// bytes are carried, or p holds an ESC and the cleaner's decoder is
// between tokens, with the path chosen per piece, no screen and no line
// emulation.
func (w *Writer) carries(p []byte) bool {
	c := w.c
	if len(p) >= minScanPiece || c.path != pathAuto || c.scr != nil || c.lineMode {
		return false
	}
	return w.carryN > 0 || c.inGround() && bytes.IndexByte(p, 0x1B) >= 0
}

// carryFeed feeds the carried bytes and p, a short Write (carries), and
// carries the bytes of the token they leave open when it begins with
// ESC, is at most carryMax bytes and has no control embedded in it.
func (w *Writer) carryFeed(p []byte) {
	c := w.c
	if w.buf == nil {
		w.buf = make([]byte, carryMax+minScanPiece)
	}
	held := w.carryN
	n := held + copy(w.buf[held:], p)
	buf := w.buf[:n]
	w.carryN = 0
	c.feed(buf)
	c.rep.BytesIn -= int64(held) // counted by the Write that brought them
	if c.scanning || c.dec.InText() {
		return
	}
	k := len(buf) - int(c.dec.Offset()-c.at)
	if k < 0 || k >= len(buf) || len(buf)-k > carryMax || buf[k] != 0x1B || hasControl(buf[k+1:]) {
		return
	}
	c.dec.Rewind(c.at)
	c.hist = c.hist[:0]
	w.carryN = copy(w.buf, buf[k:])
}

// hasControl reports whether b holds a C0 control, which Feed executes
// inside an escape or CSI (an embedded token, already cleaned).
func hasControl(b []byte) bool {
	for _, x := range b {
		if x < 0x20 {
			return true
		}
	}
	return false
}

// release feeds the carried bytes to the cleaner as the Write that
// brought them would have without the carry (they were counted then).
func (w *Writer) release() {
	if w.carryN > 0 {
		n := w.carryN
		w.carryN = 0
		w.c.feed(w.buf[:n])
		w.c.rep.BytesIn -= int64(n)
	}
}
