package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// recordPolicies are option sets under which the cleaner takes the record
// path, between them every choice the record path reads: links appended,
// format characters escaped or kept, CRs dropped, C1 alone, APC ended by
// BEL, a short payload limit.
var recordPolicies = []Options{
	{},
	{Links: LinksAppend, FormatChars: FormatEscape},
	{CR: CRDrop, FormatChars: FormatKeep, C1: C1Lone, APCBEL: true, MaxPayload: 8},
}

// written is what a Writer gave for one way of cutting its input: the
// cleaned text, the report, and InGround after each Write.
type written struct {
	out    []byte
	rep    Report
	ground []bool
}

// writeCut writes p to a Writer under o cut at cuts, marking a frame at
// each cut when frames is set, its decoder driven as path says.
func writeCut(p []byte, o Options, cuts []int, frames bool, path pathChoice) written {
	var buf bytes.Buffer
	w := NewWriter(&buf, o)
	w.c.path = path
	var res written
	prev := 0
	for _, c := range append(cuts, len(p)) {
		w.Write(p[prev:c])
		res.ground = append(res.ground, w.InGround())
		if frames {
			w.Frame()
		}
		prev = c
	}
	w.Close()
	res.out, res.rep = buf.Bytes(), w.Report()
	return res
}

// assertPaths checks that the record path, and the choice by piece, give
// what the token path does for p cut at cuts: text, report and InGround
// after each Write.
func assertPaths(t *testing.T, name string, p []byte, o Options, cuts []int, frames bool) {
	t.Helper()
	tok := writeCut(p, o, cuts, frames, pathTokens)
	assertPath(t, name, p, o, cuts, writeCut(p, o, cuts, frames, pathRecords), tok)
	assertPath(t, name+" (by piece)", p, o, cuts, writeCut(p, o, cuts, frames, pathAuto), tok)
}

func assertPath(t *testing.T, name string, p []byte, o Options, cuts []int, rec, tok written) {
	t.Helper()
	if !bytes.Equal(rec.out, tok.out) {
		t.Fatalf("%s %v cuts %v: records give %q, tokens %q", name, o, cuts, rec.out, tok.out)
	}
	if !reflect.DeepEqual(rec.rep, tok.rep) {
		t.Fatalf("%s %q %v cuts %v: report differs:\nrecords %+v\n tokens %+v", name, p, o, cuts, rec.rep, tok.rep)
	}
	if !reflect.DeepEqual(rec.ground, tok.ground) {
		t.Fatalf("%s %v cuts %v: InGround %v, tokens %v", name, o, cuts, rec.ground, tok.ground)
	}
}

// TestRecordPathMatchesTokens: over the corpus (under CRScreen too, whose
// report the policy makes), hostile and uniform random bytes, whole and at
// random cuts (frames marked at some), the record path and the token path
// agree.
func TestRecordPathMatchesTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	cutsOf := func(n, most int) []int {
		var cuts []int
		for c := 1 + r.IntN(most); c < n; c += 1 + r.IntN(most) {
			cuts = append(cuts, c)
		}
		return cuts
	}
	extra := []Options{{CR: CRScreen}}
	if testing.Short() {
		extra = nil // the screen model is the slow part
	}
	for _, c := range loadCorpus(t) {
		for _, o := range append(append([]Options{c.opts}, extra...), recordPolicies...) {
			assertPaths(t, c.name, c.in, o, nil, false)
			assertPaths(t, c.name, c.in, o, cutsOf(len(c.in), 9), r.IntN(2) == 0)
		}
	}
	for i := range 3000 {
		o := recordPolicies[i%len(recordPolicies)]
		p := hostile.Bytes(r, r.IntN(300))
		if i%5 == 0 {
			p = make([]byte, r.IntN(300))
			for j := range p {
				p[j] = byte(r.IntN(256))
			}
		}
		assertPaths(t, "random", p, o, nil, false)
		assertPaths(t, "random", p, o, cutsOf(len(p), 1+r.IntN(12)), i%3 == 0)
	}
}

// TestRecordPathBatches: inputs that fill many batches of records, and
// whose tokens straddle batches, cut into Writes of 1 to 700 bytes; past
// MaxFindings, where anomalies and classes are only counted.
func TestRecordPathBatches(t *testing.T) {
	p := []byte(strings.Repeat("\x1b[1m\x1b[?1049h\x1b]0;t\x07\x1b(B\x1b7é\u202e\x00\r\b\x1b[8m\x1b[38;5;8m\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\\x1b[6n\x1b[1;2\x18\x1b]0;x\x1a\x1b(\x1b7\x9d7\x18\x1b[?1\x1b\\\x9d8;;http://x/\x9cl\xc2\x9d8;;\xc2\x9c\x9d0;12345é\xc2\x9c", 300))
	for _, size := range []int{1, 7, 64, 700, len(p)} {
		cuts := cutsEvery(size, len(p))
		for _, o := range recordPolicies {
			assertPaths(t, "batches", p, o, cuts, false)
		}
	}
}

