package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/sanitize"
)

// displayName returns name as is when every rune is graphic, else quoted
// with escapes: file names are untrusted too.
func displayName(name string) string {
	q := strconv.QuoteToGraphic(name)
	if q[1:len(q)-1] == name {
		return name
	}
	return q
}

// writeSummary prints a report for a person: totals, the non-zero counts
// of each group, what the loader removed before cleaning, then the
// findings with offsets in hex and decimal.
func writeSummary(w io.Writer, name string, r *sanitize.Report, loader []capture.Removal) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %d bytes in, %d bytes of text out", displayName(name), r.BytesIn, r.BytesOut)
	if r.BytesSwallowed > 0 {
		fmt.Fprintf(tw, ", %d bytes swallowed by unterminated strings", r.BytesSwallowed)
	}
	fmt.Fprintf(tw, "\npolicy: %s\n", r.Policy)
	if r.Clean() {
		fmt.Fprintln(tw, "nothing removed: the input was plain text")
	}
	groups := []struct {
		title  string
		counts []sanitize.NamedCount
	}{
		{"removed", r.Removed.ByName()},
		{"kept or replaced", r.Kept.ByName()},
		{"anomalies", r.Anomalies.ByName()},
		{"flags (what a terminal would have shown differently)", r.Flags.ByName()},
		{"OSC commands", r.SortedOSC()},
		{"CSI final bytes", r.SortedCSI()},
	}
	for _, g := range groups {
		var lines []string
		for _, c := range g.counts {
			if c.Count != 0 {
				lines = append(lines, fmt.Sprintf("  %s\t%d", c.Name, c.Count))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(tw, "%s:\n%s\n", g.title, strings.Join(lines, "\n"))
		}
	}
	if len(loader) > 0 {
		fmt.Fprintln(tw, "removed by the loader (recorder annotations, not terminal output):")
		for _, l := range loader {
			fmt.Fprintf(tw, "  %s\t%d\t%d bytes\n", l.Class, l.Count, l.Bytes)
		}
	}
	if len(r.Findings) > 0 {
		fmt.Fprintln(tw, "findings:")
		for _, f := range r.Findings {
			fmt.Fprintf(tw, "  0x%08x\t%d\t%s\t%s\t%d bytes\n", f.Offset, f.Offset, f.Kind, f.Sequence, f.Bytes)
		}
		if r.FindingsOmitted > 0 {
			fmt.Fprintf(tw, "  … %d more findings not listed\n", r.FindingsOmitted)
		}
	}
	return tw.Flush()
}
