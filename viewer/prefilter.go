package viewer

import (
	"bytes"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// prefilter tells, from the raw bytes of a piece alone, that its cleaned
// text cannot hold a query, so the text search need not clean it. Under
// a policy that only copies and removes (no CR emulation, no escaped or
// appended text), every byte of cleaned text but an LF or a U+FFFD was
// copied from the input; so a match whose input holds no removed byte
// is in the raw bytes as it is, and one that does has a removed token
// start right after text that is a proper prefix of the query. A piece
// with neither is skipped. Queries with LF or U+FFFD, and the other
// policies, clean every piece.
type prefilter struct {
	q    []byte
	fold bool
	off  bool // every piece may match
	// class[b] has bit startsRemoved when b can begin removed input and
	// bit endsPrefix when b ends a proper prefix of q.
	class [256]uint8
	buf   []byte // the piece in lower case, reused
	// ends[b] lists the lengths k of the proper prefixes q[:k] that end
	// in b.
	ends [256][]int
	// printable is set when every proper prefix of q ends in printable
	// ASCII.
	printable bool
}

// Bits of prefilter.class.
const (
	startsRemoved = 1 << iota
	endsPrefix
)

// removedStart marks the bytes that can begin input the sanitizer
// removes: C0 but TAB and LF, DEL, raw C1, and the lead bytes of UTF-8
// C1 (C2) and of the format characters it strips (E1, E2, EF, F3).
var removedStart = func() (t [256]bool) {
	for b := range 256 {
		t[b] = b < 0x20 && b != '\t' && b != '\n' || b == 0x7F || b >= 0x80 && b <= 0x9F ||
			b == 0xC2 || b == 0xE1 || b == 0xE2 || b == 0xEF || b == 0xF3
	}
	return t
}()

// newPrefilter returns the prefilter for q (in lower case when fold)
// under opts.
func newPrefilter(q []byte, fold bool, opts sanitize.Options) prefilter {
	p := prefilter{q: q, fold: fold}
	p.off = opts.CR != sanitize.CRLines || opts.BS != sanitize.BSDrop || opts.FormatChars == sanitize.FormatEscape ||
		opts.Links != sanitize.LinksDrop || bytes.ContainsAny(q, "\n\uFFFD") || len(q) == 0
	for b := range 256 {
		if removedStart[b] {
			p.class[b] |= startsRemoved
		}
	}
	p.printable = true
	for k := 1; k < len(q); k++ {
		p.class[q[k-1]] |= endsPrefix
		p.ends[q[k-1]] = append(p.ends[q[k-1]], k)
		p.printable = p.printable && q[k-1] >= 0x20 && q[k-1] < 0x7F
	}
	return p
}

// mayMatch reports whether the cleaned text of raw may hold the query.
// It looks at each byte once, through one table.
func (p *prefilter) mayMatch(raw []byte) bool {
	if p.off {
		return true
	}
	if p.fold {
		p.buf = appendLower(p.buf[:0], raw)
		raw = p.buf
	}
	if bytes.Contains(raw, p.q) {
		return true
	}
	if len(raw) == 0 {
		return false
	}
	// Every byte that can begin removed input is outside printable
	// ASCII: the scan skips printable runs a word at a time and looks
	// only at the bytes that end them; when the query's proper prefixes
	// end in printable ASCII, only the first byte of each run can follow
	// one, and the rest of the run is stepped over.
	for i := decode.NextNonPrintable(raw, 1); i < len(raw); i = decode.NextNonPrintable(raw, i) {
		if p.class[raw[i]]&startsRemoved != 0 && p.class[raw[i-1]]&endsPrefix != 0 && p.prefixBefore(raw, i) {
			return true
		}
		i++
		for p.printable && i < len(raw) && (raw[i] < 0x20 || raw[i] >= 0x7F) {
			i++
		}
	}
	return false
}

// prefixBefore reports whether raw[:i] ends with a proper prefix of q,
// trying only the prefix lengths whose last byte is raw[i-1].
func (p *prefilter) prefixBefore(raw []byte, i int) bool {
	for _, k := range p.ends[raw[i-1]] {
		if k <= i && bytes.Equal(raw[i-k:i], p.q[:k]) {
			return true
		}
	}
	return false
}

// groundAfter returns the first checkpoint at or after off whose decoder
// is in ground, and the decoder; -1 when the index has none there yet.
func (x *index) groundAfter(off int64) (int64, decode.Decoder) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for b := (off + checkpointEvery - 1) / checkpointEvery; b < int64(len(x.cps)); b++ {
		if x.cps[b].InGround() {
			return b * checkpointEvery, x.cps[b]
		}
	}
	return -1, decode.Decoder{}
}
