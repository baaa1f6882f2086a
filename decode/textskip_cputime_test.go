//go:build linux

package decode

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/internal/benchinput"
)

// TestSkipTextCPUTime measures, in thread CPU time with the rows of each
// input interleaved round by round, ground's text skip (skipText from the
// start of the input and from the byte after each run it ends) beside
// utf8.Valid on the inputs of internal/benchinput. It prints a Markdown
// table of medians (MB of input per CPU second). Run with
// BYTELENS_CPUTIME=plain (see BENCHMARKS.md).
func TestSkipTextCPUTime(t *testing.T) {
	benchinput.Measure(t)
	const rounds, minCPU = 7, 60 * time.Millisecond
	var out strings.Builder
	out.WriteString("| input | skipText | utf8.Valid | skipText ÷ utf8.Valid |\n|---|---:|---:|---:|\n")
	for _, in := range benchinput.Inputs(filepath.Join("..", "sanitize", "testdata", "bench")) {
		if !benchinput.Wanted(in.Name) {
			continue
		}
		p := in.Data
		rows := []func(){
			func() {
				for i := 0; i < len(p); {
					if j := skipText(p, i); j > i {
						i = j
					} else {
						i++
					}
				}
			},
			func() { _ = utf8.Valid(p) },
		}
		med := benchinput.Medians(rows, len(p), rounds, minCPU)
		fmt.Fprintf(&out, "| %s | %.0f | %.0f | %.2f× |\n", in.Name, med[0], med[1], med[0]/med[1])
	}
	t.Log("\n" + out.String())
}