// TestRecordPathWhole: whole records (decode.Record.Whole) of every final
// byte, and the aborted ESCs that are not whole (with intermediates, too
// many of them: FlagOverflow), among text and controls, before and past
// MaxFindings, where wholeTable counts them.
func TestRecordPathWhole(t *testing.T) {
	var b []byte
	for f := byte(0x30); f <= 0x7E; f++ {
		b = append(b, 0x1B, f, 0x1B, 0x00, f, 'x')
	}
	for f := byte(0x80); f <= 0x9F; f++ {
		b = append(b, f, 0xC2, f, 'y', 0x7F)
	}
	b = append(b, "\x1b\x1b\x1b\x18\x1b\x9cz\x1b(\x18\x1b()*\x18\x1b\n\x1b\x07\x9b\x1b\x1b[\x1b\x9d\x1b\x1b(()\x1b"...)
	p := bytes.Repeat(b, 40)
	for _, size := range []int{1, 7, 700, len(p)} {
		for _, o := range recordPolicies {
			assertPaths(t, "whole", p, o, cutsEvery(size, len(p)), false)
		}
	}
}

// TestRecordPathLongTokens: sequences and strings longer than the
// history (histLen), which the record path feeds to its second Decoder at
// the end of each Write, some left open at the end of the stream.
func TestRecordPathLongTokens(t *testing.T) {
	long := strings.Repeat("A", histLen+100)
	for _, in := range []string{
		"x\x1b]8;;http://x/" + long + "\x1b\\label\x1b]8;;\x1b\\y",
		"\x1bP" + long + "\x1b\\z\x1b[" + strings.Repeat("1;", histLen) + "m",
		"\x1b[" + strings.Repeat("1;", histLen) + "\x1b[1m" + "\x9d0;" + long + "\x9c",
		"a\x1b]0;" + long + "é" + long,
		"\x1b_" + long + "\x18b\x1b^" + long,
	} {
		p := []byte(in)
		for _, size := range []int{7, 700, 4096} {
			cuts := cutsEvery(size, len(p))
			for _, o := range recordPolicies {
				assertPaths(t, "long", p, o, cuts, false)
			}
		}
	}
}

// TestPathSwitch: input that alternates text and dense sequences in
// sections longer than minScanPiece, written in Writes of sizes that put
// the switch between paths at every kind of boundary, an open token
// included.
func TestPathSwitch(t *testing.T) {
	text := strings.Repeat("plain text, é中 and \U0001F600 ", 60)
	dense := strings.Repeat("\x1b[1;31mred\x1b[0m\x1b]0;t\x07\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\\r\x1b[K\x9b2m\u202e\ufe0f", 30)
	p := []byte(strings.Repeat(text+dense, 12))
	for _, size := range []int{600, 997, 4099, pieceLen + 3, len(p)} {
		cuts := cutsEvery(size, len(p))
		for _, o := range recordPolicies {
			w := writeCut(p, o, cuts, false, pathAuto)
			assertPath(t, "switch", p, o, cuts, w, writeCut(p, o, cuts, false, pathTokens))
		}
	}
}

// TestChoosePath: the pieces of input that the cleaner decodes with Scan
// (choosePath): dense with ESCs, or starting with controls as dense (random
// bytes, whose ESCs are few); not text, nor text with a control now and
// then, nor a piece too short.
func TestChoosePath(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	text := strings.Repeat("plain text, é中 and \U0001F600\t\r\n", 120)
	for _, c := range []struct {
		name string
		in   string
		scan bool
	}{
		{"text", text, false},
		{"text with a NUL in 100 bytes", strings.Repeat(strings.Repeat("x", 99)+"\x00", 40), false},
		{"SGR every 20 bytes", strings.Repeat("\x1b[1;31mred\x1b[0m text", 200), true},
		{"random bytes", string(random), true},
		{"C0 every 16 bytes", strings.Repeat(strings.Repeat("x", 15)+"\x01", 256), true},
		{"DEL every 16 bytes", strings.Repeat(strings.Repeat("x", 15)+"\x7f", 256), true},
		{"short", strings.Repeat("\x1b[m", minScanPiece/4-1), false},
		{"a piece, SGR every 20 bytes", strings.Repeat("\x1b[1;31mred\x1b[0m text", pieceLen/20), true},
		{"a piece, an ESC every 100 bytes", strings.Repeat(strings.Repeat("x", 96)+"\x1b[0m", pieceLen/100), false},
	} {
		cl := newCleaner(Options{})
		cl.choosePath([]byte(c.in))
		if cl.scanning != c.scan {
			t.Errorf("%s: scanning %v, want %v", c.name, cl.scanning, c.scan)
		}
	}
}

// FuzzRecordPath: any input, cut at two points, gives the same text,
// report and InGround on the record path as on the token path.
func FuzzRecordPath(f *testing.F) {
	for _, s := range []string{
		"\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\after\n", "\x1b[1;31mred\x1b[0m\r\n", "\x1b[38;5;8m\x1b[38;2;1;2;8m\x1b[8m",
		"\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\", "\x9b31m\xc2\x9b0m\xe2\x82", "\x1b[1\x00;2\nm\x1b[1\x1b[2m", "a\u202eb\ufe0f1\ufe0f\u20e3",
	} {
		f.Add([]byte(s), uint8(0), uint16(3), uint16(9))
	}
	f.Fuzz(func(t *testing.T, p []byte, pol uint8, a, b uint16) {
		o := recordPolicies[int(pol)%len(recordPolicies)]
		x, y := int(a)%(len(p)+1), int(b)%(len(p)+1)
		assertPaths(t, "fuzz", p, o, []int{min(x, y), max(x, y)}, pol&0x80 != 0)
	})
}

// cutsEvery returns the offsets that cut n bytes into Writes of size
// bytes: size, 2*size, … below n.
func cutsEvery(size, n int) []int {
	var cuts []int
	for c := size; c < n; c += size {
		cuts = append(cuts, c)
	}
	return cuts
}
