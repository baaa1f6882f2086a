package viewer

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

func TestParseOffset(t *testing.T) {
	t.Parallel()
	const cursor, n = 100, 1000
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0x1f", 31, true}, {"0X1F", 31, true}, {"4096", 0, false}, {"999", 999, true}, {" 12 ", 12, true},
		{"0100", 100, true}, {"+16", 116, true}, {"-16", 84, true}, {"+0x10", 116, true}, {"-0x10", 84, true},
		{"50%", 500, true}, {"0%", 0, true}, {"100%", 999, true}, {"12.5%", 125, true}, {"101%", 0, false},
		{"-101", 0, false}, {"", 0, false}, {"zz", 0, false}, {"0x", 0, false}, {"1e3", 0, false},
	} {
		got, err := parseOffset(tc.in, cursor, n)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("parseOffset(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseHex(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"1b 5b": "\x1b[", "1B5B": "\x1b[", " 00 ff ": "\x00\xff"} {
		if got, err := parseHex(in); err != nil || string(got) != want {
			t.Errorf("parseHex(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "zz", "1b 5"} {
		if _, err := parseHex(in); err == nil {
			t.Errorf("parseHex(%q) succeeded", in)
		}
	}
}

// TestReportItems checks that ] and [ can find every removal, anomaly
// and flag the report counts, and that the counts line up with the items.
func TestReportItems(t *testing.T) {
	t.Parallel()
	_, rep, _ := sanitize.Map(demo, sanitize.Options{})
	counts := itemCounts(&rep)
	if len(counts) != len(reportItems) {
		t.Fatalf("%d counts for %d items", len(counts), len(reportItems))
	}
	for i, it := range reportItems {
		if it.group != "kept" && !it.searchable() {
			t.Errorf("%s/%s cannot be searched", it.group, it.name)
		}
		if it.name == "csi" && counts[i] != rep.Removed.CSI {
			t.Errorf("csi item counts %d, report %d", counts[i], rep.Removed.CSI)
		}
	}
}

// TestRows checks squeezing: a run of rows equal to the row above it
// becomes one squeeze row, except the cursor's row, and prev walks back
// over exactly the rows layout walks forward over.
func TestRows(t *testing.T) {
	t.Parallel()
	a, b, c := "AAAA", "BBBB", "CC"
	data := []byte(a + a + a + a + b + a + a + b + b + b + b + b + c)
	r := &rows{src: source{r: bytes.NewReader(data), n: int64(len(data))}, bpr: 4}
	for _, tc := range []struct {
		cursor int64
		want   string
	}{
		{0, "0 *4-16 16 20 24 28 *32-48 48"},
		{9, "0 4 8 12 16 20 24 28 *32-48 48"},
		{5, "0 4 *8-16 16 20 24 28 *32-48 48"},
		{13, "0 *4-12 12 16 20 24 28 *32-48 48"},
		{40, "0 *4-16 16 20 24 28 *32-40 40 44 48"},
		{44, "0 *4-16 16 20 24 28 *32-44 44 48"},
	} {
		got, err := r.layout(0, tc.cursor, 100)
		if err != nil {
			t.Fatal(err)
		}
		if s := rowsString(got); s != tc.want {
			t.Errorf("cursor %d: rows %s, want %s", tc.cursor, s, tc.want)
		}
		for i := len(got) - 1; i > 0; i-- {
			p, err := r.prev(got[i].off, tc.cursor)
			if err != nil || p != got[i-1].off {
				t.Errorf("cursor %d: prev(%d) = %d, %v; want %d", tc.cursor, got[i].off, p, err, got[i-1].off)
			}
		}
	}
}

func rowsString(rs []dispRow) string {
	var b bytes.Buffer
	for i, d := range rs {
		if i > 0 {
			b.WriteByte(' ')
		}
		if d.squeeze {
			b.WriteString("*")
			b.WriteString(itoa(d.off) + "-" + itoa(d.end))
		} else {
			b.WriteString(itoa(d.off))
		}
	}
	return b.String()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// oracle lists the offsets a report item counts in data, from the whole
// stream at once.
func oracle(data []byte, it *reportItem, opts sanitize.Options) []int64 {
	var offs []int64
	var fs []sanitize.Finding
	if it.usesFindings() {
		_, rep, _ := sanitize.Map(data, opts)
		if rep.FindingsOmitted > 0 {
			panic("oracle: the report does not list every finding")
		}
		fs = rep.Findings
	}
	if it.match != nil {
		d := decoderFor(opts)
		emit := func(t *decode.Token) {
			if it.match(t, &opts) && !it.excepted(fs, t.Off, &opts) {
				offs = append(offs, t.Off)
			}
		}
		d.Feed(data, emit)
		d.End(emit)
	}
	for i := range fs {
		if it.found != nil && it.found(&fs[i], &opts) {
			offs = append(offs, fs[i].Offset)
		}
	}
	slices.Sort(offs)
	return slices.Compact(offs)
}

// runJob runs a job to its end.
func runJob(t *testing.T, j job) (bool, int64) {
	t.Helper()
	for {
		done, found, off, err := j.step()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return found, off
		}
	}
}

// TestSeek checks n, N, ] and [ against the whole-stream oracle, with the
// index built and with none, from cursors all over the input.
func TestSeek(t *testing.T) {
	t.Parallel()
	// The sparse input has few enough findings for one report to list them
	// all (sanitize.MaxFindings); the dense one serves the items that are
	// told by token.
	var sparse []byte
	for i := uint64(0); len(sparse) < 150<<10; i++ {
		sparse = append(sparse, "plain text, nothing to see here\r\n"...)
		if i%40 == 0 {
			sparse = append(sparse, hostile(i, 24)...)
		}
	}
	inputs := map[string][]byte{"demo": demo, "dense": hostile(7, 200<<10), "sparse": sparse}
	opts := sanitize.Options{}
	for name, data := range inputs {
		src := source{r: bytes.NewReader(data), n: int64(len(data))}
		built := newIndex(0, src, opts, nil)
		for !built.decodeDone {
			built.decodeStep()
		}
		items := append([]reportItem{seqItem}, reportItems...)
		for i := range items {
			it := &items[i]
			if !it.searchable() || name == "dense" && it.usesFindings() {
				continue
			}
			want := oracle(data, it, opts)
			step := max(1, int64(len(data))/cursorsPerInput())
			for cursor := int64(0); cursor < int64(len(data)); cursor += step {
				next, prev := int64(-1), int64(-1)
				for _, o := range want {
					if o > cursor && next < 0 {
						next = o
					}
					if o < cursor {
						prev = o
					}
				}
				for _, x := range []*index{built, newIndex(0, src, opts, nil)} {
					for _, dir := range []int64{1, -1} {
						found, off := runJob(t, newSeek(x, it, opts, cursor, dir))
						w := next
						if dir < 0 {
							w = prev
						}
						if !found {
							off = -1
						}
						if off != w {
							t.Errorf("%s: %s from %d dir %d = %d, want %d", name, it.name, cursor, dir, off, w)
						}
					}
				}
			}
		}
	}
}

// TestSearch checks text and hex search against the whole stream.
func TestSearch(t *testing.T) {
	t.Parallel()
	data := slices.Concat(hostile(3, 150<<10), []byte("a NeEdLe in the middle "), hostile(4, 150<<10), []byte("needle at the end"))
	src := source{r: bytes.NewReader(data), n: int64(len(data))}
	x := newIndex(0, src, sanitize.Options{}, nil)
	text, _, om := sanitize.Map(data, sanitize.Options{})
	for _, q := range []string{"plain text", "needle", "NeEdLe", "link", "终端"} {
		var at []int64
		hay := text
		if q == strings.ToLower(q) {
			hay = asciiLower(text) // smart case: a query in lower case matches any case
		}
		for k := 0; ; {
			i := bytes.Index(hay[k:], []byte(q))
			if i < 0 {
				break
			}
			s, _ := om.ToInput(int64(k + i))
			at = append(at, s)
			k += i + 1
		}
		if len(at) == 0 {
			t.Fatalf("no %q in the input", q)
		}
		for _, from := range []int64{0, at[0], int64(len(data)) / 2, int64(len(data)) - 1} {
			want := at[0]
			for _, a := range at {
				if a > from {
					want = a
					break
				}
			}
			if found, off := runJob(t, newTextSearch(x, q, false, sanitize.Options{}, from)); !found || off != want {
				t.Errorf("text %q from %d = %d, %v; want %d", q, from, off, found, want)
			}
		}
	}
	pat := []byte("\x1b]52;c;")
	first := int64(bytes.Index(data, pat))
	second := first + 1 + int64(bytes.Index(data[first+1:], pat))
	for from, want := range map[int64]int64{0: first, first: second, int64(len(data)) - 1: first} {
		if found, off := runJob(t, newHexSearch(src, pat, from)); !found || off != want {
			t.Errorf("hex from %d = %d, %v; want %d", from, off, found, want)
		}
	}
	if found, _ := runJob(t, newHexSearch(src, []byte("absent\x00\x01"), 0)); found {
		t.Error("hex search found an absent pattern")
	}
}

// TestKeysTypedTogether checks that keys bubbletea reads in one go, which
// it delivers as one message, each act, and that what follows a key that
// opens a prompt goes into the prompt.
func TestKeysTypedTogether(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.Ascii, false), 100, 30, nil)
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjjl")})
	if got := d.m.sv().cursor; got != 3*int64(d.m.lay.bpr)+1 {
		t.Errorf("cursor after jjjl = %d, want %d", got, 3*d.m.lay.bpr+1)
	}
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g0x40")})
	d.send(tea.KeyMsg{Type: tea.KeyEnter})
	if got := d.m.sv().cursor; got != 0x40 {
		t.Errorf("cursor after g0x40 = %d, want %d", got, 0x40)
	}
}

// TestLateJobResult checks that a search whose result arrives after the
// user moved the cursor does not move it (a goto typed while a search
// runs wins), and that a search left alone still lands on its result.
func TestLateJobResult(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.Ascii, false), 100, 30, nil)
	m := d.m
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}) // held back: the result arrives late
	d.press("g7<enter>")
	d.run(cmd)
	if got := m.sv().cursor; got != 7 {
		t.Errorf("cursor = %d after a late search result, want 7 where the goto put it", got)
	}
	if m.job != nil || !strings.Contains(m.msg.String(), "cursor moved") {
		t.Errorf("job %v, message %q; want the search stopped and said so", m.job, m.msg.String())
	}
	// Keys typed together: the search starts, then the mark moves the
	// cursor in the same message.
	d.press("ma<end>")
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("N'a")})
	d.run(cmd)
	if got := m.sv().cursor; got != 7 {
		t.Errorf("cursor = %d after N'a, want 7 (mark a)", got)
	}
	d.press("n")
	if got := m.sv().cursor; got <= 7 || m.job != nil {
		t.Errorf("cursor = %d, job %v after n; want the next sequence after 7", got, m.job)
	}
}

