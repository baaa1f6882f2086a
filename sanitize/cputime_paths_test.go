//go:build linux

package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/benchinput"
	"github.com/charmbracelet/x/ansi"
)

// TestPathCPUTime compares, in thread CPU time with the rows of each input
// interleaved round by round (as TestCPUTime), the ways the cleaner can
// drive its decoder: Bytes by piece (the default, choosePath), with Scan's
// records throughout, and with Feed's tokens throughout; Scan alone; 7-byte
// Writes by piece and by tokens; and ansi.Strip. It prints a Markdown table
// of medians (MB of input per CPU second) and ratios. Run with
// BYTELENS_CPUTIME=1 (see BENCHMARKS.md).
func TestPathCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | Bytes | Bytes records | Bytes tokens | Scan only | ansi.Strip | Bytes ÷ Strip | records ÷ tokens | Scan ÷ Strip | Writer 7 B | Writer 7 B tokens | 7 B ÷ 7 B tokens |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, in := range benchInputs() {
		if !benchinput.Wanted(in.name) {
			continue
		}
		bytesVia := func(path pathChoice) func() {
			return func() {
				c := newCleaner(Options{})
				c.path = path
				c.out = make([]byte, 0, len(in.data))
				c.feed(in.data)
				c.end()
			}
		}
		recs := make([]decode.Record, batchRecords)
		w7, w7t := NewWriter(discard{}, Options{}), NewWriter(discard{}, Options{})
		w7t.c.path = pathTokens
		write7 := func(w *Writer) func() {
			return func() {
				for p := in.data; len(p) > 0; {
					n := min(7, len(p))
					w.Write(p[:n])
					p = p[n:]
				}
			}
		}
		rows := []func(){
			bytesVia(pathAuto), bytesVia(pathRecords), bytesVia(pathTokens),
			func() {
				var d decode.Decoder
				for q := in.data; len(q) > 0; {
					k, _ := d.Scan(q, recs)
					q = q[k:]
				}
			},
			func() { _ = ansi.Strip(string(in.data)) },
			write7(w7), write7(w7t),
		}
		m := benchinput.Medians(rows, len(in.data), rounds, minCPU)
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | **%.2f×** | %.2f | %.2f× | %.0f | %.0f | %.2f |\n",
			in.name, m[0], m[1], m[2], m[3], m[4], m[0]/m[4], m[1]/m[2], m[3]/m[4], m[5], m[6], m[5]/m[6])
	}
	t.Log("\n" + out.String())
}

// TestPolicyCPUTime measures, in thread CPU time with the rows of each
// input interleaved round by round, what the policy over records costs on
// top of Scan: Bytes (by piece, the default), Scan alone into the
// cleaner's batch size, and ansi.Strip. It prints MB of input per CPU
// second, Bytes÷Strip, Scan÷Strip, and the policy's nanoseconds per record
// (Bytes' time less Scan's, over the records Scan writes). Run with
// BYTELENS_CPUTIME=1 or a list of inputs (see BENCHMARKS.md).
func TestPolicyCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 9, 40 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | records | Bytes | Scan only | ansi.Strip | Bytes ÷ Strip | Scan ÷ Strip | policy ns per record |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, in := range benchInputs() {
		if !benchinput.Wanted(in.name) {
			continue
		}
		recs := make([]decode.Record, batchRecords-1)
		scan := func() (n int) {
			var d decode.Decoder
			for q := in.data; len(q) > 0; {
				k, m := d.Scan(q, recs)
				q, n = q[k:], n+m
			}
			return n
		}
		nrec := scan()
		rows := []func(){
			func() { Bytes(in.data, Options{}) },
			func() { scan() },
			func() { _ = ansi.Strip(string(in.data)) },
		}
		m := benchinput.Medians(rows, len(in.data), rounds, minCPU)
		perRec := (1/m[0] - 1/m[1]) * 1e3 * float64(len(in.data)) / float64(max(nrec, 1)) // µs per MB → ns per record
		fmt.Fprintf(&out, "| %s | %d | %.0f | %.0f | %.0f | **%.2f×** | %.2f× | %.1f |\n",
			in.name, nrec, m[0], m[1], m[2], m[0]/m[2], m[1]/m[2], perRec)
	}
	t.Log("\n" + out.String())
}
