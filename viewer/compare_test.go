package viewer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// comparePolicies are the B policies the compare safety test rotates
// through, one per input.
var comparePolicies = []string{"cr=overwrite", "format-chars=keep", "c1=lone,apc-bel=true", "bs=overstrike,links=append", "cr=drop,format-chars=escape"}

// policyPair returns compare options for the capture under settings.
func policyPair(t testing.TB, settings string) *Compare {
	o, err := sanitize.ParsePolicy(settings)
	if err != nil {
		t.Fatal(err)
	}
	return &Compare{Name: settings, Sanitize: o}
}

// compareTour is tour plus what compare mode adds: the difference keys
// in every pane, at the first size (each runs a search to its end).
func compareTour(d *driver, sizes [][2]int) {
	tour(d, sizes)
	d.send(tea.WindowSizeMsg{Width: sizes[0][0], Height: sizes[0][1]})
	d.press("<home>dddD<end>DDd<tab>jdD<tab>dddDDkk<tab><pgdown>d<pgup>D")
}

// TestCompareViewSafe drives the real model in compare mode through
// Update — policy pairs of the generated hostile inputs and of every
// corpus file, and pairs of different captures — walking every byte of
// the small inputs and every page of the large ones, and checks every
// View: only SGR, LF and graphic characters, exactly the terminal's
// height and width.
func TestCompareViewSafe(t *testing.T) {
	t.Parallel()
	inputs := safetyInputs(t)
	names := safetyNames(t, inputs)
	type pair struct {
		name string
		n    int // the index of its A input in names
		a    []byte
		cmp  *Compare
	}
	var pairs []pair
	for i, name := range names {
		pairs = append(pairs, pair{"policy/" + name, i, inputs[name], policyPair(t, comparePolicies[i%len(comparePolicies)])})
		b := inputs[names[(i+1)%len(names)]]
		if len(b) > 0 {
			pairs = append(pairs, pair{"captures/" + name, i, inputs[name], &Compare{Capture: load(t, b), Name: names[(i+1)%len(names)]}})
		}
	}
	for m, mode := range safetyModes {
		st := testStyles(mode.profile, mode.color)
		for _, p := range pairs {
			corpus := strings.Contains(p.name, "corpus/")
			if testing.Short() && !corpus && p.n%len(safetyModes) != m {
				continue // -short: the inputs of names take turns between the modes
			}
			if !mode.color && corpus {
				continue // the text panes draw alike in mono: the corpus runs once
			}
			if strings.HasSuffix(p.name, "/zeros") && !exhaustive() {
				continue // its run of identical rows is squeezed in the byte panes, which compare mode has not
			}
			t.Run(mode.name+"/"+p.name, func(t *testing.T) {
				t.Parallel()
				o := mode.o
				o.Compare = p.cmp
				d := newDriver(t, load(t, p.a), o, st, 100, 30, checker(t, p.name))
				// Pages of text, then of bytes where there is none; the
				// rest of the longest inputs at once.
				d.walk(int64(len(p.a)), min(300, walkPages()), true)
				compareTour(d, tourSizes(p.name))
			})
		}
	}
}

