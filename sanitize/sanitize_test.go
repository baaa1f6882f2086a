package sanitize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/internal/hostile"
)

const corpusDir = "../testdata/corpus"

type corpusCase struct {
	name string
	in   []byte
	opts Options
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.bin"))
	if err != nil || len(files) < 80 {
		t.Fatalf("corpus: %d cases (%v), want at least 80", len(files), err)
	}
	var cs []corpusCase
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".bin")
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var opts Options
		if p, err := os.ReadFile(filepath.Join(corpusDir, name+".policy")); err == nil {
			if opts, err = ParsePolicy(strings.TrimSpace(string(p))); err != nil {
				t.Fatalf("%s.policy: %v", name, err)
			}
		}
		cs = append(cs, corpusCase{name, in, opts})
	}
	return cs
}

// TestCorpus compares each case with its goldens NAME.clean.txt and
// NAME.report.json.
func TestCorpus(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			out, rep := Bytes(c.in, c.opts)
			js, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			js = append(js, '\n')
			textPath := filepath.Join(corpusDir, c.name+".clean.txt")
			repPath := filepath.Join(corpusDir, c.name+".report.json")
			golden.Check(t, textPath, out)
			golden.Check(t, repPath, js)
		})
	}
}

// checkInvariants asserts DESIGN.md invariant 1 on cleaned text.
func checkInvariants(t *testing.T, in, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Fatalf("%q: output is not valid UTF-8: %q", in, out)
	}
	for _, r := range string(out) {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7F || r >= 0x80 && r <= 0x9F {
			t.Fatalf("%q: output holds control U+%04X: %q", in, r, out)
		}
	}
}

// payloadSpans returns the [start, end) offsets of the control string
// payloads in p, without an OSC's command number.
func payloadSpans(p []byte, o Options) [][2]int64 {
	var spans [][2]int64
	d := decode.Decoder{LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL}
	for tok := range d.Tokens(p) {
		if !tok.Kind.IsString() {
			continue
		}
		// The payload runs up to the terminator; C0 controls embedded
		// between ESC and the introducer's final byte may precede it.
		end := tok.End()
		switch {
		case tok.Term == decode.TermST, tok.Term == decode.TermC1 && end >= 2 && p[end-2] == 0xC2 && p[end-1] == 0x9C:
			end -= 2
		case tok.Term != decode.TermNone, p[end-1] == 0x1B: // or an ESC left pending at the end
			end--
		}
		start := end - tok.Payload
		if tok.Kind == decode.KindOSC {
			// The command number is a named detail, not payload.
			for start < end && p[start] >= '0' && p[start] <= '9' {
				start++
			}
		}
		spans = append(spans, [2]int64{start, end})
	}
	return spans
}

// payloadWindows returns the 8-byte windows of control string payloads in
// p that are not also in its text, for invariant 2 on the report. Text is
// the bytes of its text tokens joined, since removing a control between
// two runs of text joins them.
func payloadWindows(p []byte, o Options) []string {
	var text []byte
	for tok := range (decode.Decoder{LoneC1: o.C1 == C1Lone, APCBEL: o.APCBEL}).Tokens(p) {
		if tok.Kind == decode.KindText {
			text = append(text, p[tok.Off:tok.End()]...)
		}
	}
	var ws []string
	for _, pl := range payloadSpans(p, o) {
		for i := pl[0]; i+8 <= pl[1]; i++ {
			if w := p[i : i+8]; !bytes.Contains(text, w) {
				ws = append(ws, string(w))
			}
		}
	}
	return ws
}

// blankPayloads returns a copy of p with every payload byte of its control
// strings replaced by 'x', which leaves each string's extent as it was:
// terminators are not payload, and no UTF-8 unit is left open in it.
func blankPayloads(p []byte, o Options) []byte {
	q := bytes.Clone(p)
	for _, pl := range payloadSpans(p, o) {
		for i := pl[0]; i < pl[1]; i++ {
			q[i] = 'x'
		}
	}
	return q
}

