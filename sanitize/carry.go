package sanitize

import (
	"encoding/binary"
	"math"

	"github.com/bytelens/bytelens/decode"
)

// The carry of a short Write. A Write of fewer than minScanPiece bytes
// that begins between tokens is cleaned on the record path (Scan and the
// policy over records) in the Writer's own buffer; the bytes of a token
// still open at its end, at most carryMax of them (an escape or CSI that
// the Write cut, the start of a short string, a cut UTF-8 character), are
// not fed to the decoder but kept at the front of that buffer (carried),
// and the next short Write's bytes are appended to them: its tokens then
// begin in the chunk, where the policy's quick loop (quickRecords) and the
// memo's quick slots take them whole, instead of Feed resuming a token
// and the policy reading it back from the history (each, span). Those
// bytes write nothing until their token ends, so holding them changes no
// output, and the decoder rewound to where the token begins (Rewind) is
// between tokens, where the cleaner may switch paths. A token with a
// control embedded in it (which Scan has written out), or longer than
// carryMax, stays in the decoder as before; a Write of minScanPiece bytes
// or more, Frame and Close feed the carried bytes first (release).

// carryMax is the most bytes a Writer carries: a short sequence (the memo
// takes up to maxMemo bytes) and the start of a string; a longer token
// goes on in the decoder (Extend), which is cheaper per Write than
// scanning it again.
const carryMax = 32

// carryBuf is the length of the carry buffer: the carried bytes, a short
// Write, and maxMemo bytes of room past them that quickRecords' 16-byte
// loads may read (the chunk's capacity).
const carryBuf = carryMax + minScanPiece + maxMemo

// carries reports whether the short Write p may be cleaned in the carry
// buffer: p is short, the cleaner may take the record path for it (the
// Writer has no screen, line emulation or offset map and chooses the path
// per piece) and its decoder is between tokens.
func (w *Writer) carries(p []byte) bool {
	c := w.c
	return len(p) < minScanPiece && c.path == pathAuto && c.scr == nil && !c.lineMode && !c.mapEach && c.inGround()
}

// carryFeed cleans the carried bytes and p, a short Write (carries), on
// the record path, and carries the bytes of the token they leave open
// when it is an escape, CSI or string of at most carryMax bytes with no
// control embedded in it. Any other token left open (a UTF-8 character,
// a longer or embedding one) is fed again from where it begins, so that
// the decoder is in the state Feed leaves (a Decoder is driven by Feed or
// Scan, and the cleaner's short Writes go on with Feed): the controls
// embedded in it were cleaned as records, and Feed's tokens for them are
// dropped. The cleaner is off the record path after it.
func (w *Writer) carryFeed(p []byte) {
	c := w.c
	if w.buf == nil {
		w.buf = make([]byte, carryBuf)
	}
	n := w.carryN + copy(w.buf[w.carryN:], p)
	buf := w.buf[:n]
	if !c.scanning {
		c.next, c.shFrom = c.dec.Offset(), math.MaxInt64
		if c.recs == nil {
			c.recs = new([batchRecords]decode.Record)
		}
		c.scanning = true
	}
	c.base = c.dec.Offset()
	held := len(c.out)
	c.chunk = buf
	var last decode.Record
	for q := buf; len(q) > 0; {
		k, m := c.dec.Scan(q, c.recs[:batchRecords-1])
		q = q[k:]
		if m > 0 {
			last = c.recs[m-1]
		}
		c.records(m)
	}
	w.hits = true // applied by Report and Close (settle)
	c.rep.Kept.NonASCIIBlanks += c.carryBlanks(held)
	c.rep.BytesIn += int64(len(p))
	c.scanning = false
	k := int(c.next - c.base)
	w.carryN = 0
	if k == n {
		c.keepHistory(buf)
		c.chunk = nil
		return
	}
	c.dec.Rewind(c.next)
	embedded := last.Flags()&decode.FlagEmbedded != 0 && last.EndNear(c.base) > c.next
	if n-k <= carryMax && !embedded && buf[k] == 0x1B {
		c.keepHistory(buf[:k]) // the character before the next token; nothing open
		w.carryN = copy(w.buf, buf[k:])
	} else {
		c.dec.Feed(buf[k:], dropToken)
		c.dec.TakeTextBlanks() // counted by carryBlanks
		c.keepHistory(buf)
	}
	c.chunk = nil
}

// dropToken is the emit of carryFeed's Feed of a token left open: the
// tokens it emits are the controls embedded in it, cleaned as records.
func dropToken(*decode.Token) {}

// carryBlanks is keptBlanks after carryFeed's Scan, which does not count
// them: the cleaned text of a short Write most often holds no byte that
// begins a blank (blankLeads), which words of 8 bytes tell (the last one
// masked to the text's end; out's capacity holds them) before the text
// is counted.
func (c *cleaner) carryBlanks(held int) int64 {
	c.dec.TakeTextBlanks()
	b := c.out[held:]
	if room := c.out[held:cap(c.out)]; len(room) >= len(b)+8 {
		i := 0
		for ; i < len(b); i += 8 {
			x := binary.LittleEndian.Uint64(room[i:])
			if k := len(b) - i; k < 8 {
				x &= 1<<(8*k) - 1
			}
			if blankLeads(x) {
				break
			}
		}
		if i >= len(b) {
			return 0
		}
	}
	return countBlanks(b)
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

// settle applies the memo's hits counted in bulk by carryFeed
// (settleHits), which feed's pieces on the record path apply at their
// end: until then they only wait in their slots, which keep applies
// before it reuses one.
func (w *Writer) settle() {
	if w.hits {
		w.c.settleHits()
		w.hits = false
	}
}
