package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/sanitize"
)

// DiffSide names one side of a comparison for WriteReportDiff.
type DiffSide struct {
	// Name is the argument naming the input ("-" for stdin); Kind is
	// "capture" or "report"; Format and Stream, when set, the capture
	// format and the stream compared; Policy the sanitizer options.
	Name         Safe
	Kind, Format string
	Stream       Safe
	Policy       string
	// HasText says the side has cleaned text (a capture), so that the
	// texts were compared.
	HasText bool
}

// maxFindingRows is how many differing findings WriteReportDiff lists.
const maxFindingRows = 50

// WriteReportDiff prints a comparison of two removal reports for people
// (bytelens diff): the two sides, a verdict, the count rows (all of them,
// or only those that differ), the differing findings and the first
// differing lines of cleaned text, each quoted with Go escapes. Every
// name and line is escaped as Sprintf escapes its arguments. It returns
// w.Err().
func WriteReportDiff(bw *Writer, a, b DiffSide, d *sanitize.ReportDiff, all bool) error {
	for _, sd := range []struct {
		label string
		side  DiffSide
	}{{"A", a}, {"B", b}} {
		bw.Printf("%s: %s (%s", sd.label, sd.side.Name, sd.side.Kind)
		if sd.side.Format != "" {
			bw.Printf(" %s", sd.side.Format)
		}
		if !sd.side.Stream.IsZero() {
			bw.Printf(", stream %s", sd.side.Stream)
		}
		bw.Printf(")\n   policy %s\n", sd.side.Policy)
	}
	var missing string
	switch {
	case !a.HasText && !b.HasText:
		missing = "A and B are reports"
	case !a.HasText:
		missing = "A is a report"
	case !b.HasText:
		missing = "B is a report"
	}
	if d.Equal() {
		if missing == "" {
			bw.Printf("A and B are equal: same counts, findings and cleaned text\n")
		} else {
			bw.Printf("A and B are equal: same counts and findings (cleaned text not compared: %s)\n", missing)
		}
	} else {
		bw.Printf("A and B differ: %s\n", d.Summary())
	}

	writeCountTable(bw, d, all)
	writeFindings(bw, &d.Findings)
	if missing == "" {
		writeTextDiff(bw, d.Text)
	} else if !d.Equal() {
		bw.Printf("\ncleaned text: not compared (%s)\n", missing)
	}
	return bw.Err()
}

// writeCountTable prints the count rows: marker, group.name, A, B and B−A,
// the numbers right-aligned.
func writeCountTable(w *Writer, d *sanitize.ReportDiff, all bool) {
	type row struct{ mark, name, a, b, delta string }
	rows := []row{{"", "count", "A", "B", "diff"}}
	for _, g := range d.Groups() {
		for _, r := range g.Rows {
			if r.Equal() && !all {
				continue
			}
			mark, delta := "!=", fmt.Sprintf("%+d", r.Delta)
			if r.Equal() {
				mark, delta = "=", "0"
			}
			rows = append(rows, row{mark, sanitize.RowName(g.Name, r.Name), strconv.FormatInt(r.A, 10), strconv.FormatInt(r.B, 10), delta})
		}
	}
	if len(rows) == 1 {
		return
	}
	var wn, wa, wb, wd int
	for _, r := range rows {
		wn, wa, wb, wd = max(wn, len(r.name)), max(wa, len(r.a)), max(wb, len(r.b)), max(wd, len(r.delta))
	}
	w.Println()
	for _, r := range rows {
		w.Printf("%-2s %-*s  %*s  %*s  %*s\n", r.mark, wn, r.name, wa, r.a, wb, r.b, wd, r.delta)
	}
}

// writeFindings prints the differing findings by offset.
func writeFindings(w *Writer, f *sanitize.FindingsDiff) {
	if f.Equal() {
		return
	}
	w.Printf("\nfindings: %d same, %d only in A, %d only in B, %d changed\n", f.Same, len(f.OnlyA), len(f.OnlyB), len(f.Changed))
	tw := w.Columns(2, 8, 2)
	tw.Printf("  side\toffset\t\tkind\tsequence\tbytes\n")
	row := func(side string, x *sanitize.Finding) {
		tw.Printf("  %s\t0x%08x\t%d\t%s\t%s\t%d\n", side, x.Offset, x.Offset, x.Kind, x.Sequence, x.Bytes)
	}
	aligned := f.Aligned()
	for i, p := range aligned {
		if i == maxFindingRows {
			tw.Printf("  ... %s (--json lists all)\n", plural(len(aligned)-i, "more differing finding"))
			break
		}
		switch {
		case p.B == nil:
			row("A only", p.A)
		case p.A == nil:
			row("B only", p.B)
		default:
			row("A changed", p.A)
			row("B changed", p.B)
		}
	}
	tw.Flush()
}

// writeTextDiff prints the first differing lines of cleaned text, each
// quoted with Go escapes.
func writeTextDiff(w *Writer, t *sanitize.TextDiff) {
	if t.Equal() {
		w.Printf("\ncleaned text: identical (%s)\n", plural(t.LinesA, "line"))
		return
	}
	verb := "lines differ"
	if t.Differing == 1 {
		verb = "line differs"
	}
	w.Printf("\ncleaned text: %d %s (A has %s, B %s)\n", t.Differing, verb, plural(t.LinesA, "line"), plural(t.LinesB, "line"))
	for _, l := range t.Lines {
		w.Printf("  A:%s  %s\n", lineNo(l.LineA), quoteLine(l.LineA, l.A, l.From, l.TruncA))
		w.Printf("  B:%s  %s\n", lineNo(l.LineB), quoteLine(l.LineB, l.B, l.From, l.TruncB))
	}
	if n := t.Differing - len(t.Lines); n > 0 {
		w.Printf("  ... %s (--lines shows more)\n", plural(n, "more differing line"))
	}
}

// plural returns "1 line", "2 lines": n and noun, plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// lineNo returns a line number, or "-" for none.
func lineNo(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// quoteLine shows a line of cleaned text: quoted with Go escapes for
// anything not graphic (format characters that a keep policy let through
// included), its LF dropped, with notes for an excerpt and for a last line
// without LF.
func quoteLine(n int, s string, from int, trunc bool) string {
	if n == 0 {
		return "(no line)"
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("(from byte " + strconv.Itoa(from) + ") ")
	}
	body, nl := strings.CutSuffix(s, "\n")
	b.WriteString(strconv.QuoteToGraphic(body))
	switch {
	case trunc:
		b.WriteString("...")
	case !nl:
		b.WriteString(" (no newline at end)")
	}
	return b.String()
}