// TestSeekPartialIndex checks that a block whose long string has not
// ended when the background pass stops is not taken as holding none.
func TestSeekPartialIndex(t *testing.T) {
	t.Parallel()
	text := bytes.Repeat([]byte("text "), 1<<18)
	start := len(text)
	data := slices.Concat(text, []byte("\x1b]52;c;"),
		bytes.Repeat([]byte("A"), 4<<20), []byte("\x07"), bytes.Repeat([]byte("more "), 1<<20))
	src := source{r: bytes.NewReader(data), n: int64(len(data))}
	x := newIndex(0, src, sanitize.Options{}, nil)
	x.decodeStep() // the pass stops inside the OSC
	var osc *reportItem
	for i := range reportItems {
		if reportItems[i].name == "osc" {
			osc = &reportItems[i]
		}
	}
	if found, off := runJob(t, newSeek(x, osc, sanitize.Options{}, 0, 1)); !found || off != int64(start) {
		t.Errorf("next osc = %d, %v; want %d", off, found, start)
	}
}

// TestApproximate checks a jump far past the background pass where no
// synchronizing byte is near (the 1 MiB before it is plain text): the
// view is decoded from just before the place, says so, and is safe.
func TestApproximate(t *testing.T) {
	t.Parallel()
	data := slices.Concat(bytes.Repeat([]byte("\x1b[31mred\x1b[0m text\r\n"), 1<<20), bytes.Repeat([]byte("plain text\r\n"), 2<<20), []byte("\x1b]0;end\x07tail"))
	m := newModel(load(t, data), Options{}, testStyles(termenv.Ascii, false))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30}) // no background pass runs
	for _, k := range keys("g90%<enter>") {
		m.Update(k)
	}
	if m.err != nil {
		t.Fatal(m.err)
	}
	v := m.View()
	if !strings.Contains(v, "approximate") {
		t.Error("a view decoded ahead of the index does not say it is approximate")
	}
	if probs := viewProblems(v, 120, 30); len(probs) > 0 {
		t.Errorf("unsafe or misshapen View: %q", probs)
	}
	if !m.f.tokOK || m.f.tok.Off > m.sv().cursor || m.f.tok.End() <= m.sv().cursor {
		t.Errorf("token under the cursor %d: %+v, ok %v", m.sv().cursor, m.f.tok, m.f.tokOK)
	}
}

