package sanitize

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DiffSchema is the version of the JSON form of ReportDiff.
const DiffSchema = "bytelens.diff/v1"

// DefaultTextDiffLines is how many differing line pairs CompareText keeps
// when asked for none.
const DefaultTextDiffLines = 5

// MaxLineDiffBytes is the longest excerpt of a line, in bytes, that a
// LineDiff holds for each side.
const MaxLineDiffBytes = 512

// ReportDiff compares two removal reports, A and B, as [Compare] builds
// it. Like Report it holds no payload bytes: counts, the names a Report
// may hold (OSC command numbers, CSI final bytes, finding kinds and
// sequences) and, in Text, lines of cleaned text.
//
// Every count group lists all its rows in a fixed order, equal ones
// included, so that a table can show or skip them.
type ReportDiff struct {
	Schema string `json:"schema"`
	// PolicyA and PolicyB are the reports' policies. They do not count
	// as a difference: two policies that clean an input alike are equal.
	PolicyA string `json:"policy_a"`
	PolicyB string `json:"policy_b"`

	// Totals are bytes_in, bytes_out, bytes_swallowed and
	// findings_omitted.
	Totals    []CountDiff `json:"totals"`
	Removed   []CountDiff `json:"removed"`
	Kept      []CountDiff `json:"kept"`
	Anomalies []CountDiff `json:"anomalies"`
	Flags     []CountDiff `json:"flags"`
	// OSCCommands has a row per OSC command number seen in either
	// report, by number; Name is the number in decimal ("52", "-1").
	OSCCommands []CountDiff `json:"osc_commands"`
	// CSIFinals has a row per CSI key seen in either report, by name;
	// Name is the key as in Report.CSIFinals ("m", "?h", " q"). Each list
	// ends with a row "other" when either report counted strings past
	// MaxNamed (Report.OSCOther, Report.CSIOther).
	CSIFinals []CountDiff `json:"csi_finals"`

	Findings FindingsDiff `json:"findings"`

	// Text compares the cleaned texts when the caller has them: Compare
	// leaves it nil; set it with CompareText. Nil means not compared.
	Text *TextDiff `json:"text,omitempty"`
}

// CountDiff is one named count in A and in B.
type CountDiff struct {
	// Name is the count's JSON name in Report.
	Name string `json:"name"`
	A    int64  `json:"a"`
	B    int64  `json:"b"`
	// Delta is B − A.
	Delta int64 `json:"delta"`
}

// Equal reports whether the count is the same in A and B.
func (c CountDiff) Equal() bool { return c.A == c.B }

// CountGroup is one group of counts with its JSON name ("removed").
type CountGroup struct {
	Name string
	Rows []CountDiff
}

// FindingsDiff aligns the findings of A and B. Findings are matched by
// offset and kind (several of one kind at one offset are matched in
// order); a matched pair whose sequence or length differs is Changed.
// Findings past Report.MaxFindings were not listed and are not compared
// (see the findings_omitted row of Totals).
type FindingsDiff struct {
	// Same counts findings identical in A and B.
	Same int `json:"same"`
	// OnlyA and OnlyB are the findings of one side without a match in
	// the other, by offset.
	OnlyA []Finding `json:"only_a"`
	OnlyB []Finding `json:"only_b"`
	// Changed are matched findings that differ in sequence or length, by
	// offset.
	Changed []FindingPair `json:"changed"`
}

// FindingPair is a finding of A and its counterpart in B. In the result of
// FindingsDiff.Aligned, a nil side means the finding is only in the other.
type FindingPair struct {
	A *Finding `json:"a"`
	B *Finding `json:"b"`
}

// Offset returns the byte offset of the pair's finding.
func (p FindingPair) Offset() int64 {
	if p.A != nil {
		return p.A.Offset
	}
	return p.B.Offset
}

// Equal reports whether A and B have the same findings.
func (f *FindingsDiff) Equal() bool {
	return len(f.OnlyA) == 0 && len(f.OnlyB) == 0 && len(f.Changed) == 0
}

