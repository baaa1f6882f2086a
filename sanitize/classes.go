package sanitize

import (
	"fmt"
	"slices"
	"strings"
)

// ClassAny, in a class list, stands for every class ReportClasses gives
// but the kept ones (ClassNonASCIIBlanks): text that legitimate logs hold
// (French prose has U+00A0) is gated on only by name.
const ClassAny = "any"

// ClassNonASCIIBlanks is the kept class Kept.NonASCIIBlanks.
const ClassNonASCIIBlanks = "nonascii_blanks"

// ReportClasses returns the classes of a report that a CI gate can fail
// on: the advisory flags, the anomalies and the kept non-ASCII blanks, by
// their JSON names (Report.ClassCounts), then the classes of malformed
// recorder annotations a capture loader kept (LoaderAnomalyClasses).
func ReportClasses() []string {
	var names []string
	for _, c := range (&Report{}).ClassCounts() {
		names = append(names, c.Name)
	}
	return append(names, LoaderAnomalyClasses...)
}

// ClassCounts returns the counts of the classes a CI gate can fail on,
// by their JSON names: the advisory flags, the anomalies, and
// Kept.NonASCIIBlanks, the one kept class that can hide bits in text
// that reads the same.
func (r *Report) ClassCounts() []NamedCount {
	counts := append(r.Flags.ByName(), r.Anomalies.ByName()...)
	return append(counts, NamedCount{ClassNonASCIIBlanks, r.Kept.NonASCIIBlanks})
}

// ParseClasses parses a comma-separated list of ReportClasses names, in
// the list's order, or with ClassAny every class but the kept ones (and
// those named too), in ReportClasses order; empty items are skipped. An
// unknown name is an error naming the known ones.
func ParseClasses(list string) ([]string, error) {
	var out []string
	known, all := ReportClasses(), false
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case item == ClassAny:
			all = true
		case slices.Contains(known, item):
			out = append(out, item)
		default:
			return nil, fmt.Errorf("unknown class %q (want any or some of %s)", item, strings.Join(known, ", "))
		}
	}
	if all {
		named := out
		out = slices.DeleteFunc(known, func(c string) bool { return c == ClassNonASCIIBlanks && !slices.Contains(named, c) })
	}
	return out, nil
}
