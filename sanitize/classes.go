package sanitize

import (
	"fmt"
	"slices"
	"strings"
)

// ClassAny, in a class list, stands for every class ReportClasses gives.
const ClassAny = "any"

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
	return append(counts, NamedCount{"nonascii_blanks", r.Kept.NonASCIIBlanks})
}

// ParseClasses parses a comma-separated list of ReportClasses names, or
// ClassAny for all of them; empty items are skipped. An unknown name is
// an error naming the known ones.
func ParseClasses(list string) ([]string, error) {
	var out []string
	known := ReportClasses()
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case item == ClassAny:
			return known, nil
		case slices.Contains(known, item):
			out = append(out, item)
		default:
			return nil, fmt.Errorf("unknown class %q (want any or some of %s)", item, strings.Join(known, ", "))
		}
	}
	return out, nil
}
