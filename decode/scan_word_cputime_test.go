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

// TestScanWordCPUTime measures, in thread CPU time with the rows of each
// input interleaved round by round (TestScanCPUTime), Scan with its word
// path, Scan stepping every CSI through the table (stepCSI) and
// charmbracelet/x/ansi.Strip, on the inputs of internal/benchinput: the
// comparison in one run that decided to keep the word path
// (BENCHMARKS.md, csiword). Run with BYTELENS_CPUTIME=1 or a list of
// inputs.
func TestScanWordCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | Scan | Scan, CSI stepped | ansi.Strip | Scan ÷ Strip | stepped ÷ Strip | Scan ÷ stepped |\n|---|---:|---:|---:|---:|---:|---:|\n")
	recs := make([]Record, 1024)
	for _, in := range benchinput.Inputs(filepath.Join("..", "sanitize", "testdata", "bench")) {
		if !benchinput.Wanted(in.Name) {
			continue
		}
		word, stepped := Decoder{}, Decoder{stepCSI: true}
		scan := func(d *Decoder) func() {
			return func() {
				for p := in.Data; len(p) > 0; {
					m, _ := d.Scan(p, recs)
					p = p[m:]
				}
			}
		}
		rows := []func(){scan(&word), scan(&stepped), func() { _ = ansi.Strip(string(in.Data)) }}
		med := benchinput.Medians(rows, len(in.Data), rounds, minCPU)
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.0f | **%.2f×** | %.2f× | %.2f |\n",
			in.Name, med[0], med[1], med[2], med[0]/med[2], med[1]/med[2], med[0]/med[1])
	}
	t.Log("\n" + out.String())
}