// TestStreamsAndFrames checks switching streams and jumping between
// frames of a script(1) capture with input and output.
func TestStreamsAndFrames(t *testing.T) {
	t.Parallel()
	c, err := capture.Open("../capture/testdata/samples/script-io.typescript",
		capture.OpenOptions{Timing: "../capture/testdata/samples/script-io.timing"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := newDriver(t, c, Options{Name: "script-io"}, testStyles(termenv.Ascii, false), 160, 30, nil)
	title := func() string { return strings.SplitN(d.m.View(), "\n", 2)[0] }
	if !strings.Contains(title(), "stream output 1/2") || !strings.Contains(title(), "before frame 1/") {
		t.Errorf("title %q", title())
	}
	d.press(">>")
	sv := d.m.sv()
	if i := sv.frameAt(sv.cursor); i != 1 || sv.cursor != sv.frames[1].Off {
		t.Errorf("after >>: cursor %d in frame %d, want the start of frame 2 at %d", sv.cursor, i, sv.frames[1].Off)
	}
	if !strings.Contains(title(), "frame 2/") || !strings.Contains(title(), "s") {
		t.Errorf("title %q", title())
	}
	d.press("<")
	if i := sv.frameAt(sv.cursor); i != 0 {
		t.Errorf("after <: frame %d, want 1", i+1)
	}
	d.press("s")
	if !strings.Contains(title(), "stream input 2/2") {
		t.Errorf("after s: title %q", title())
	}
	d.press("s")
	if d.m.sv() != sv || sv.cursor != sv.frames[0].Off {
		t.Error("switching back did not return to the place in the output stream")
	}
}

// TestFrameBoundaries checks a ttyrec whose CSI is split across frames:
// the report pane counts it as split, as capture.Clean (bytelens report)
// does, the hex pane marks the row where frame 2 starts, and the status
// line says the sequence is split and which frame the cursor is in.
func TestFrameBoundaries(t *testing.T) {
	t.Parallel()
	c, err := capture.Open("../capture/testdata/samples/ttyrec.tty", capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want, err := capture.Clean(io.Discard, &c.Streams[0], sanitize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, c, Options{Name: "ttyrec.tty"}, testStyles(termenv.Ascii, false), 120, 30, nil)
	rep, done := d.m.sv().idx.report()
	if !done || rep.Anomalies.Split != want.Anomalies.Split || rep.Anomalies.Split != 1 {
		t.Errorf("report pane split = %d (done %v), bytelens report says %d; want 1", rep.Anomalies.Split, done, want.Anomalies.Split)
	}
	d.press("g0xa1<enter>")
	v := d.m.View()
	if !strings.Contains(v, "split across frames 1/2") {
		t.Errorf("the status line does not say the CSI at 0xa1 is split:\n%s", v)
	}
	if !strings.Contains(v, "0x000000a0>") {
		t.Errorf("the hex row holding the start of frame 2 (0xa4) is not marked:\n%s", v)
	}
	d.press("g0xa4<enter>")
	if v := d.m.View(); !strings.Contains(v, "frame 2/") || !strings.Contains(v, "starts here") {
		t.Errorf("the status line does not say frame 2 starts at the cursor:\n%s", v)
	}
}

// TestPromptsOpenEmpty checks that a search prompt opens empty, what is
// typed replaces the last query instead of appending to it, and Enter on
// the empty prompt searches for the last query again.
func TestPromptsOpenEmpty(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("one link, two link, hunter2 link\n")), Options{}, testStyles(termenv.Ascii, false), 100, 30, nil)
	d.press("/link<enter>")
	if got := d.m.sv().cursor; got != 4 {
		t.Fatalf("cursor after /link = %d, want 4", got)
	}
	d.press("/")
	if v := d.m.input.Value(); v != "" {
		t.Errorf("search prompt opened with %q, want it empty", v)
	}
	if view := d.m.View(); !strings.Contains(view, "search cleaned text (smart case; tab: cleaned/raw, ctrl+t: case): ") || !strings.Contains(view, "enter: link again") {
		t.Errorf("prompt line does not show the label and the last query as a placeholder:\n%s", view)
	}
	d.press("<enter>")
	if got := d.m.sv().cursor; got != 14 {
		t.Errorf("cursor after / and enter = %d, want 14, the next link", got)
	}
	d.press("/hunter<enter>")
	if got, q := d.m.sv().cursor, d.m.lastQ[promptText]; got != 20 || q != "hunter" {
		t.Errorf("cursor %d, query %q after /hunter; want 20, hunter (not linkhunter)", got, q)
	}
	d.press("x6c 69<enter>")
	if got := d.m.sv().cursor; got != 28 {
		t.Errorf("cursor after x6c 69 = %d, want 28", got)
	}
	d.press("x")
	if v := d.m.input.Value(); v != "" {
		t.Errorf("hex prompt opened with %q, want it empty", v)
	}
	d.press("<enter>")
	if got := d.m.sv().cursor; got != 4 {
		t.Errorf("cursor after x and enter = %d, want 4 (wrapped around)", got)
	}
}

// TestTextCursorWholeCharacter checks that the cleaned-text pane
// highlights the whole character under the cursor when the cursor is on
// any byte of a multi-byte character, never a part of it as hex.
func TestTextCursorWholeCharacter(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("multilingual: Привет and 中文 ok\n")), Options{}, testStyles(termenv.Ascii, false), 100, 30, nil)
	d.press("/Привет<enter>")
	for i, want := range []string{"П", "П", "р", "р", "и"} {
		if i > 0 {
			d.press("l")
		}
		var got []string
		for _, r := range d.m.f.text {
			for _, pc := range r.pieces {
				if pc.st == stCursor {
					got = append(got, pc.s.String())
				}
				if strings.Contains(pc.s.String(), "<") {
					t.Errorf("cursor %d: cleaned text shows %q, a character cut into bytes", d.m.sv().cursor, pc.s.String())
				}
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("cursor %d: highlighted %q, want %q", d.m.sv().cursor, got, want)
		}
	}
}

