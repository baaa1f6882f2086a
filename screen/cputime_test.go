//go:build linux

package screen

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/benchinput"
	"github.com/charmbracelet/x/vt"
)

// TestCPUTime measures BenchmarkScreen's rows in thread CPU time, the rows
// of each input interleaved round by round, so that other work on a
// shared machine neither stretches one row nor drifts between rows. It
// prints a Markdown table of medians (MB of input per CPU second). x/vt
// answers queries on a pipe that another goroutine drains, so its row
// counts that goroutine's time only as far as it shares the thread. Run
// with BYTELENS_CPUTIME=1 (see BENCHMARKS.md).
func TestCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 5, 200 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | decode | screen | screen+findings | x/vt |\n|---|---:|---:|---:|---:|\n")
	for _, in := range benchInputs(nil) {
		chunks := func(feed func([]byte)) {
			for p := in.p; len(p) > 0; {
				n := min(len(p), 64<<10)
				feed(p[:n])
				p = p[n:]
			}
		}
		model := func(findings bool) func() {
			return func() {
				m, _ := New(Options{Findings: findings})
				chunks(m.Feed)
				m.End()
				if findings {
					_ = m.Findings()
				}
			}
		}
		rows := []func(){
			func() {
				var d decode.Decoder
				chunks(func(p []byte) { d.Feed(p, func(*decode.Token) {}) })
			},
			model(false),
			model(true),
			func() {
				e := vt.NewEmulator(80, 24)
				done := make(chan struct{})
				go func() { io.Copy(io.Discard, e); close(done) }()
				chunks(func(p []byte) { e.Write(p) })
				e.Close()
				<-done
			},
		}
		fmt.Fprintf(&out, "| %s", in.name)
		for _, m := range benchinput.Medians(rows, len(in.p), rounds, minCPU) {
			fmt.Fprintf(&out, " | %.1f", m)
		}
		out.WriteString(" |\n")
	}
	t.Log("MB/s of thread CPU time, median of 5 rounds:\n" + out.String())
}
