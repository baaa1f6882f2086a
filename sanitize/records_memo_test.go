package sanitize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// TestQuickSlots: quickRecords counts the recall of a remembered CSI in
// the CSI's quick slot, in the first of its two slots or, when another
// sequence holds that one, in the second; it leaves to record a CSI the
// memo does not hold, and one whose classes a finding names (an erase)
// while findings are listed, and takes that one too once they are not.
func TestQuickSlots(t *testing.T) {
	const sgr = "\x1b[1;31m"
	// other is an SGR whose first slot is sgr's: kept after sgr, it is in
	// its second slot.
	other := ""
	for n := 0; other == ""; n++ {
		s := fmt.Sprintf("\x1b[%dm", n)
		if i, _ := wordOf([]byte(s)).slots(); s != sgr && i == first(sgr) {
			other = s
		}
	}
	for _, tc := range []struct {
		name     string
		keep     []string // remembered, in this order
		seq      string   // one or more of a CSI after text, in the chunk
		full     bool     // findings full before
		wantHits int64    // quickRecords counts in the CSI's slot
	}{
		{"SGR", []string{sgr}, sgr, false, 1},
		{"SGR after SGR", []string{sgr}, sgr + sgr, false, 2},
		{"SGR in its second slot", []string{sgr, other}, other, false, 1},
		{"SGR in its first slot, the second taken", []string{sgr, other}, sgr, false, 1},
		{"SGR not remembered", []string{sgr}, "\x1b[1;32m", false, 0},
		{"erase, findings listed", []string{"\x1b[2J"}, "\x1b[2J", false, 0},
		{"erase, findings full", []string{"\x1b[2J"}, "\x1b[2J", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCleaner(Options{})
			final := tc.seq[len(tc.seq)-1:]
			nSeq := strings.Count(tc.seq, "\x1b")
			wantFinal := int64(nSeq)
			sgr := tc.seq[:len(tc.seq)/nSeq]
			for _, s := range tc.keep {
				// Fed first, on the token path: the memo keeps a CSI
				// whose key is counted already.
				c.feed([]byte(s))
				for tk := range decode.Tokens([]byte(s)) {
					c.rememberCSI(&tk, []byte(s))
				}
				if strings.HasSuffix(s, final) {
					wantFinal++
				}
			}
			if tc.full {
				c.rep.Findings = make([]Finding, MaxFindings)
			}
			p := []byte("x" + tc.seq + strings.Repeat("y", 20))
			c.base, c.next, c.chunk, c.out = c.dec.Offset(), c.dec.Offset(), p, make([]byte, 0, 64)
			c.scanning, c.recs = true, new([batchRecords]decode.Record)
			k, n := c.dec.Scan(p, c.recs[:batchRecords-1])
			if k != len(p) || n != 2+nSeq {
				t.Fatalf("Scan took %d bytes, %d records; want %d, %d", k, n, len(p), 2+nSeq)
			}
			c.records(n)
			w := wordOf([]byte(sgr))
			var hits int64
			for _, q := range c.memo.quick {
				hits += q.hits
			}
			i, j := w.slots()
			var in int64
			if q := c.memo.quick; q[i].key == w {
				in = q[i].hits
			} else if q[j].key == w {
				in = q[j].hits
			}
			if in != tc.wantHits || hits != tc.wantHits {
				t.Errorf("hits in its slot %d, in all %d; want %d", in, hits, tc.wantHits)
			}
			if got := string(c.out); got != "x"+strings.Repeat("y", 20) {
				t.Errorf("text %q", got)
			}
			c.settleHits()
			if r := c.rep.snapshot(); r.CSIFinals[final] != wantFinal {
				t.Errorf("CSI finals %v, want %d %q", r.CSIFinals, wantFinal, final)
			}
		})
	}
}

// first returns the first of the memo's slots for the bytes of s.
func first(s string) uint8 {
	i, _ := wordOf([]byte(s)).slots()
	return i
}
