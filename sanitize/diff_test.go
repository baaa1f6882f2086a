package sanitize

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCompareEqual(t *testing.T) {
	in := []byte("a\x1b[31mb\x1b]0;t\x07\r\n\x1b]52;c;?\x07")
	_, ra := Bytes(in, Options{})
	_, rb := Bytes(in, Options{})
	d := Compare(ra, rb)
	if !d.Equal() {
		t.Fatalf("same input, same policy: not equal: %s", d.Summary())
	}
	if d.Summary() != "equal" {
		t.Errorf("Summary = %q, want %q", d.Summary(), "equal")
	}
	if d.Findings.Same != len(ra.Findings) || len(d.Findings.Aligned()) != 0 {
		t.Errorf("findings: same %d of %d, aligned %v", d.Findings.Same, len(ra.Findings), d.Findings.Aligned())
	}
	// A different policy that cleans alike is still equal.
	_, rc := Bytes(in, Options{Links: LinksAppend})
	if d := Compare(ra, rc); !d.Equal() || d.PolicyA == d.PolicyB {
		t.Errorf("links=append on input without links: equal %v, policies %q %q", d.Equal(), d.PolicyA, d.PolicyB)
	}
}

// TestCompareRowsFollowJSON checks that the groups list every count of
// Report under its JSON name, in the JSON order.
func TestCompareRowsFollowJSON(t *testing.T) {
	_, r := Bytes([]byte("x"), Options{})
	js, _ := json.Marshal(r)
	var m map[string]json.RawMessage
	json.Unmarshal(js, &m)
	d := Compare(r, r)
	for _, g := range d.Groups()[1:5] {
		keys := jsonKeys(t, m[g.Name])
		var names []string
		for _, row := range g.Rows {
			names = append(names, row.Name)
		}
		if !reflect.DeepEqual(names, keys) {
			t.Errorf("%s rows %v, JSON keys %v", g.Name, names, keys)
		}
	}
	for _, row := range d.Totals {
		if _, ok := m[row.Name]; !ok {
			t.Errorf("totals row %q is not a Report JSON field", row.Name)
		}
	}
}

// jsonKeys returns the keys of a JSON object in document order.
func jsonKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v any
		dec.Decode(&v)
	}
	return keys
}

func TestCompareCounts(t *testing.T) {
	// cr-progress under lines and under screen: same removals, fewer
	// bytes out.
	in := []byte("10%\r50%\r100%\ndone\n")
	ta, ra := Bytes(in, Options{})
	tb, rb := Bytes(in, Options{CR: CRScreen})
	d := Compare(ra, rb)
	text := CompareText(ta, tb, 0)
	d.Text = &text
	if d.Equal() {
		t.Fatal("lines vs screen: equal")
	}
	want := CountDiff{Name: "bytes_out", A: 18, B: 10, Delta: -8}
	if d.Totals[1] != want {
		t.Errorf("totals[1] = %+v, want %+v", d.Totals[1], want)
	}
	for _, g := range d.Groups()[1:] {
		for _, r := range g.Rows {
			if !r.Equal() || r.Delta != 0 {
				t.Errorf("%s.%s differs: %+v", g.Name, r.Name, r)
			}
		}
	}
	if got, want := d.Summary(), "text: 2 lines differ; totals.bytes_out 18->10"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	// Without the text, the reports alone still differ in bytes_out.
	d.Text = nil
	if d.Equal() {
		t.Error("without text: equal")
	}
}

func TestCompareNamedCounts(t *testing.T) {
	a := Report{OSCCommands: map[int32]int64{52: 1, -1: 2}, CSIFinals: map[string]int64{"m": 3, " q": 1}}
	b := Report{OSCCommands: map[int32]int64{0: 1, 52: 1}, CSIFinals: map[string]int64{"m": 1, "?h": 2}}
	d := Compare(a, b)
	wantOSC := []CountDiff{{"-1", 2, 0, -2}, {"0", 0, 1, 1}, {"52", 1, 1, 0}}
	if !reflect.DeepEqual(d.OSCCommands, wantOSC) {
		t.Errorf("OSC rows %+v, want %+v", d.OSCCommands, wantOSC)
	}
	wantCSI := []CountDiff{{" q", 1, 0, -1}, {"?h", 0, 2, 2}, {"m", 3, 1, -2}}
	if !reflect.DeepEqual(d.CSIFinals, wantCSI) {
		t.Errorf("CSI rows %+v, want %+v", d.CSIFinals, wantCSI)
	}
	if got := d.Summary(); !strings.Contains(got, `csi_finals." q" 1->0`) || !strings.Contains(got, "osc_commands.-1 2->0") {
		t.Errorf("Summary = %q", got)
	}
}