// TestCompareDiffKeys checks where d and D land: on the starts of the
// lines whose input became different text on the other side, in order,
// and nowhere past the last; in the report pane, on differing rows.
func TestCompareDiffKeys(t *testing.T) {
	t.Parallel()
	progress, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "cr-progress.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		a      []byte
		cmp    *Compare
		script []string // keys, then the cursor they leave, alternately
	}{
		// "10%\r50%\r100%\ndone\n" under cr=lines gives the lines 10%,
		// 50%, 100%, done; under cr=drop the line 10%50%100%, done.
		// A's 10% (offset 0) and 50% (4) are nowhere in B; B's joined
		// line (0) is nowhere in A; 100% and done are on both sides.
		{"policy", progress, policyPair(t, "cr=drop"), []string{
			"d", "4", "d", "4", "<end>", "17", "D", "4", "D", "0", "D", "0", "<end>dd", "17",
		}},
		// Two captures, synchronized by offset: bravo (6) and delta (20)
		// differ; charlie (12) is the same bytes in both.
		{"captures", []byte("alpha\nbravo\ncharlie\ndelta\n"), &Compare{Capture: load(t, []byte("alpha\nBRAVO\ncharlie\ndelta!\n")), Name: "b"}, []string{
			"d", "6", "d", "20", "d", "20", "D", "6", "D", "6", "g13<enter>D", "6", "g13<enter>d", "20",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, load(t, tc.a), Options{Compare: tc.cmp}, testStyles(termenv.Ascii, false), 100, 20, nil)
			for i := 0; i < len(tc.script); i += 2 {
				d.press(tc.script[i])
				if got := itoa(d.m.sv().cursor); got != tc.script[i+1] {
					t.Fatalf("after %q: cursor %s, want %s", strings.Join(tc.script[:i+1], " "), got, tc.script[i+1])
				}
			}
			d.press("<end>d")
			if msg := d.m.msg.String(); msg != "no next difference found" {
				t.Errorf("d past the last difference: message %q", msg)
			}
		})
	}

	// In the report pane, d and D select differing rows: cr=drop changes
	// only the bytes out.
	d := newDriver(t, load(t, progress), Options{Compare: policyPair(t, "cr=drop")}, testStyles(termenv.Ascii, false), 100, 20, nil)
	d.press("<tab><tab>")
	if d.m.focus != paneDiff {
		t.Fatalf("focus %d after two tabs, want the compare report", d.m.focus)
	}
	var differing []string
	for _, r := range d.m.cmp.rows {
		if r.differs {
			differing = append(differing, r.name.String())
		}
	}
	if strings.Join(differing, " ") != "totals.bytes_out" {
		t.Errorf("differing rows %q, want totals.bytes_out only", differing)
	}
	d.press("d")
	if r := d.m.cmp.rows[d.m.cmp.sel]; r.name.String() != "totals.bytes_out" || r.a != "18" || r.b != "16" || r.d != "-2" {
		t.Errorf("d selected %q %s %s %s, want totals.bytes_out 18 16 -2", r.name, r.a, r.b, r.d)
	}
	d.press("d")
	if msg := d.m.msg.String(); msg != "no next differing row" {
		t.Errorf("d past the last differing row: message %q", msg)
	}
}

// TestCompareMarksWithoutColour checks that differing and equal lines can
// be told apart with colour off: a ! in the gutter, or a space.
func TestCompareMarksWithoutColour(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("10%\r50%\r100%\ndone\n")), Options{NoColor: true, Compare: policyPair(t, "cr=drop")}, testStyles(termenv.Ascii, false), 100, 20, nil)
	v := d.m.View()
	for _, want := range []string{"┃!10%  ", "┃!50%  ", "┃ 100%  ", "┃ done  ", "│!10%␤50%␤100%  ", "│ done  ", "│! totals.bytes_out", "│  totals.bytes_in"} {
		if !strings.Contains(v, want) {
			t.Errorf("View has no %q:\n%s", want, v)
		}
	}
	if bytes.Contains([]byte(v), []byte("\x1b[")) {
		t.Error("View has SGR with the Ascii profile")
	}
}

// TestCompareByContent checks that two captures whose bytes shift (B's
// link target is 8 bytes shorter, and one later line differs) are
// compared by their cleaned text: only the line whose text differs is
// marked, and d goes to it, not to every line after the shift.
func TestCompareByContent(t *testing.T) {
	t.Parallel()
	a := []byte("head\n\x1b]8;;https://evil.example/long/\x1b\\docs\x1b]8;;\x1b\\\nsame one\nsame two\nchanged A\nsame three\n")
	b := []byte("head\n\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\\nsame one\nsame two\nchanged B\nsame three\n")
	d := newDriver(t, load(t, a), Options{Compare: &Compare{Capture: load(t, b), Name: "b"}}, testStyles(termenv.Ascii, false), 120, 30, nil)
	var marked []string
	for _, r := range d.m.f.text {
		if r.differs && r.ok {
			var s strings.Builder
			for _, pc := range r.pieces {
				s.WriteString(pc.s.String())
			}
			marked = append(marked, s.String())
		}
	}
	if strings.Join(marked, "|") != "changed A" {
		t.Errorf("A's marked lines %q, want only \"changed A\"", marked)
	}
	d.press("d")
	if d.m.sv().cursor != 5 || !strings.Contains(d.m.msg.String(), "hyperlink OSC 8 link: 33 -> 28 bytes, 5 shorter in B") {
		t.Errorf("first d at %d, message %q; want the link at 5 and what changed", d.m.sv().cursor, d.m.msg)
	}
	d.press("d")
	if want := int64(bytes.Index(a, []byte("changed A"))); d.m.sv().cursor != want {
		t.Errorf("second d went to %d, want %d (changed A)", d.m.sv().cursor, want)
	}
}