// TestLinkStatus checks that the status line says where an OSC 8 link's
// target is: in the detail pane when it is shown, else in the glyph pane,
// or hidden with --hide-payloads.
func TestLinkStatus(t *testing.T) {
	t.Parallel()
	data := []byte("see \x1b]8;;https://x.example/\x1b\\here\x1b]8;;\x1b\\\n")
	for _, tc := range []struct {
		hide   bool
		detail bool
		want   string
	}{
		{false, true, "hyperlink open (target shown in the detail pane)"},
		{false, false, "hyperlink open (target shown in the glyph pane)"},
		{true, true, "hyperlink open (target hidden: --hide-payloads)"},
	} {
		d := newDriver(t, load(t, data), Options{HidePayloads: tc.hide}, testStyles(termenv.Ascii, false), 160, 30, nil)
		if !tc.detail {
			d.press("i")
		}
		d.press("g4<enter>")
		if d.m.lay.shown[paneDetail] != tc.detail {
			t.Fatalf("detail pane shown %v, want %v", d.m.lay.shown[paneDetail], tc.detail)
		}
		if v := d.m.View(); !strings.Contains(v, tc.want) || strings.Contains(v, "target not shown") {
			t.Errorf("hide %v, detail %v: status line does not say %q:\n%s", tc.hide, tc.detail, tc.want, v)
		}
	}
}