func TestCompareFindings(t *testing.T) {
	f := func(off int64, kind, seq string, n int64) Finding { return Finding{off, kind, seq, n} }
	a := Report{Findings: []Finding{
		f(1, "overwrite", "CR", 1),
		f(5, "title", "OSC 0", 9),
		f(5, "unterminated", "OSC 0", 9), // only in A
		f(9, "query", "CSI 6n", 4),       // changed
		f(12, "erase", "CSI K", 3),
		f(12, "erase", "CSI K", 3), // two at one offset: one matched
	}}
	b := Report{Findings: []Finding{
		f(1, "overwrite", "CR", 1),
		f(5, "title", "OSC 0", 9),
		f(7, "overwrite", "BS", 1), // only in B
		f(9, "query", "CSI 5n", 4),
		f(12, "erase", "CSI K", 3),
	}}
	d := Compare(a, b).Findings
	if d.Same != 3 {
		t.Errorf("Same = %d, want 3", d.Same)
	}
	if want := []Finding{a.Findings[2], a.Findings[5]}; !reflect.DeepEqual(d.OnlyA, want) {
		t.Errorf("OnlyA = %v, want %v", d.OnlyA, want)
	}
	if want := []Finding{b.Findings[2]}; !reflect.DeepEqual(d.OnlyB, want) {
		t.Errorf("OnlyB = %v, want %v", d.OnlyB, want)
	}
	if len(d.Changed) != 1 || *d.Changed[0].A != a.Findings[3] || *d.Changed[0].B != b.Findings[3] {
		t.Errorf("Changed = %v", d.Changed)
	}
	var got []string
	for _, p := range d.Aligned() {
		side := "AB"
		switch {
		case p.B == nil:
			side = "A"
		case p.A == nil:
			side = "B"
		}
		got = append(got, side+":"+kindAt(p))
	}
	want := []string{"A:5/unterminated", "B:7/overwrite", "AB:9/query", "A:12/erase"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Aligned = %v, want %v", got, want)
	}
	if d.Equal() {
		t.Error("Equal with differences")
	}
}

// kindAt names a pair by offset and kind.
func kindAt(p FindingPair) string {
	f := p.A
	if f == nil {
		f = p.B
	}
	return strconv.FormatInt(f.Offset, 10) + "/" + f.Kind
}

func TestCompareText(t *testing.T) {
	ld := func(la int, a string, lb int, b string) LineDiff { return LineDiff{LineA: la, A: a, LineB: lb, B: b} }
	tests := []struct {
		name      string
		a, b      string
		max       int
		differing int
		lines     []LineDiff
	}{
		{name: "equal", a: "x\ny\n", b: "x\ny\n"},
		{name: "empty", a: "", b: ""},
		{name: "one changed", a: "x\ny\nz\n", b: "x\nY\nz\n", differing: 1, lines: []LineDiff{ld(2, "y\n", 2, "Y\n")}},
		{name: "final LF", a: "x\ny", b: "x\ny\n", differing: 1, lines: []LineDiff{ld(2, "y", 2, "y\n")}},
		{name: "inserted", a: "x\nz\n", b: "x\ny\nz\n", differing: 1, lines: []LineDiff{ld(0, "", 2, "y\n")}},
		{name: "removed at start", a: "10%\n50%\n100%\ndone\n", b: "100%\ndone\n", differing: 2,
			lines: []LineDiff{ld(1, "10%\n", 0, ""), ld(2, "50%\n", 0, "")}},
		{name: "to empty", a: "a\nb\n", b: "", differing: 2, lines: []LineDiff{ld(1, "a\n", 0, ""), ld(2, "b\n", 0, "")}},
		{name: "head and tail overlap", a: "x\nx\n", b: "x\n", differing: 1, lines: []LineDiff{ld(2, "x\n", 0, "")}},
		{name: "bounded", a: "1\n2\n3\n4\n", b: "a\nb\nc\nd\n", max: 2, differing: 4,
			lines: []LineDiff{ld(1, "1\n", 1, "a\n"), ld(2, "2\n", 2, "b\n")}},
		{name: "paired in order", a: "x\n1\n2\nz\n", b: "x\nA\nz\n", differing: 2,
			lines: []LineDiff{ld(2, "1\n", 2, "A\n"), ld(3, "2\n", 0, "")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := CompareText([]byte(tc.a), []byte(tc.b), tc.max)
			if d.Differing != tc.differing || d.Equal() != (tc.differing == 0) {
				t.Errorf("Differing = %d, want %d", d.Differing, tc.differing)
			}
			if tc.lines == nil {
				tc.lines = []LineDiff{}
			}
			if !reflect.DeepEqual(d.Lines, tc.lines) {
				t.Errorf("Lines = %+v\nwant %+v", d.Lines, tc.lines)
			}
			if d.LinesA != countLines([]byte(tc.a)) || d.LinesB != countLines([]byte(tc.b)) {
				t.Errorf("LinesA, LinesB = %d, %d", d.LinesA, d.LinesB)
			}
		})
	}
}

