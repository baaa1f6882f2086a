//go:build linux

package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/internal/benchinput"
	"github.com/charmbracelet/x/ansi"
)

// TestScanCPUTime measures, in thread CPU time with the rows of each input
// interleaved round by round (as sanitize's TestCPUTime), Scan into a
// batch of 1024 records, Scan with a pass over the records counting them
// per kind, Feed with an empty callback, and charmbracelet/x/ansi.Strip,
// on the inputs of internal/benchinput. It prints a Markdown table of
// medians (MB of input per CPU second) and ratios. Run with
// BYTELENS_CPUTIME=1, or BYTELENS_CPUTIME=dense,plain to measure only
// those inputs (see BENCHMARKS.md).
func TestScanCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | Scan | Scan + count | Feed | ansi.Strip | Scan ÷ Strip | Scan + count ÷ Strip | Feed ÷ Strip | Scan ÷ Feed |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	recs := make([]Record, 1024)
	var counts [numKinds]int
	for _, in := range benchinput.Inputs(filepath.Join("..", "sanitize", "testdata", "bench")) {
		if !benchinput.Wanted(in.Name) {
			continue
		}
		var scan, count, feed Decoder
		rows := []func(){
			func() {
				for p := in.Data; len(p) > 0; {
					m, _ := scan.Scan(p, recs)
					p = p[m:]
				}
			},
			func() {
				for p := in.Data; len(p) > 0; {
					m, n := count.Scan(p, recs)
					for _, r := range recs[:n] {
						counts[r.Kind()]++
					}
					p = p[m:]
				}
			},
			func() { feed.Feed(in.Data, func(*Token) {}) },
			func() { _ = ansi.Strip(string(in.Data)) },
		}
		med := benchinput.Medians(rows, len(in.Data), rounds, minCPU)
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.0f | %.0f | **%.2f×** | %.2f× | %.2f× | %.2f |\n",
			in.Name, med[0], med[1], med[2], med[3], med[0]/med[3], med[1]/med[3], med[2]/med[3], med[0]/med[2])
	}
	t.Log("\n" + out.String())
}