// TestLayoutWidths checks the layout at common widths: the report pane
// goes before the byte rows narrow to 4 and before the cleaned text goes,
// the glyph pane is never narrower than its title, and lines cut short
// end in ASCII "...".
func TestLayoutWidths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		w, bpr         int
		report, glyphs bool
	}{
		{200, 16, true, true}, {120, 8, true, true}, {100, 8, true, true}, {80, 8, false, true},
		{60, 4, false, true}, {40, 4, false, false},
	} {
		d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.Ascii, false), tc.w, 20, nil)
		l := &d.m.lay
		if l.bpr != tc.bpr || l.shown[paneReport] != tc.report || l.shown[paneGlyph] != tc.glyphs || !l.shown[paneText] {
			t.Errorf("%d columns: %d bytes per row, report %v, glyphs %v, text %v; want %d, %v, %v, true",
				tc.w, l.bpr, l.shown[paneReport], l.shown[paneGlyph], l.shown[paneText], tc.bpr, tc.report, tc.glyphs)
		}
		if l.shown[paneGlyph] && l.inner[paneGlyph] < len("glyphs") {
			t.Errorf("%d columns: glyph pane %d wide, narrower than its title", tc.w, l.inner[paneGlyph])
		}
		d.press("g0x28d<enter>") // a long description
		v := d.m.View()
		if probs := viewProblems(v, tc.w, 20); len(probs) > 0 {
			t.Errorf("%d columns: %q", tc.w, probs)
		}
		if lines := strings.Split(v, "\n"); tc.w <= 80 && !strings.HasSuffix(strings.TrimRight(lines[len(lines)-3], " "), "...") {
			t.Errorf("%d columns: status line %q not cut with ...", tc.w, lines[len(lines)-3])
		}
	}
}