// Aligned returns every differing finding in one list by offset: pairs of
// Changed, and findings only in A or only in B with the other side nil.
// At one offset, A's come before B's.
func (f *FindingsDiff) Aligned() []FindingPair {
	out := make([]FindingPair, 0, len(f.OnlyA)+len(f.OnlyB)+len(f.Changed))
	for i := range f.OnlyA {
		out = append(out, FindingPair{A: &f.OnlyA[i]})
	}
	out = append(out, f.Changed...)
	for i := range f.OnlyB {
		out = append(out, FindingPair{B: &f.OnlyB[i]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset() < out[j].Offset() })
	return out
}

// TextDiff compares two cleaned texts line by line. The lines both texts
// start with and the lines both end with are common; the lines between
// are the differing ones, paired in order. A line includes its LF, so a
// missing final LF is a difference.
type TextDiff struct {
	LinesA int `json:"lines_a"`
	LinesB int `json:"lines_b"`
	// Differing is the number of differing line pairs: the larger of the
	// two sides' line counts between the common head and tail.
	Differing int `json:"differing"`
	// Lines are the first differing pairs, at most the limit given to
	// CompareText.
	Lines []LineDiff `json:"lines"`
}

// Equal reports whether the texts are identical.
func (t *TextDiff) Equal() bool { return t.Differing == 0 }

// LineDiff is one pair of differing lines. A side without a line here
// (the other text has more differing lines) has line number 0.
type LineDiff struct {
	// LineA and LineB are 1-based line numbers.
	LineA int `json:"line_a"`
	LineB int `json:"line_b"`
	// From is the byte offset in both lines where the excerpts A and B
	// start: 0 unless a line is longer than MaxLineDiffBytes, in which
	// case the excerpts start shortly before the first differing byte.
	From int `json:"from"`
	// A and B are the lines (with their LF, if any) or excerpts of at
	// most MaxLineDiffBytes, cut at a UTF-8 boundary; TruncA and TruncB
	// say the line goes on past the excerpt.
	A      string `json:"a"`
	B      string `json:"b"`
	TruncA bool   `json:"a_truncated"`
	TruncB bool   `json:"b_truncated"`
}

// Compare compares report a with report b: every count of every group,
// OSC commands and CSI keys (the union of both reports' keys), and the
// findings aligned by offset. The result's Text is nil.
func Compare(a, b Report) ReportDiff {
	d := ReportDiff{
		Schema:  DiffSchema,
		PolicyA: a.Policy,
		PolicyB: b.Policy,
		Totals: zipCounts(
			[]NamedCount{{"bytes_in", a.BytesIn}, {"bytes_out", a.BytesOut}, {"bytes_swallowed", a.BytesSwallowed}, {"findings_omitted", a.FindingsOmitted}},
			[]NamedCount{{"bytes_in", b.BytesIn}, {"bytes_out", b.BytesOut}, {"bytes_swallowed", b.BytesSwallowed}, {"findings_omitted", b.FindingsOmitted}}),
		Removed:   zipCounts(a.Removed.ByName(), b.Removed.ByName()),
		Kept:      zipCounts(a.Kept.ByName(), b.Kept.ByName()),
		Anomalies: zipCounts(a.Anomalies.ByName(), b.Anomalies.ByName()),
		Flags:     zipCounts(a.Flags.ByName(), b.Flags.ByName()),
		Findings:  compareFindings(a.Findings, b.Findings),
	}

	osc := map[int32]bool{}
	for k := range a.OSCCommands {
		osc[k] = true
	}
	for k := range b.OSCCommands {
		osc[k] = true
	}
	nums := make([]int32, 0, len(osc))
	for k := range osc {
		nums = append(nums, k)
	}
	sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
	d.OSCCommands = make([]CountDiff, 0, len(nums))
	for _, k := range nums {
		d.OSCCommands = append(d.OSCCommands, countDiff(strconv.Itoa(int(k)), a.OSCCommands[k], b.OSCCommands[k]))
	}

	csi := map[string]bool{}
	for k := range a.CSIFinals {
		csi[k] = true
	}
	for k := range b.CSIFinals {
		csi[k] = true
	}
	keys := make([]string, 0, len(csi))
	for k := range csi {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	d.CSIFinals = make([]CountDiff, 0, len(keys))
	for _, k := range keys {
		d.CSIFinals = append(d.CSIFinals, countDiff(k, a.CSIFinals[k], b.CSIFinals[k]))
	}
	// The counts past MaxNamed, as one "other" row each.
	if a.OSCOther != 0 || b.OSCOther != 0 {
		d.OSCCommands = append(d.OSCCommands, countDiff("other", a.OSCOther, b.OSCOther))
	}
	if a.CSIOther != 0 || b.CSIOther != 0 {
		d.CSIFinals = append(d.CSIFinals, countDiff("other", a.CSIOther, b.CSIOther))
	}
	return d
}

func countDiff(name string, a, b int64) CountDiff {
	return CountDiff{Name: name, A: a, B: b, Delta: b - a}
}

// zipCounts pairs two ByName lists of the same shape.
func zipCounts(a, b []NamedCount) []CountDiff {
	out := make([]CountDiff, len(a))
	for i := range a {
		out[i] = countDiff(a[i].Name, a[i].Count, b[i].Count)
	}
	return out
}

// findingKey matches findings across reports.
type findingKey struct {
	off  int64
	kind string
}

func compareFindings(a, b []Finding) FindingsDiff {
	d := FindingsDiff{OnlyA: []Finding{}, OnlyB: []Finding{}, Changed: []FindingPair{}}
	// Queues of B's findings by key, in order; matched ones are marked.
	byKey := make(map[findingKey][]int, len(b))
	for i, f := range b {
		k := findingKey{f.Offset, f.Kind}
		byKey[k] = append(byKey[k], i)
	}
	matched := make([]bool, len(b))
	for _, f := range a {
		k := findingKey{f.Offset, f.Kind}
		q := byKey[k]
		if len(q) == 0 {
			d.OnlyA = append(d.OnlyA, f)
			continue
		}
		j := q[0]
		byKey[k] = q[1:]
		matched[j] = true
		if f == b[j] {
			d.Same++
			continue
		}
		fa, fb := f, b[j]
		d.Changed = append(d.Changed, FindingPair{A: &fa, B: &fb})
	}
	for j, f := range b {
		if !matched[j] {
			d.OnlyB = append(d.OnlyB, f)
		}
	}
	// Reports list findings by offset, but reports read from files need
	// not: keep the documented order whatever the input.
	byOff := func(fs []Finding) {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Offset < fs[j].Offset })
	}
	byOff(d.OnlyA)
	byOff(d.OnlyB)
	sort.SliceStable(d.Changed, func(i, j int) bool { return d.Changed[i].Offset() < d.Changed[j].Offset() })
	return d
}

