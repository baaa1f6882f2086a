package sanitize

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/ctlfunc"
)

// TestReportBounded: however many distinct OSC numbers and CSI keys the
// input holds, a report names MaxNamed of each, counts the rest as other,
// says so once in a finding, and stays small.
func TestReportBounded(t *testing.T) {
	var b strings.Builder
	const distinct = 3 * MaxNamed
	for i := range distinct {
		fmt.Fprintf(&b, "\x1b]%d;x\x07", i*7) // numbers below and above the array
	}
	for _, p := range []string{"", "?", ">"} {
		for i := range 16 {
			for f := byte('@'); f < '@'+8; f++ {
				fmt.Fprintf(&b, "\x1b[%s%c%c", p, 0x20+i, f)   // with an intermediate: map keys
				fmt.Fprintf(&b, "\x1b[%s%c", p, f+byte(i%2)*8) // without: array keys
			}
		}
	}
	in := []byte(b.String())
	out, rep := Bytes(in, Options{})
	var osc, csi int64
	for _, n := range rep.OSCCommands {
		osc += n
	}
	for _, n := range rep.CSIFinals {
		csi += n
	}
	if len(rep.OSCCommands) != MaxNamed || osc+rep.OSCOther != rep.Removed.OSC || rep.OSCOther != distinct-MaxNamed {
		t.Errorf("OSC: %d named (%d), other %d, removed %d", len(rep.OSCCommands), osc, rep.OSCOther, rep.Removed.OSC)
	}
	if len(rep.CSIFinals) != MaxNamed || csi+rep.CSIOther != rep.Removed.CSI || rep.CSIOther == 0 {
		t.Errorf("CSI: %d named (%d), other %d, removed %d", len(rep.CSIFinals), csi, rep.CSIOther, rep.Removed.CSI)
	}
	var capped []string
	for _, f := range rep.Findings {
		if f.Kind == "report_capped" {
			capped = append(capped, f.Sequence)
		}
	}
	if want := []string{"OSC numbers past 64 counted as other", "CSI keys past 64 counted as other"}; fmt.Sprint(capped) != fmt.Sprint(want) {
		t.Errorf("capped findings %q, want %q", capped, want)
	}
	assertSplit(t, "bounded", in, Options{}, []int{len(in) / 3, len(in) / 2}, out, rep)

	// Ten times the input: the report does not grow.
	_, big := Bytes([]byte(strings.Repeat(b.String(), 10)+strings.Repeat("\x1b[6n", 5000)), Options{})
	j1, _ := json.Marshal(rep)
	j2, _ := json.Marshal(big)
	if len(big.Findings) != MaxFindings || big.FindingsOmitted == 0 || len(j2) > 2*len(j1)+MaxFindings*100 {
		t.Errorf("big report: %d findings, %d omitted, %d JSON bytes (small one %d)", len(big.Findings), big.FindingsOmitted, len(j2), len(j1))
	}
}

// TestCountersNamed: every advisory class and anomaly of the catalogue
// has the report field of its name.
func TestCountersNamed(t *testing.T) {
	for i, idx := range flagCounters {
		if idx < 0 {
			t.Errorf("class %q has no Flags field", ctlfunc.Classes[i].Name)
		}
	}
	for i, idx := range anomalyCounters {
		if idx < 0 {
			t.Errorf("anomaly %q has no Anomalies field", ctlfunc.Anomalies[i].Name)
		}
	}
}
