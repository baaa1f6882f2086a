package render

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/sanitize"
)

// goldenInputs are hostile inputs whose renderings are kept as goldens.
var goldenInputs = []struct{ name, in string }{
	// The research note's sample (viewer-anchors.md §1.0).
	{"sample", "hello \033[31mred\033[0m world\r\nsecret\rHIDE\n\033]0;evil title\007\033]52;c;ZWNobyBwd25lZA==\033\\\033]8;;http://x.example/\033\\link\033]8;;\033\\\n\x9b31mC1\x9bm \xff\xfe bad utf8 caf\xc3\xa9 \xe4\xb8\xad\t tab\x08\x08XX\033[2K\033[8mconceal\033[28m\033[?1049h\033P+q544e\033\\\n"},
	// Payload canaries in every kind of control string.
	{"canaries", "start\n\x1b^PMCANARY\x1b\\\x1b]52;c;CLIPCANARY\x07\x1b]0;TITLECANARY\x07\x1bPDCSCANARY\x1b\\\x1b_APCCANARY\x1b\\\x1bXSOSCANARY\x1b\\\x1bkSCREENCANARY\x1b\\\x9dC1OSCCANARY\x9c\xc2\x9eUTF8PMCANARY\xc2\x9c\x1b]8;;http://LINKCANARY/\x1b\\label\x1b]8;;\x1b\\\nend\n"},
	// C1 in both spellings, UTF-8 that looks like C1, maximal subparts.
	{"c1-utf8", "\xc2\x9b31mred\xc2\x9bm \x9b1mbold\x9bm \xc2\x85NEL \x85 \xd1\x80\xd1\x9b \xe0\xa4\x95 \xe7\xbb\x88 \xe6\x9bh \xf0\x9f\x98\x80 \xed\xa0\x80 \xc0\xaf \xf5\n"},
	// Trojan-source bidi, zero-width and tag characters.
	{"bidi", "access = \"user\u202e \u2066// admin\u2069 \u2066\"\n\u200bzero\u200dwidth\ufeff \U000e0041\U000e0042 e\u0301 x\ufe0f \u00ad\n"},
	// Anomalies: unterminated, aborted, malformed, embedded controls, a
	// long run of identical rows.
	// Text that imitates render's own glyphs and markers, in text and in
	// a title payload: every one must come out escaped.
	{"lookalikes", "fake: ␛]0;T␇ ⋄ ‹CSI 31m› ‹5 bytes› ░░ ␦ ␢ › ␡ ␤\n\x1b]0;‹5 bytes›␛[0m\x07real: \x1b]0;T\x07 \x85 \x1b[31m \xff\n"},
	{"anomalies", "\x1b[3\n1m\x1b[1\x07;2m\x1b[31\x18x\x1b[1;2?m\x1b[\xe4\xb8\xadm\x1b\x1b[m" + strings.Repeat("\x00", 80) + "\x1b]0;x\x9c\x1b\\\x1b]0;never ends"},
}

// TestGoldens renders each golden input with bytelens glyphs (plain,
// chips, payloads), hex and --describe, and compares with testdata. Run
// with -update to rewrite them, then review the diff by hand.
func TestGoldens(t *testing.T) {
	for _, g := range goldenInputs {
		in := []byte(g.in)
		r := bytes.NewReader(in)
		size := int64(len(in))
		outputs := map[string]func(*bytes.Buffer) error{
			"glyphs": func(b *bytes.Buffer) error { return WriteGlyphs(b, r, size, StreamOptions{}) },
			"chips":  func(b *bytes.Buffer) error { return WriteGlyphs(b, r, size, StreamOptions{Chips: true}) },
			"payloads": func(b *bytes.Buffer) error {
				return WriteGlyphs(b, r, size, StreamOptions{Payloads: true})
			},
			"hex":      func(b *bytes.Buffer) error { return HexDump(b, r, size, HexOptions{}) },
			"describe": func(b *bytes.Buffer) error { return WriteDescriptions(b, r, size, StreamOptions{}) },
		}
		for kind, f := range outputs {
			t.Run(g.name+"."+kind, func(t *testing.T) {
				var b bytes.Buffer
				if err := f(&b); err != nil {
					t.Fatal(err)
				}
				checkSafe(t, kind, b.String(), true)
				path := filepath.Join("testdata", g.name+"."+kind+".golden")
				golden.Check(t, path, b.Bytes())
			})
		}
	}
}

// canaries are the words inside the payloads of the "canaries" input.
var canaries = []string{"PMCANARY", "CLIPCANARY", "TITLECANARY", "DCSCANARY", "APCCANARY",
	"SOSCANARY", "SCREENCANARY", "C1OSCCANARY", "UTF8PMCANARY", "LINKCANARY", "CANARY"}