// paneRows returns the rows of a compare-mode text pane (B's when b is
// set) that hold text, each after its gutter mark: ! for a line whose
// text differs, ~ for one whose bytes differ under the same text, else
// a space; ">" after the mark flags the cursor's row.
func paneRows(m *model, b bool) []string {
	rows, seq := m.f.text, m.f.seq
	if b {
		rows, seq = m.f.textB, m.f.seqB
	}
	var out []string
	for i, r := range rows {
		if !r.ok {
			continue
		}
		mark := " "
		switch {
		case r.differs:
			mark = "!"
		case i < len(seq) && seq[i]:
			mark = "~"
		}
		if i == m.f.textCur {
			mark += ">"
		}
		var s strings.Builder
		for _, pc := range r.pieces {
			s.WriteString(pc.s.String())
		}
		if s.Len() == 0 && mark == " " {
			continue // the empty line after the last LF
		}
		out = append(out, mark+s.String())
	}
	return out
}

// compareDriver returns a driver of A beside B at 140×34, aligned unless
// limit is 0 (B then follows A's offset, as past maxAlign).
func compareDriver(t *testing.T, a, b []byte, o Options, st Styles, limit int64) *driver {
	t.Helper()
	o.Compare = &Compare{Capture: load(t, b), Name: "b"}
	d := &driver{t: t, m: newModel(load(t, a), o, st)}
	d.m.cmp.limit = limit
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: 140, Height: 34})
	return d
}

// TestCompareLinkTarget is issue 13's "done when": two captures that
// differ only in an OSC 8 target. Only the link's line is marked (~: the
// same text, other bytes), d goes to the link and says what changed, the
// detail pane shows both targets whole, escaped, with their lengths, the
// part only A has in reverse video; and --hide-payloads hides both.
func TestCompareLinkTarget(t *testing.T) {
	t.Parallel()
	a := []byte("head line\n\x1b]8;;https://evil.example/login/verify/account\x1b\\docs\x1b]8;;\x1b\\\nsame one\nsame two\n")
	b := []byte("head line\n\x1b]8;;https://evil.example/login\x1b\\docs\x1b]8;;\x1b\\\nsame one\nsame two\n")
	st := testStyles(termenv.ANSI, false)
	d := compareDriver(t, a, b, Options{}, st, maxAlign)
	wantRows := []string{" >head line", "~␣docs␣", " same one", " same two"}
	for _, side := range []bool{false, true} {
		if got := paneRows(d.m, side); strings.Join(got, "|") != strings.Join(wantRows, "|") {
			t.Errorf("B=%v: rows %q, want %q", side, got, wantRows)
		}
	}
	d.press("d")
	if a, b := d.m.sv().cursor, d.m.cmp.sv.cursor; a != 10 || b != 10 {
		t.Errorf("d went to A %d, B %d; want the link at 10 in both", a, b)
	}
	if msg, want := d.m.msg.String(), "next difference at A 0x0000000a (10), B 0x0000000a (10): finding 0x0000000a A+B hyperlink OSC 8 link: 48 -> 33 bytes, 15 shorter in B"; msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}
	detail := strings.Join(d.m.f.detail, "\n")
	for _, want := range []string{
		"A at 0x0000000a (10), B at 0x0000000a (10): finding 0x0000000a A+B hyperlink OSC 8 link: 48 -> 33 bytes, 15 shorter in B",
		"target (41 bytes): ", "https://evil.example/login" + st.cell(render.ClassPayload, stNormal).post + st.differPart.wrap(render.TextString("/verify/account")),
		"target (26 bytes): ", "https://evil.example/login",
		"link parameters (0 bytes): ",
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail pane has no %q:\n%s", want, detail)
		}
	}
	for _, row := range d.m.f.detail {
		plain := stripSGR(row)
		same := strings.Contains(plain, "hazard: ") || strings.Contains(plain, "link parameters")
		if strings.Contains(plain, "target (") && !strings.HasPrefix(plain, "!") || same && strings.HasPrefix(plain, "!") {
			t.Errorf("detail row %q: the target differs, the hazard and the parameters do not", plain)
		}
	}
	d.press("d")
	if msg := d.m.msg.String(); msg != "no next difference found" {
		t.Errorf("second d: message %q", msg)
	}

	h := compareDriver(t, a, b, Options{HidePayloads: true}, st, maxAlign)
	h.press("d")
	v := h.m.View()
	if strings.Contains(v, "evil.example") || strings.Count(v, "payload: ") != 2 {
		t.Errorf("--hide-payloads: the view shows a target, or not both payload sizes:\n%s", v)
	}
}

