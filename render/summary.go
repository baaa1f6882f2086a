package render

import "github.com/bytelens/bytelens/sanitize"

// WriteSummary writes report r of the input name for a person: totals,
// the non-zero counts of each group, what the loader removed before
// cleaning and what it found malformed and kept as text (anomalies), then
// the findings with offsets in hex and decimal. It returns the first
// error from w.
func WriteSummary(w *Writer, name Safe, r *sanitize.Report, loader []sanitize.LoaderRemoval, anomalies []sanitize.LoaderAnomaly) error {
	p := w.Columns(2, 8, 2)
	p.Printf("%s: %d bytes in, %d bytes of text out", name, r.BytesIn, r.BytesOut)
	if r.BytesSwallowed > 0 {
		p.Printf(", %d bytes swallowed by unterminated strings", r.BytesSwallowed)
	}
	p.Printf("\npolicy: %s\n", r.Policy)
	if r.Clean() {
		p.Printf("nothing removed: the input was plain text\n")
	}
	groups := []struct {
		title  Format
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
		title := false
		for _, c := range g.counts {
			if c.Count == 0 {
				continue
			}
			if !title {
				p.Printf(g.title + ":\n")
				title = true
			}
			p.Printf("  %s\t%d\n", c.Name, c.Count)
		}
	}
	if len(loader) > 0 {
		p.Printf("removed by the loader (recorder annotations, not terminal output):\n")
		for _, l := range loader {
			p.Printf("  %s\t%d\t%d bytes\n", l.Class, l.Count, l.Bytes)
		}
	}
	if len(anomalies) > 0 {
		p.Printf("malformed recorder annotations the loader kept as text:\n")
		for _, a := range anomalies {
			p.Printf("  %s\t%d\tfirst at capture offset 0x%x (%d)\n", a.Class, a.Count, a.FirstOffset, a.FirstOffset)
		}
	}
	WriteFindings(p, r.Findings)
	if r.FindingsOmitted > 0 {
		p.Printf("  … %d more findings not listed\n", r.FindingsOmitted)
	}
	return p.Flush()
}

// WriteFindings writes fs under a "findings:" line, a row per finding:
// its offset in hex and in decimal, kind, sequence and length in bytes,
// the cells TAB-separated for a Columns writer p. It writes nothing when
// fs is empty.
func WriteFindings(p *Writer, fs []sanitize.Finding) {
	if len(fs) > 0 {
		p.Printf("findings:\n")
	}
	for _, f := range fs {
		p.Printf("  0x%08x\t%d\t%s\t%s\t%d bytes\n", f.Offset, f.Offset, f.Kind, f.Sequence, f.Bytes)
	}
}
