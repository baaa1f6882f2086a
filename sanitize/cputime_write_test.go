//go:build linux

package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/internal/benchinput"
)

// TestWriteCPUTime measures the per-Write cost, in thread CPU time with
// the rows of each input interleaved round by round (as TestCPUTime): the
// Writer fed 64 KiB per Write as shipped and with Feed for every byte
// (pathTokens), 7 bytes per Write with Feed for every byte (the cleaner
// before quickText) and 7 bytes per Write as shipped, each 7-byte row the
// mean of two rows' medians. It prints a Markdown table of medians (MB of input per CPU
// second) and the per-byte cost of 7-byte Writes as a multiple of that of
// 64 KiB Writes, which issue 12 wants at most 2. Run with
// BYTELENS_CPUTIME=1 (see BENCHMARKS.md).
func TestWriteCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | Writer 64 KiB | Writer 64 KiB tokens | Writer 7 B tokens | Writer 7 B | 7 B ÷ 7 B tokens | 7 B tokens: cost per byte ÷ 64 KiB's | 7 B: cost per byte ÷ 64 KiB's |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, in := range benchInputs() {
		if !benchinput.Wanted(in.name) {
			continue
		}
		writer := func(size int, path pathChoice) func() {
			w := NewWriter(discard{}, Options{})
			w.c.path = path
			return func() {
				for p := in.data; len(p) > 0; {
					n := min(size, len(p))
					w.Write(p[:n])
					p = p[n:]
				}
			}
		}
		// The two 7-byte rows run twice, in the order A B B A: a row
		// measured just after the same code runs faster, and the order
		// cancels that.
		rows := []func(){writer(64<<10, pathAuto), writer(64<<10, pathTokens), writer(7, pathTokens), writer(7, pathAuto), writer(7, pathAuto), writer(7, pathTokens)}
		m := benchinput.Medians(rows, len(in.data), rounds, minCPU)
		tok, quick := (m[2]+m[5])/2, (m[3]+m[4])/2
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.0f | %.0f | %.2f× | %.2f | **%.2f** |\n",
			in.name, m[0], m[1], tok, quick, quick/tok, m[0]/tok, m[0]/quick)
	}
	t.Log("\n" + out.String())
}