// stripSGR returns a View line without its SGR.
func stripSGR(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		s = s[i+strings.IndexByte(s[i:], 'm')+1:]
	}
}

// TestCompareInsertedLine checks two captures where B has a line more
// and another colour: B's cursor follows A's through the alignment, the
// line only B has is marked !, the recoloured line ~ on both sides, d
// visits B's line (A's cursor where it would be) and then the changed
// SGR paired with its counterpart, and a finding after the shift is the
// same finding on both sides, not one only A and one only B has.
func TestCompareInsertedLine(t *testing.T) {
	t.Parallel()
	a := []byte("alpha\n\x1b[31mred\x1b[0m text\nbravo \x1b]0;title\x07\ncharlie\n")
	b := []byte("alpha\ninserted line\n\x1b[32mred\x1b[0m text\nbravo \x1b]0;title\x07\ncharlie\n")
	d := compareDriver(t, a, b, Options{}, testStyles(termenv.Ascii, false), maxAlign)
	check := func(step string, wantA, wantB []string, curA, curB int64, msg string) {
		t.Helper()
		if got := paneRows(d.m, false); strings.Join(got, "|") != strings.Join(wantA, "|") {
			t.Errorf("%s: A's rows %q, want %q", step, got, wantA)
		}
		if got := paneRows(d.m, true); strings.Join(got, "|") != strings.Join(wantB, "|") {
			t.Errorf("%s: B's rows %q, want %q", step, got, wantB)
		}
		if a, b := d.m.sv().cursor, d.m.cmp.sv.cursor; a != curA || b != curB {
			t.Errorf("%s: cursors A %d, B %d; want %d, %d", step, a, b, curA, curB)
		}
		if got := d.m.msg.String(); !strings.Contains(got, msg) {
			t.Errorf("%s: message %q, want %q in it", step, got, msg)
		}
	}
	check("start", []string{" >alpha", "~␥red␥ text", " bravo ␣", " charlie"},
		[]string{" >alpha", "!inserted line", "~␥red␥ text", " bravo ␣", " charlie"}, 0, 0, "")
	d.press("d")
	check("d", []string{" alpha", "~>␥red␥ text", " bravo ␣", " charlie"},
		[]string{" alpha", "!>inserted line", "~␥red␥ text", " bravo ␣", " charlie"}, 6, 6,
		"next difference at A 0x00000006 (6), B 0x00000006 (6): only in B: text, 14 bytes")
	d.press("d")
	check("dd", []string{" alpha", "~>␥red␥ text", " bravo ␣", " charlie"},
		[]string{" alpha", "!inserted line", "~>␥red␥ text", " bravo ␣", " charlie"}, 6, 20,
		"B 0x00000014 (20): CSI 31m -> CSI 32m, 5 bytes on both sides, other bytes")
	detail := strings.Join(d.m.f.detail, "\n")
	for _, want := range []string{"!A token: csi CSI 31m at 0x00000006 (6), 5 bytes", "B token: csi CSI 32m at 0x00000014 (20), 5 bytes", "parameters: P1=31", "parameters: P1=32", "meaning: SGR: foreground green"} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail pane has no %q:\n%s", want, detail)
		}
	}
	d.press("d")
	check("ddd", []string{" alpha", "~>␥red␥ text", " bravo ␣", " charlie"},
		[]string{" alpha", "!inserted line", "~>␥red␥ text", " bravo ␣", " charlie"}, 6, 20, "no next difference found")
	d.press("D")
	check("D", []string{" alpha", "~>␥red␥ text", " bravo ␣", " charlie"},
		[]string{" alpha", "!>inserted line", "~␥red␥ text", " bravo ␣", " charlie"}, 6, 6, "previous difference at A 0x00000006 (6), B 0x00000006 (6)")
	d.press("j")
	check("j", []string{" alpha", "~␥red␥ text", " >bravo ␣", " charlie"},
		[]string{" alpha", "!inserted line", "~␥red␥ text", " >bravo ␣", " charlie"}, 24, 38, "")
	// In B's pane, j moves B's cursor a line of B down, onto the line
	// only B has, and A's to where that line would be.
	d.press("<home><tab>j")
	if a, b := d.m.sv().cursor, d.m.cmp.sv.cursor; d.m.focus != paneTextB || a != 6 || b != 6 {
		t.Errorf("j in B's pane: focus %d, cursors A %d, B %d; want B's pane, 6, 6", d.m.focus, a, b)
	}
	d.press("j<stab>")
	if a, b := d.m.sv().cursor, d.m.cmp.sv.cursor; a != 11 || b != 25 {
		t.Errorf("j j in B's pane: cursors A %d, B %d; want the r of red on both sides, 11, 25", a, b)
	}
	// Typed together, two d go as far as two d typed one by one.
	d.press("<home>")
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("dd")})
	if a, b := d.m.sv().cursor, d.m.cmp.sv.cursor; a != 6 || b != 20 {
		t.Errorf("dd typed together: cursors A %d, B %d; want 6, 20", a, b)
	}
	var findings []string
	for _, r := range d.m.cmp.rows {
		if strings.HasPrefix(r.name.String(), "findings:") {
			findings = append(findings, r.name.String())
		}
	}
	if want := "findings: 1 same, 0 only A, 0 only B, 0 changed"; strings.Join(findings, "") != want {
		t.Errorf("findings row %q, want %q", findings, want)
	}
}