// checkNoPayload asserts invariant 2 for p and its cleaned text and
// report: the text does not depend on any payload byte (outside OSC 8
// URIs under LinksAppend, which it shows on purpose), and no 8 bytes of a
// payload appear in the report.
func checkNoPayload(t *testing.T, name string, p []byte, o Options, out []byte, rep Report) {
	t.Helper()
	if o.Links != LinksAppend {
		if blank, _ := Bytes(blankPayloads(p, o), o); !bytes.Equal(blank, out) {
			t.Fatalf("%s %q: cleaned text depends on payload bytes:\n with %q\nblank %q", name, p, out, blank)
		}
	}
	js, _ := json.Marshal(rep)
	for _, w := range payloadWindows(p, o) {
		if bytes.Contains(js, []byte(w)) {
			t.Fatalf("%s %q: payload %q in report", name, p, w)
		}
	}
}

// TestNoPayloadLeaks proves invariant 2 for every corpus case: no payload
// of a removed control string appears in the cleaned text or the report.
func TestNoPayloadLeaks(t *testing.T) {
	for _, c := range loadCorpus(t) {
		out, rep := Bytes(c.in, c.opts)
		checkNoPayload(t, c.name, c.in, c.opts, out, rep)
	}
}

// TestCorpusSplits feeds every corpus case split at every byte boundary,
// and byte by byte, and expects the whole-buffer text and report.
func TestCorpusSplits(t *testing.T) {
	for _, c := range loadCorpus(t) {
		wantOut, wantRep := Bytes(c.in, c.opts)
		checkInvariants(t, c.in, wantOut)
		cuts := len(c.in)
		if cuts > 600 {
			cuts = 600 // the 10,000-parameter case: its first 600 boundaries
		}
		for cut := 0; cut <= cuts; cut++ {
			assertSplit(t, c.name, c.in, c.opts, []int{cut}, wantOut, wantRep)
		}
		every := make([]int, 0, len(c.in))
		for i := 1; i < len(c.in); i++ {
			every = append(every, i)
		}
		assertSplit(t, c.name, c.in, c.opts, every, wantOut, wantRep)
	}
}

func assertSplit(t *testing.T, name string, in []byte, o Options, cuts []int, wantOut []byte, wantRep Report) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, o)
	prev := 0
	for _, c := range cuts {
		w.Write(in[prev:c])
		prev = c
	}
	w.Write(in[prev:])
	w.Close()
	if !bytes.Equal(buf.Bytes(), wantOut) {
		t.Fatalf("%s split %v:\n got %q\nwant %q", name, cuts[:min(len(cuts), 3)], buf.Bytes(), wantOut)
	}
	if got := w.Report(); !reflect.DeepEqual(got, wantRep) {
		t.Fatalf("%s split %v: report differs:\n got %+v\nwant %+v", name, cuts[:min(len(cuts), 3)], got, wantRep)
	}
}

var policies = []Options{
	{},
	{BS: BSOverstrike, Links: LinksAppend, FormatChars: FormatEscape},
	{CR: CRDrop, FormatChars: FormatKeep, C1: C1Lone, APCBEL: true},
}

func TestRandomSplitsAndInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 3000 {
		o := policies[i%len(policies)]
		p := hostile.Bytes(r, r.IntN(160))
		out, rep := Bytes(p, o)
		checkInvariants(t, p, out)
		var cuts []int
		for c := 1; c < len(p); c += 1 + r.IntN(7) {
			cuts = append(cuts, c)
		}
		assertSplit(t, "random", p, o, cuts, out, rep)
	}
}