// TestLoaderWarningShown checks that what the loader skipped is said on
// the screen, not only on stderr behind the alternate screen: a file whose
// first line looks like a cast must not hide its other lines unnoticed.
func TestLoaderWarningShown(t *testing.T) {
	t.Parallel()
	data := []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.5, \"o\", \"shown\\r\\n\"]\nhidden \x1b]0;line\x07 here\n")
	c, err := capture.Load(bytes.NewReader(data), int64(len(data)), capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) == 0 {
		t.Fatalf("%s: the loader gave no warning for line 3", c.Format)
	}
	m := newModel(c, Options{}, testStyles(termenv.Ascii, false))
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 20})
	v := m.View()
	for _, want := range []string{"loading as asciicast", "--format raw", "capture line 3"} {
		if !strings.Contains(v, want) {
			t.Errorf("View lacks %q:\n%s", want, v)
		}
	}
	if probs := viewProblems(v, 150, 20); len(probs) > 0 {
		t.Errorf("unsafe or misshapen View: %q", probs)
	}
	// A raw capture has nothing to warn about.
	if v := newModel(load(t, data), Options{}, testStyles(termenv.Ascii, false)).View(); strings.Contains(v, "loading") {
		t.Errorf("raw capture warns:\n%s", v)
	}
}

// cursorsPerInput is how many cursors TestSeek starts from in each input:
// 40 under CI, 6 otherwise, 3 with -short.
func cursorsPerInput() int64 {
	switch {
	case exhaustive():
		return 40
	case testing.Short():
		return 3
	}
	return 6
}