// Groups returns the count groups in display order, each under its JSON
// name: totals, removed, kept, anomalies, flags, osc_commands, csi_finals.
func (d *ReportDiff) Groups() []CountGroup {
	return []CountGroup{
		{"totals", d.Totals}, {"removed", d.Removed}, {"kept", d.Kept},
		{"anomalies", d.Anomalies}, {"flags", d.Flags},
		{"osc_commands", d.OSCCommands}, {"csi_finals", d.CSIFinals},
	}
}

// Equal reports whether A and B agree: every count, every finding and,
// when Text is set, the cleaned text. The policies are not compared.
func (d *ReportDiff) Equal() bool {
	for _, g := range d.Groups() {
		for _, r := range g.Rows {
			if !r.Equal() {
				return false
			}
		}
	}
	return d.Findings.Equal() && (d.Text == nil || d.Text.Equal())
}

// maxSummaryItems bounds the items of Summary.
const maxSummaryItems = 6

// Summary returns a one-line account of the differences, such as
// "text: 2 lines differ; totals.bytes_out 18->10; flags.overwrite 0->2;
// findings: 1 only in A", or "equal". Counts are named group.name with
// their JSON names; CSI keys that are not plain graphic ASCII are quoted.
// It lists at most a handful of items and says how many more differ.
func (d *ReportDiff) Summary() string {
	if d.Equal() {
		return "equal"
	}
	var items []string
	if d.Text != nil && !d.Text.Equal() {
		verb := "lines differ"
		if d.Text.Differing == 1 {
			verb = "line differs"
		}
		items = append(items, fmt.Sprintf("text: %d %s", d.Text.Differing, verb))
	}
	for _, g := range d.Groups() {
		for _, r := range g.Rows {
			if !r.Equal() {
				items = append(items, fmt.Sprintf("%s %d->%d", RowName(g.Name, r.Name), r.A, r.B))
			}
		}
	}
	f := &d.Findings
	if !f.Equal() {
		var parts []string
		if n := len(f.OnlyA); n > 0 {
			parts = append(parts, fmt.Sprintf("%d only in A", n))
		}
		if n := len(f.OnlyB); n > 0 {
			parts = append(parts, fmt.Sprintf("%d only in B", n))
		}
		if n := len(f.Changed); n > 0 {
			parts = append(parts, fmt.Sprintf("%d changed", n))
		}
		items = append(items, "findings: "+strings.Join(parts, ", "))
	}
	if len(items) > maxSummaryItems {
		more := len(items) - maxSummaryItems
		items = append(items[:maxSummaryItems], fmt.Sprintf("and %d more", more))
	}
	return strings.Join(items, "; ")
}

