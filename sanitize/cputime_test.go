//go:build linux

package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/benchinput"
	"github.com/charmbracelet/x/ansi"
)

// TestCPUTime measures BenchmarkClean's rows in thread CPU time rather
// than wall time, the rows of each input interleaved round by round, so
// that other work on a shared machine neither stretches one row nor
// drifts between rows. It prints a Markdown table of medians (MB of
// input per CPU second) and ratios. Run with BYTELENS_CPUTIME=1 (see
// BENCHMARKS.md).
func TestCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | sanitize.Bytes | Writer 64 KiB | Writer 7 B | decode only | ansi.Strip | utf8.Valid + copy | Bytes ÷ Strip | Writer ÷ Strip | decode ÷ Strip | Bytes ÷ utf8.Valid+copy | 7 B ÷ 64 KiB per byte |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, in := range benchInputs() {
		if !benchinput.Wanted(in.name) {
			continue
		}
		dst := make([]byte, 0, 2*len(in.data))
		valid := utf8.Valid(in.data)
		var dec decode.Decoder
		w64, w7 := NewWriter(discard{}, Options{}), NewWriter(discard{}, Options{})
		writeAll := func(w *Writer, size int) {
			for p := in.data; len(p) > 0; {
				n := min(size, len(p))
				w.Write(p[:n])
				p = p[n:]
			}
		}
		rows := []func(){
			func() { Bytes(in.data, Options{}) },
			func() { writeAll(w64, 64<<10) },
			func() { writeAll(w7, 7) },
			func() { dec.Feed(in.data, func(*decode.Token) {}) },
			func() { _ = ansi.Strip(string(in.data)) },
			func() {
				dst = dst[:0]
				if utf8.Valid(in.data) {
					dst = append(dst, in.data...)
				}
			},
		}
		med := benchinput.Medians(rows, len(in.data), rounds, minCPU)
		uv, uvr := fmt.Sprintf("%.0f", med[5]), fmt.Sprintf("%.2f", med[0]/med[5])
		if !valid {
			uv, uvr = "(invalid)", "—"
		}
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %s | **%.2f×** | %.2f× | %.2f× | %s | %.2f |\n",
			in.name, med[0], med[1], med[2], med[3], med[4], uv, med[0]/med[4], med[1]/med[4], med[3]/med[4], uvr, med[1]/med[2])
	}
	t.Log("\n" + out.String())
	t.Log("\n" + screenCPUTime(rounds, minCPU))
}

// screenCPUTime measures CRScreen beside CRLines: Bytes of each input,
// and Map of its first 128 KiB, the viewer's cleaned-pane window. It
// returns a Markdown table of medians (MB of input per CPU second).
func screenCPUTime(rounds int, minCPU time.Duration) string {
	var out strings.Builder
	out.WriteString("| input | Bytes cr=lines | Bytes cr=screen | lines ÷ screen | Map 128 KiB cr=lines | Map 128 KiB cr=screen | lines ÷ screen |\n|---|---:|---:|---:|---:|---:|---:|\n")
	lines, scr := Options{}, Options{CR: CRScreen}
	for _, in := range benchInputs() {
		if !benchinput.Wanted(in.name) {
			continue
		}
		win := in.data[:min(len(in.data), 128<<10)]
		rows := []func(){
			func() { Bytes(in.data, lines) },
			func() { Bytes(in.data, scr) },
		}
		wrows := []func(){
			func() { Map(win, lines) },
			func() { Map(win, scr) },
		}
		med := benchinput.Medians(rows, len(in.data), rounds, minCPU)
		wmed := benchinput.Medians(wrows, len(win), rounds, minCPU)
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.1f× | %.0f | %.0f | %.1f× |\n",
			in.name, med[0], med[1], med[0]/med[1], wmed[0], wmed[1], wmed[0]/wmed[1])
	}
	return out.String()
}