// TestIdempotent: cleaning cleaned text changes nothing, except under
// format-chars=escape, whose second pass tells its first pass's escapes
// apart from real format characters ("<U+202E>" becomes "<U+003C>U+202E>")
// by design.
func TestIdempotent(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	check := func(name string, p []byte, o Options) {
		if o.FormatChars == FormatEscape {
			return
		}
		once, _ := Bytes(p, o)
		twice, _ := Bytes(once, o)
		if !bytes.Equal(once, twice) {
			t.Fatalf("%s: clean(clean(x)) != clean(x):\n once %q\ntwice %q", name, once, twice)
		}
	}
	for _, c := range loadCorpus(t) {
		check(c.name, c.in, c.opts)
	}
	for i := range 2000 {
		check("random", hostile.Bytes(r, r.IntN(120)), policies[i%len(policies)])
	}
}

// TestPlainTextIdentical is invariant 6.
func TestPlainTextIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	pool := strings.Split("a|b|c| |x|y|z|\t|\n|.|;|:|!|ÿ|é|р|ћ|क|终|😀|👨|ل\u200cل|क\u094d\u200dष|é\u00adz|\u05d0\u200f|"+
		"😀\ufe0f|#\ufe0f\u20e3|\u2764\ufe0f\u200d\U0001F525|葛\U000E0100|\u1820\u180b|\u115f\u1161|\u1100\u1160", "|")
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(60) {
			sb.WriteString(pool[r.IntN(len(pool))])
		}
		in := []byte(sb.String())
		out, rep := Bytes(in, Options{})
		if !bytes.Equal(in, out) {
			t.Fatalf("plain text changed:\n in %q\nout %q", in, out)
		}
		if rep.Removed != (Counts{}) || rep.Flags != (Flags{}) {
			t.Fatalf("%q: report not empty: %+v", in, rep)
		}
	}
}