// TestNoPayloadByDefault checks that no payload text reaches the output
// of glyphs (plain and chips), hex and --describe with default options,
// and that --payloads does show it (escaped).
func TestNoPayloadByDefault(t *testing.T) {
	in := []byte(goldenInputs[1].in)
	size := int64(len(in))
	r := bytes.NewReader(in)
	check := func(what string, f func(*bytes.Buffer) error, wantCanary bool) {
		t.Helper()
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		for _, c := range canaries {
			if got := strings.Contains(b.String(), c); got != wantCanary && (c != "CANARY" || !wantCanary) {
				t.Errorf("%s: canary %s present %v, want %v:\n%s", what, c, got, wantCanary, b.String())
			}
		}
	}
	check("glyphs", func(b *bytes.Buffer) error { return WriteGlyphs(b, r, size, StreamOptions{}) }, false)
	check("chips", func(b *bytes.Buffer) error { return WriteGlyphs(b, r, size, StreamOptions{Chips: true}) }, false)
	check("hex", func(b *bytes.Buffer) error { return HexDump(b, r, size, HexOptions{}) }, false)
	check("hex ascii", func(b *bytes.Buffer) error { return HexDump(b, r, size, HexOptions{ASCII: true, Width: 5}) }, false)
	check("describe", func(b *bytes.Buffer) error { return WriteDescriptions(b, r, size, StreamOptions{}) }, false)
	check("glyphs payloads", func(b *bytes.Buffer) error { return WriteGlyphs(b, r, size, StreamOptions{Payloads: true}) }, true)
	check("chips payloads", func(b *bytes.Buffer) error {
		return WriteGlyphs(b, r, size, StreamOptions{Payloads: true, Chips: true})
	}, true)

	// Describe and Decision of every token, and the glyph cells with
	// hidden payloads, carry no payload either.
	w := DecodeEnd(decode.Decoder{}, in)
	var all strings.Builder
	for i := range w.Tokens {
		all.WriteString(Describe(&w.Tokens[i]).String())
		all.WriteString(Decision(&w.Tokens[i], sanitize.Options{}).String())
	}
	for _, c := range GlyphCells(&w, 0, len(in), GlyphOptions{HidePayloads: true}) {
		all.WriteString(c.Text.String())
	}
	for _, c := range canaries {
		if strings.Contains(all.String(), c) {
			t.Errorf("canary %s in descriptions or hidden cells", c)
		}
	}
}

// TestCorpusSafe runs every renderer over the shared hostile corpus.
func TestCorpusSafe(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*.bin"))
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkAll(t, data) })
	}
}

// TestPagedEqualsWhole checks that HexDump and WriteGlyphs give the same
// output when their input spans several pages, with tokens cut by page
// boundaries, as the rendering of each part would suggest: the glyph
// stream equals Glyphs of the whole, and the hex rows of a long input
// match rows computed from one window.
func TestPagedEqualsWhole(t *testing.T) {
	var b strings.Builder
	for b.Len() < 3*pageSize {
		for _, s := range hostileSeeds {
			b.WriteString(s)
		}
		b.WriteString("\x1b]52;c;" + strings.Repeat("Q", 5000) + "\x07中文")
	}
	in := []byte(b.String())
	whole := DecodeEnd(decode.Decoder{}, in)
	var dump bytes.Buffer
	if err := HexDump(&dump, bytes.NewReader(in), int64(len(in)), HexOptions{NoSqueeze: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(dump.String(), "\n"), "\n")
	if want := (len(in)+15)/16 + 1; len(lines) != want {
		t.Fatalf("%d lines, want %d", len(lines), want)
	}
	for i, line := range lines[:len(lines)-1] {
		off := int64(i * 16)
		want := string(appendOffset(nil, off)) + "  " + rowString(&whole, off, int(min(16, int64(len(in))-off)))
		if line != want {
			t.Fatalf("row %d:\n got %q\nwant %q", i, line, want)
		}
	}
	// The stream over pages equals the stream over the whole, which the
	// fuzz target checks for safety; here compare with a one-page read.
	var paged bytes.Buffer
	if err := WriteGlyphs(&paged, bytes.NewReader(in), int64(len(in)), StreamOptions{Payloads: true}); err != nil {
		t.Fatal(err)
	}
	var onePage bytes.Buffer
	gw := &glyphWriter{r: bytes.NewReader(in), o: StreamOptions{Payloads: true}}
	gw.bw = bufio.NewWriter(&onePage)
	gw.page, gw.pageOff = in, 0
	var d decode.Decoder
	d.Feed(in, gw.token)
	gw.page = nil
	d.End(gw.token)
	gw.bw.Flush()
	if paged.String() != onePage.String() {
		t.Fatal("paged glyph stream differs from a one-page decode")
	}
}

func rowString(w *Window, off int64, m int) string {
	b, _ := appendHexRow(nil, nil, w, off, m, 16, GlyphOptions{HidePayloads: true})
	return string(b)
}