// TestCompareUnaligned checks compare mode past maxAlign, where B follows
// A's offset: lines are still compared by content, d follows A's
// differing lines, and the detail pane says the captures are not
// aligned.
func TestCompareUnaligned(t *testing.T) {
	t.Parallel()
	a := []byte("head\n\x1b]8;;https://evil.example/long/\x1b\\docs\x1b]8;;\x1b\\\nsame one\nchanged A\nsame three\n")
	b := []byte("head\n\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\\nsame one\nchanged B\nsame three\n")
	d := compareDriver(t, a, b, Options{}, testStyles(termenv.Ascii, false), 0)
	if got, want := paneRows(d.m, false), []string{" >head", " ␣docs␣", " same one", "!changed A", " same three"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("A's rows %q, want %q", got, want)
	}
	d.press("dd")
	if want := int64(bytes.Index(a, []byte("changed A"))); d.m.sv().cursor != want || d.m.cmp.sv.cursor != want {
		t.Errorf("dd went to A %d, B %d; want %d in both", d.m.sv().cursor, d.m.cmp.sv.cursor, want)
	}
	if !strings.Contains(d.m.f.detail[0], "B at the same offset (captures over 0 MiB are not aligned)") {
		t.Errorf("detail summary %q", d.m.f.detail[0])
	}
}

// TestCompareLegend checks that the help (?) of compare mode explains its
// line marks, ! and ~, and that the help of one capture does not.
func TestCompareLegend(t *testing.T) {
	t.Parallel()
	data := []byte("10%\r50%\r100%\ndone\n")
	legend := []string{"! compare: the line's text differs", "~ compare: same text, different bytes"}
	for _, tc := range []struct {
		name string
		cmp  *Compare
		want bool
	}{{"compare", policyPair(t, "cr=drop"), true}, {"one capture", nil, false}} {
		d := newDriver(t, load(t, data), Options{Compare: tc.cmp}, testStyles(termenv.Ascii, false), 200, 40, nil)
		d.press("?")
		v := d.m.View()
		for _, l := range legend {
			if strings.Contains(v, l) != tc.want {
				t.Errorf("%s: help shows %q: %v, want %v:\n%s", tc.name, l, !tc.want, tc.want, v)
			}
		}
	}
}