func TestPolicies(t *testing.T) {
	tests := []struct {
		name, in, policy, want string
	}{
		{"cr lines", "a\rb\r\nc\r", "", "a\nb\nc\n"},
		{"cr screen", "abcd\rXY\n", "cr=screen", "XYcd\n"},
		{"cr overwrite is screen", "abcd\r\x1b[KXY\n", "cr=overwrite", "XY\n"},
		{"cr drop", "ab\rcd\r\n", "cr=drop", "abcd\n"},
		{"cr lines ignores removed controls", "50%\r\x1b[K60%\n", "", "50%\n60%\n"},
		{"bs drop", "ab\bc", "", "abc"},
		{"bs overstrike", "ab\bc", "bs=overstrike", "ac"},
		{"bs overstrike underline", "_\bx", "bs=overstrike", "x"},
		{"links drop", "\x1b]8;;http://a/\x07L\x1b]8;;\x07", "", "L"},
		{"links append", "\x1b]8;;http://a/\x07L\x1b]8;;\x07", "links=append", "L <http://a/>"},
		{"links append non-http", "\x1b]8;;file:///etc\x07L\x1b]8;;\x07", "links=append", "L"},
		{"links append upper-case scheme", "\x1b]8;;HTTPS://a/\x07L\x1b]8;;\x07", "links=append", "L <HTTPS://a/>"},
		{"links append replaced open", "\x1b]8;;http://evil/\x07lab\x1b]8;;http://second/\x07el\x1b]8;;\x07", "links=append", "lab <http://evil/>el <http://second/>"},
		{"links append never closed", "\x1b]8;;http://a/\x07L\n", "links=append", "L\n <http://a/>"},
		{"format strip", "a\u202eb", "", "ab"},
		{"format keep", "a\u202eb", "format-chars=keep", "a\u202eb"},
		{"format escape", "a\u202eb\U000E0041", "format-chars=escape", "a<U+202E>b<U+E0041>"},
		{"zwj kept in emoji", "\U0001F469\u200d\U0001F4BB", "", "\U0001F469\u200d\U0001F4BB"},
		{"zwj removed in ascii", "a\u200db", "", "ab"},
		{"c1 introducers", "a\x9b1mb", "", "ab"},
		{"c1 lone", "a\x9b1mb", "c1=lone", "a1mb"},
		{"apc payload", "\x1b_x\x07y\x1b\\z", "", "z"},
		{"apc-bel", "\x1b_x\x07y\x1b\\z", "apc-bel=true", "yz"},
		{"vt ff", "a\vb\fc", "", "a\nb\nc"},
		{"invalid", "a\xffb", "", "a\uFFFDb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParsePolicy(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := String(tc.in, o); got != tc.want {
				t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestParsePolicy(t *testing.T) {
	o, err := ParsePolicy("cr=overwrite, format-chars=keep,apc-bel=true")
	if err != nil || o.CR != CRScreen || o.FormatChars != FormatKeep || !o.APCBEL {
		t.Fatalf("got %+v, %v", o, err)
	}
	for _, bad := range []string{"cr=sideways", "nope=1", "cr", "max-payload=-1"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got, _ := ParsePolicy(Options{CR: CRDrop}.String()); got.CR != CRDrop {
		t.Errorf("String does not round-trip: %+v", got)
	}
}

func TestOffsetMap(t *testing.T) {
	in := []byte("ab\x1b[31mcd\x1b]0;t\x07e\r\nf")
	out, _, m := Map(in, Options{})
	if string(out) != "abcde\nf" {
		t.Fatalf("out %q", out)
	}
	for _, tc := range []struct {
		in         int64
		start, end int64
	}{
		{0, 0, 1}, {1, 1, 2}, {2, 2, 2}, {6, 2, 2}, {7, 2, 3}, {8, 3, 4},
		{9, 4, 4}, {15, 4, 5}, {16, 5, 5}, {17, 5, 6}, {18, 6, 7},
	} {
		if s, e := m.ToOutput(tc.in); s != tc.start || e != tc.end {
			t.Errorf("ToOutput(%d) = %d,%d want %d,%d", tc.in, s, e, tc.start, tc.end)
		}
	}
	for out, want := range []int64{0, 1, 7, 8, 15, 17, 18} {
		if s, _ := m.ToInput(int64(out)); s != want {
			t.Errorf("ToInput(%d) = %d, want %d", out, s, want)
		}
	}
}

func TestTransformer(t *testing.T) {
	in := "a\x1b[31mb\x1b]0;title\x07c\r\nd"
	tr := NewTransformer(Options{})
	var dst [2]byte
	var got []byte
	src := []byte(in)
	for {
		n, m, err := tr.Transform(dst[:], src, true)
		got = append(got, dst[:n]...)
		src = src[m:]
		if err == nil {
			break
		}
	}
	if string(got) != "abc\nd" {
		t.Errorf("got %q", got)
	}
	if r := tr.Report(); r.Removed.OSC != 1 || r.Removed.CSI != 1 {
		t.Errorf("report %+v", r.Removed)
	}
}

func TestWriterAllocs(t *testing.T) {
	p := []byte(strings.Repeat("text \x1b[1;31mred\x1b[0m é中\r\n", 100))
	w := NewWriter(discard{}, Options{})
	w.Write(p)
	allocs := testing.AllocsPerRun(50, func() { w.Write(p) })
	if allocs > 0 {
		t.Errorf("Write allocates %.1f times per call", allocs)
	}
}

// TestSmallWriteAllocs writes in 7-byte and 1-byte pieces, which cut
// characters, sequences and strings between writes: in steady state (the
// findings list full), no allocation.
func TestSmallWriteAllocs(t *testing.T) {
	p := []byte(strings.Repeat("text \x1b[1;31mred\x1b[0m é中\U0001F600 \x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\\r\n", 40))
	for _, size := range []int{7, 1} {
		w := NewWriter(discard{}, Options{})
		write := func() {
			for q := p; len(q) > 0; q = q[min(size, len(q)):] {
				w.Write(q[:min(size, len(q))])
			}
		}
		for range 30 { // past MaxFindings: findings allocate their names
			write()
		}
		if allocs := testing.AllocsPerRun(20, write); allocs > 0 {
			t.Errorf("%d-byte writes: %.1f allocations per %d bytes", size, allocs, len(p))
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestFrameSplit(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, Options{})
	w.Write([]byte("split:\x1b[3"))
	w.Frame()
	w.Write([]byte("2mgreen\x1b[0m\n"))
	w.Frame()
	w.Write([]byte("\x1b[1mbold\n"))
	w.Close()
	r := w.Report()
	if buf.String() != "split:green\nbold\n" || r.Anomalies.Split != 1 {
		t.Fatalf("text %q, split %d", buf.String(), r.Anomalies.Split)
	}
	if f := r.Findings[0]; f.Kind != "split" || f.Offset != 6 || f.Sequence != "CSI 32m" {
		t.Errorf("finding %+v", f)
	}
}

// TestOffsetMapLineMode: under bs=overstrike the map has a point per
// line, at the end of the token that ended it.
func TestOffsetMapLineMode(t *testing.T) {
	in := []byte("10%\b\b\b50%\b\b\b100%\ndone\n")
	out, _, m := Map(in, Options{BS: BSOverstrike})
	if string(out) != "100%\ndone\n" {
		t.Fatalf("out %q", out)
	}
	// "10%\b\b\b50%\b\b\b100%\n" became "100%\n"; "done\n" maps byte for byte.
	for _, tc := range []struct{ in, start, end int64 }{{0, 0, 5}, {16, 0, 5}, {17, 5, 6}, {20, 8, 9}} {
		if s, e := m.ToOutput(tc.in); s != tc.start || e != tc.end {
			t.Errorf("ToOutput(%d) = %d,%d want %d,%d", tc.in, s, e, tc.start, tc.end)
		}
	}
	if s, e := m.ToInput(6); s != 18 || e != 19 {
		t.Errorf("ToInput(6) = %d,%d want 18,19", s, e)
	}
	if s, e := m.ToInput(2); s != 0 || e != 17 {
		t.Errorf("ToInput(2) = %d,%d want 0,17", s, e)
	}
}

// TestSplitReadsBack: what a token reads of the input before its own
// chunk is kept across writes: the base character before a variation
// selector (U+2764 U+FE0F is an emoji sequence, kept; "x" U+FE0F is
// not), and the payload of an OSC 8 link whose URI LinksAppend shows, up
// to the longest URI it shows. Each input is written split at every boundary.
func TestSplitReadsBack(t *testing.T) {
	uri := "https://example.com/" + strings.Repeat("a", MaxLinkURI-len("https://example.com/"))
	links := Options{Links: LinksAppend}
	for _, c := range []struct {
		in   string
		opts Options
		want string
	}{
		{"ab\u2764\uFE0F", Options{}, "ab\u2764\uFE0F"},
		{"a\u00a9\uFE0F", Options{}, "a\u00a9\uFE0F"},
		{"abx\uFE0F", Options{}, "abx"},
		{"é\uFE0F!", Options{}, "é!"},
		{"\x1b[1m\u2764\x1b[0m\uFE0F", Options{}, "\u2764"},
		{"a\x1b]8;;https://example.com/x\x1b\\label\x1b]8;;\x1b\\", links, "alabel <https://example.com/x>"},
		{"\x1b]8;id=" + strings.Repeat("1", 200) + ";" + uri + "\alabel\x1b]8;;\a", links, "label <" + uri + ">"},
	} {
		out, rep := Bytes([]byte(c.in), c.opts)
		if string(out) != c.want {
			t.Errorf("%.40q: %q, want %q", c.in, out, c.want)
			continue
		}
		for cut := 1; cut < len(c.in); cut += 1 + cut/64 {
			assertSplit(t, fmt.Sprintf("%.40q", c.in), []byte(c.in), c.opts, []int{cut}, out, rep)
		}
		every := make([]int, 0, len(c.in))
		for i := 1; i < len(c.in); i++ {
			every = append(every, i)
		}
		assertSplit(t, fmt.Sprintf("%.40q", c.in), []byte(c.in), c.opts, every, out, rep)
	}
}
