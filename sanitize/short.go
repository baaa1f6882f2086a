package sanitize

import (
	"sync"

	"github.com/bytelens/bytelens/decode"
)

// The package-level functions (Bytes, String, Map) clean one input each,
// most of them short (a file name, an argv word, an error message:
// capture.CleanField on each manifest field). A cleaner is about 22 KB
// (its report's counters and the memo), which a short input would spend
// most of its time allocating, zeroing and collecting; so text that needs
// no cleaner is answered without one (asIs), and the rest borrow a
// cleaner from a pool.

// cleaners holds cleaners cleared by release, for getCleaner.
var cleaners = sync.Pool{New: func() any { return new(cleaner) }}

// getCleaner returns a cleaner for a stream under o, as newCleaner would
// make it, from the pool. The caller gives it back with release once
// nothing it returns refers to the cleaner's memory.
func getCleaner(o Options) *cleaner {
	c := cleaners.Get().(*cleaner)
	c.init(o)
	return c
}

// release clears c and puts it in the pool.
func (c *cleaner) release() {
	c.clear()
	cleaners.Put(c)
}

// clear makes c the zero cleaner but for the method values bound to it
// (init): no byte, count or buffer of one stream is left for the next,
// and a pooled cleaner holds no memory that a caller was given (out, the
// offset map, the screen).
func (c *cleaner) clear() {
	each, shadow := c.tokenFn, c.shadowFn
	*c = cleaner{}
	c.tokenFn, c.shadowFn = each, shadow
}

// maxAsIs is the longest input, in bytes, that asIs tests: past it the
// test could cost, on text that fails late, as much as the cleaning it
// would spare.
const maxAsIs = 4 << 10

// asIsOptions reports whether, under o, text that decode.TextPrefix takes
// whole (printable ASCII, TAB, LF, and 2- and 3-byte characters that are
// neither C1 controls, format characters, line separators nor non-ASCII
// blanks) comes out as it stands with nothing in the report but its
// length: no screen (CRScreen redraws lines), no line emulation
// (BSOverstrike) and no format escapes (FormatEscape spells out a '<').
// FuzzAsIs holds this against the cleaner under every option.
func asIsOptions(o Options) bool {
	return o.CR != CRScreen && o.BS != BSOverstrike && o.FormatChars != FormatEscape
}

// asIs reports whether Bytes(p, o) is p as it stands with asIsReport.
func asIs(p []byte, o Options) bool {
	return len(p) <= maxAsIs && asIsOptions(o) && decode.TextPrefix(p) == len(p)
}

// stringAsIs is asIs for a string, read through a buffer on the stack:
// a short string that needs no cleaning is not copied to the heap.
func stringAsIs(s string, o Options) bool {
	if len(s) > maxAsIs || !asIsOptions(o) {
		return false
	}
	var buf [256]byte
	for i := 0; i < len(s); {
		n := copy(buf[:], s[i:])
		k := decode.TextPrefix(buf[:n])
		// k < n: a byte that is not plain text at k, or a character cut
		// by the end of buf, which the next pass begins with.
		if k == 0 || k < n && i+n == len(s) {
			return false
		}
		i += k
	}
	return true
}

// asIsReport is the report of n bytes of text that came out as they
// stand under o: what snapshot gives for it (empty maps and findings,
// not nil).
func asIsReport(o Options, n int) Report {
	return Report{
		Schema: Schema, Policy: policyOf(o),
		BytesIn: int64(n), BytesOut: int64(n),
		OSCCommands: map[int32]int64{}, CSIFinals: map[string]int64{}, Findings: []Finding{},
	}
}

// cleanBytes is Bytes on a pooled cleaner.
func cleanBytes(p []byte, opts Options) ([]byte, Report) {
	c := getCleaner(opts)
	c.out = make([]byte, 0, len(p))
	c.feed(p)
	c.end()
	out, rep := c.out, c.rep.snapshot()
	c.release()
	return out, rep
}