// TestRowsSpan checks the bound on runs of identical rows over random
// streams of long runs: every run is the maximal stretch of identical
// full rows cut at the run spans, the same whichever of its rows is
// asked for, and layout and prev still walk the same rows.
func TestRowsSpan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 3))
	for range 200 {
		var data []byte
		for len(data) < 300 {
			data = append(data, bytes.Repeat([]byte{byte('a' + r.IntN(3))}, 1+r.IntN(60))...)
		}
		bpr, span := int64(1+r.IntN(6)), int64(5+r.IntN(40))
		rs := &rows{src: source{r: bytes.NewReader(data), n: int64(len(data))}, bpr: bpr, span: span}
		for off := int64(0); off+bpr <= int64(len(data)); off += bpr {
			lo, hi, err := rs.run(off)
			if err != nil {
				t.Fatal(err)
			}
			// The oracle: extend row by row while equal, stopping at the
			// first row start at or past a multiple of span.
			spanLo := (off / span) * span
			if (spanLo+bpr-1)/bpr*bpr > off {
				spanLo -= span
			}
			wlo, whi := off, off+bpr
			for whi+bpr <= int64(len(data)) && whi < (spanLo+span+bpr-1)/bpr*bpr && bytes.Equal(data[whi:whi+bpr], data[off:off+bpr]) {
				whi += bpr
			}
			for wlo-bpr >= 0 && wlo-bpr >= (spanLo+bpr-1)/bpr*bpr && bytes.Equal(data[wlo-bpr:wlo], data[off:off+bpr]) {
				wlo -= bpr
			}
			if lo != wlo || hi != whi {
				t.Fatalf("bpr %d span %d: run(%d) = [%d, %d), want [%d, %d)", bpr, span, off, lo, hi, wlo, whi)
			}
		}
		cursor := r.Int64N(int64(len(data)))
		got, err := rs.layout(0, cursor, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(got) - 1; i > 0; i-- {
			if p, err := rs.prev(got[i].off, cursor); err != nil || p != got[i-1].off {
				t.Fatalf("bpr %d span %d cursor %d: prev(%d) = %d, %v; want %d", bpr, span, cursor, got[i].off, p, err, got[i-1].off)
			}
		}
	}
}

// TestAheadExact checks a jump far past the background pass into text
// with escape sequences: the decoder restarts at the last synchronizing
// byte before the place, so the view is exact, and the token under the
// cursor is the one decoding from 0 finds.
func TestAheadExact(t *testing.T) {
	t.Parallel()
	data := slices.Concat(bytes.Repeat([]byte("\x1b[31mred\x1b[0m text\r\n"), 2<<20), []byte("\x1b]0;end\x07tail"))
	m := newModel(load(t, data), Options{}, testStyles(termenv.Ascii, false))
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30}) // no background pass runs
	for _, k := range keys("g90%<enter>") {
		m.Update(k)
	}
	if m.err != nil {
		t.Fatal(m.err)
	}
	if v := m.View(); strings.Contains(v, "approximate") {
		t.Error("a view decoded from a synchronizing point says it is approximate")
	}
	cur := m.sv().cursor
	var want decode.Token
	for tok := range decode.Tokens(data) {
		if tok.Off <= cur && cur < tok.End() && !tok.Is(decode.FlagEmbedded) {
			want = tok
		}
	}
	// Text is emitted in pieces at Feed boundaries: only its kind is
	// compared.
	if !m.f.tokOK || m.f.tok.Kind != want.Kind || want.Kind != decode.KindText && (m.f.tok.Off != want.Off || m.f.tok.Len != want.Len) {
		t.Errorf("token under the cursor %d: %+v, ok %v; want %+v", cur, m.f.tok, m.f.tokOK, want)
	}
}

// TestHelpEsc checks that Esc closes the full help that ? opened, and
// that the help says so.
func TestHelpEsc(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("text\n")), Options{}, testStyles(termenv.Ascii, false), 160, 30, nil)
	d.press("?")
	if !d.m.help.ShowAll || !strings.Contains(d.m.View(), "close help (esc)") {
		t.Errorf("? did not open the full help, or it does not say Esc closes it")
	}
	d.press("<esc>")
	if d.m.help.ShowAll {
		t.Errorf("Esc did not close the full help")
	}
}