// RowName returns the name of a count row for people: group.name with
// JSON names ("flags.overwrite", "osc_commands.52"). A name that holds
// anything but graphic ASCII other than space (CSI keys such as " q", or
// names read from an untrusted report file) is quoted with Go escapes
// (`csi_finals." q"`), so the result is safe to print and unambiguous.
func RowName(group, name string) string {
	plain := name != ""
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if !plain {
		name = strconv.QuoteToASCII(name)
	}
	return group + "." + name
}

// CompareText compares cleaned texts a and b line by line and keeps the
// first maxLines differing pairs (DefaultTextDiffLines when maxLines ≤ 0).
// It takes time linear in the texts' length and allocates only for the
// pairs it keeps.
func CompareText(a, b []byte, maxLines int) TextDiff {
	if maxLines <= 0 {
		maxLines = DefaultTextDiffLines
	}
	d := TextDiff{LinesA: countLines(a), LinesB: countLines(b), Lines: []LineDiff{}}
	// Common head: whole lines, LF included, equal in both.
	pa, head := 0, 0
	for pa < len(a) && pa < len(b) {
		ea, eb := lineEnd(a, pa), lineEnd(b, pa)
		if !bytes.Equal(a[pa:ea], b[pa:eb]) {
			break
		}
		pa = ea
		head++
	}
	// Common tail, not reaching into the head.
	ea, eb := len(a), len(b)
	for ea > pa && eb > pa {
		sa, sb := lineStart(a, ea), lineStart(b, eb)
		if sa < pa || sb < pa || !bytes.Equal(a[sa:ea], b[sb:eb]) {
			break
		}
		ea, eb = sa, sb
	}
	// The lines between are paired in order; a pair of equal lines (an
	// unchanged line between two changes) is not a difference.
	ma, mb := countLines(a[pa:ea]), countLines(b[pa:eb])
	ia, ib := pa, pa
	for i := 0; i < max(ma, mb); i++ {
		var la, lb []byte
		var ld LineDiff
		if i < ma {
			e := lineEnd(a, ia)
			la, ia = a[ia:e], e
			ld.LineA = head + i + 1
		}
		if i < mb {
			e := lineEnd(b, ib)
			lb, ib = b[ib:e], e
			ld.LineB = head + i + 1
		}
		if i < ma && i < mb && bytes.Equal(la, lb) {
			continue
		}
		d.Differing++
		if len(d.Lines) < maxLines {
			ld.From, ld.A, ld.B, ld.TruncA, ld.TruncB = excerpts(la, lb)
			d.Lines = append(d.Lines, ld)
		}
	}
	return d
}

// countLines counts lines; a last line without LF counts.
func countLines(p []byte) int {
	n := bytes.Count(p, []byte{'\n'})
	if len(p) > 0 && p[len(p)-1] != '\n' {
		n++
	}
	return n
}

// lineEnd returns the end of the line that starts at i, past its LF.
func lineEnd(p []byte, i int) int {
	if j := bytes.IndexByte(p[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(p)
}

// lineStart returns the start of the line that ends at e (past its LF, or
// at the end of p), for e > 0.
func lineStart(p []byte, e int) int {
	return bytes.LastIndexByte(p[:e-1], '\n') + 1
}

// excerpts returns lines a and b whole when they fit MaxLineDiffBytes,
// else excerpts of that size starting a little before the first byte
// where they differ, cut at UTF-8 boundaries.
func excerpts(a, b []byte) (from int, ea, eb string, ta, tb bool) {
	if len(a) > MaxLineDiffBytes || len(b) > MaxLineDiffBytes {
		common := 0
		for common < len(a) && common < len(b) && a[common] == b[common] {
			common++
		}
		from = max(0, common-MaxLineDiffBytes/8)
		// The bytes before common are the same in a and b, so one
		// boundary serves both.
		for from > 0 && from < len(a) && !utf8.RuneStart(a[from]) {
			from--
		}
	}
	cut := func(p []byte) (string, bool) {
		p = p[min(from, len(p)):]
		if len(p) <= MaxLineDiffBytes {
			return string(p), false
		}
		n := MaxLineDiffBytes
		for n > 0 && !utf8.RuneStart(p[n]) {
			n--
		}
		return string(p[:n]), true
	}
	ea, ta = cut(a)
	eb, tb = cut(b)
	return from, ea, eb, ta, tb
}