func TestCompareTextLongLines(t *testing.T) {
	head := strings.Repeat("終", 400) // 1200 bytes, 3 per rune
	a := head + "a" + strings.Repeat("x", 1000) + "\n"
	b := head + "b\n"
	d := CompareText([]byte(a), []byte(b), 0)
	if len(d.Lines) != 1 {
		t.Fatalf("Lines = %+v", d.Lines)
	}
	l := d.Lines[0]
	if l.From == 0 || l.From > len(head) || len(head)-l.From > MaxLineDiffBytes/8+3 {
		t.Errorf("From = %d, want shortly before %d", l.From, len(head))
	}
	if !utf8.ValidString(l.A) || !utf8.ValidString(l.B) {
		t.Errorf("excerpts cut inside a rune: %q %q", l.A, l.B)
	}
	if len(l.A) > MaxLineDiffBytes || !l.TruncA || l.TruncB || !strings.HasSuffix(l.B, "b\n") {
		t.Errorf("A %d bytes truncated %v, B %q truncated %v", len(l.A), l.TruncA, l.B, l.TruncB)
	}
	if !strings.HasPrefix(a[l.From:], l.A) || b[l.From:] != l.B {
		t.Error("excerpts do not start at From")
	}
}

func TestRowName(t *testing.T) {
	for _, tc := range [][3]string{
		{"flags", "overwrite", "flags.overwrite"},
		{"csi_finals", "?h", "csi_finals.?h"},
		{"csi_finals", " q", `csi_finals." q"`},
		{"csi_finals", "\x1b]0;x\a", `csi_finals."\x1b]0;x\a"`},
		{"csi_finals", "\u202e", `csi_finals."\u202e"`},
		{"csi_finals", "", `csi_finals.""`},
	} {
		if got := RowName(tc[0], tc[1]); got != tc[2] {
			t.Errorf("RowName(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

func TestReportDiffJSON(t *testing.T) {
	_, ra := Bytes([]byte("\x1b]52;c;U0VDUkVU\x07x"), Options{})
	_, rb := Bytes([]byte("x"), Options{})
	d := Compare(ra, rb)
	text := CompareText([]byte("x"), []byte("x"), 0)
	d.Text = &text
	js, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"schema":"bytelens.diff/v1"`, `"only_a":[{"offset":0,"kind":"clipboard"`, `"only_b":[]`, `"lines":[]`,
		`{"name":"osc","a":1,"b":0,"delta":-1}`, `"osc_commands":[{"name":"52","a":1,"b":0,"delta":-1}]`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("JSON lacks %s:\n%s", want, js)
		}
	}
	if strings.Contains(string(js), "U0VDUkVU") {
		t.Error("payload in diff JSON")
	}
	var back ReportDiff
	if err := json.Unmarshal(js, &back); err != nil || !reflect.DeepEqual(back, d) {
		t.Errorf("round trip: %v\n%+v\n%+v", err, back, d)
	}
}

// TestCompareCorpusSelf compares every corpus case with itself, and under
// its own policy with the default one, checking Equal agrees with the
// reports and texts.
func TestCompareCorpusSelf(t *testing.T) {
	for _, c := range loadCorpus(t) {
		ta, ra := Bytes(c.in, c.opts)
		tb, rb := Bytes(c.in, Options{})
		if d := Compare(ra, ra); !d.Equal() {
			t.Errorf("%s: not equal to itself: %s", c.name, d.Summary())
		}
		d := Compare(ra, rb)
		text := CompareText(ta, tb, 0)
		d.Text = &text
		ra.Policy, rb.Policy = "", ""
		same := reflect.DeepEqual(ra, rb) && string(ta) == string(tb)
		if d.Equal() != same {
			t.Errorf("%s: Equal() = %v, reports and texts equal = %v (%s)", c.name, d.Equal(), same, d.Summary())
		}
	}
}

func ExampleCompare() {
	raw := []byte("10%\r50%\r100%\ndone\n")
	textA, repA := Bytes(raw, Options{})
	textB, repB := Bytes(raw, Options{CR: CRScreen})
	d := Compare(repA, repB)
	text := CompareText(textA, textB, 0)
	d.Text = &text
	fmt.Println(d.Equal(), d.Summary())
	for _, l := range d.Text.Lines {
		fmt.Printf("A:%d %q  B:%d %q\n", l.LineA, l.A, l.LineB, l.B)
	}
	// Output:
	// false text: 2 lines differ; totals.bytes_out 18->10
	// A:1 "10%\n"  B:0 ""
	// A:2 "50%\n"  B:0 ""
}

// FuzzCompareText checks CompareText against its documented properties:
// equal exactly when the texts are, line numbers in range, excerpts that
// are the named lines (or parts of them from From), valid UTF-8 kept valid.
func FuzzCompareText(f *testing.F) {
	f.Add("x\ny\n", "x\nY\n", 2)
	f.Add("10%\n50%\n100%\ndone\n", "100%\ndone\n", 5)
	f.Add("a", "a\n", 1)
	f.Add("終終\n", "終x\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		d := CompareText([]byte(a), []byte(b), max)
		if d.Equal() != (a == b) {
			t.Fatalf("Equal() = %v for %q, %q", d.Equal(), a, b)
		}
		if max <= 0 {
			max = DefaultTextDiffLines
		}
		if len(d.Lines) > max || len(d.Lines) > d.Differing {
			t.Fatalf("%d lines kept, limit %d, differing %d", len(d.Lines), max, d.Differing)
		}
		linesA, linesB := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
		check := func(n int, lines []string, ex string, from int, trunc bool, total int) {
			if n == 0 {
				if ex != "" {
					t.Fatalf("excerpt %q without a line", ex)
				}
				return
			}
			if n > total {
				t.Fatalf("line %d of %d", n, total)
			}
			line := lines[n-1]
			if from > len(line) || !strings.HasPrefix(line[from:], ex) || trunc != (len(line[from:]) > len(ex)) {
				t.Fatalf("excerpt %q from %d (truncated %v) of line %q", ex, from, trunc, line)
			}
			if utf8.ValidString(line) && !utf8.ValidString(ex) {
				t.Fatalf("excerpt %q of valid line cut inside a rune", ex)
			}
		}
		for _, l := range d.Lines {
			if l.LineA == 0 && l.LineB == 0 {
				t.Fatal("pair without lines")
			}
			check(l.LineA, linesA, l.A, l.From, l.TruncA, d.LinesA)
			check(l.LineB, linesB, l.B, l.From, l.TruncB, d.LinesB)
		}
	})
}

// TestCompareTextSkipsEqualPairs: unchanged lines between two changes are
// not differences.
func TestCompareTextSkipsEqualPairs(t *testing.T) {
	d := CompareText([]byte("x1\ns\ns\ns\nx5\n"), []byte("y1\ns\ns\ns\ny5\n"), 10)
	if d.Differing != 2 || len(d.Lines) != 2 || d.Lines[0].LineA != 1 || d.Lines[1].LineA != 5 {
		t.Errorf("got %+v", d)
	}
}
