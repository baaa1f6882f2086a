package decode

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/internal/hostile"
)

// mergeRecords joins consecutive text records that are not embedded, as
// mergeText joins tokens: where Feed and Scan cut a text run depends on
// their call boundaries.
func mergeRecords(rs []Record) []Record {
	var out []Record
	isRun := func(r Record) bool { return r.Kind() == KindText && r.Flags()&FlagEmbedded == 0 }
	for _, r := range rs {
		if n := len(out); n > 0 && isRun(r) && isRun(out[n-1]) {
			out[n-1] = r
			continue
		}
		out = append(out, r)
	}
	return out
}

// feedRecords returns the records of Feed's tokens for p fed whole.
func feedRecords(d Decoder, p []byte) []Record {
	var rs []Record
	for _, t := range mergeText(collect(d, p)) {
		rs = append(rs, RecordOf(&t))
	}
	return rs
}

// scanRecords returns the records Scan writes for p cut at cuts, with room
// for size records per call (at least ScanRecords), ScanEnd included.
func scanRecords(d Decoder, p []byte, cuts []int, size int) []Record {
	var rs []Record
	recs := make([]Record, size)
	prev := 0
	for _, c := range append(slices.Clone(cuts), len(p)) {
		for q := p[prev:c]; len(q) > 0; {
			m, n := d.Scan(q, recs)
			rs = append(rs, recs[:n]...)
			q = q[m:]
		}
		prev = c
	}
	n := d.ScanEnd(recs)
	return mergeRecords(append(rs, recs[:n]...))
}

func recordSigs(rs []Record) []string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = fmt.Sprintf("%s@%d f%02X %#x", r.Kind(), r.End(), r.Flags(), r.Final())
	}
	return s
}

// checkScan holds Scan to Feed on p: fed whole with the least room for
// records, with ample room, split at cut, and one byte per call.
func checkScan(t *testing.T, p []byte, d Decoder, cut int) {
	t.Helper()
	want := feedRecords(d, p)
	every := make([]int, 0, len(p))
	for i := 1; i < len(p); i++ {
		every = append(every, i)
	}
	cut = min(cut, len(p))
	for _, run := range []struct {
		name string
		cuts []int
		size int
	}{
		{"whole", nil, ScanRecords},
		{"whole, room 1024", nil, 1024},
		{fmt.Sprintf("split at %d", cut), []int{cut}, ScanRecords + 1},
		{"byte by byte", every, ScanRecords},
	} {
		got := scanRecords(d, p, run.cuts, run.size)
		if !slices.Equal(got, want) {
			t.Fatalf("%q (lone %v, apc-bel %v), %s:\n got %q\nwant %q", p, d.LoneC1, d.APCBEL, run.name, recordSigs(got), recordSigs(want))
		}
	}
}

// TestScanCorpus holds Scan to Feed on every input of the hostile corpus,
// under every option, byte by byte and split at 64 points (8 with
// -short).
func TestScanCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/corpus/*.bin")
	if err != nil || len(files) == 0 {
		t.Fatal("no corpus", err)
	}
	for _, f := range files {
		p, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []Decoder{{}, {LoneC1: true}, {APCBEL: true}, {LoneC1: true, APCBEL: true}} {
			step := max(1, len(p)/64)
			if testing.Short() {
				step = max(1, len(p)/8)
			}
			for cut := 0; cut <= len(p); cut += step {
				checkScan(t, p, d, cut)
			}
		}
	}
}

// TestScanRandom holds Scan to Feed on hostile and uniform random bytes.
func TestScanRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	n := 3000
	if testing.Short() {
		n = 400
	}
	for k := range n {
		p := hostile.Bytes(r, r.IntN(200))
		if k%4 == 3 {
			for i := range p {
				p[i] = byte(r.IntN(256))
			}
		}
		checkScan(t, p, Decoder{LoneC1: k%3 == 1, APCBEL: k%5 == 1}, r.IntN(len(p)+1))
	}
}

// TestScanRecordFields checks Scan's records of one input by value.
func TestScanRecordFields(t *testing.T) {
	p := []byte("ab\x1b[3\t1m\xc2\x9b?25\x18\u202e\xe2\x80")
	got := recordSigs(scanRecords(Decoder{}, p, nil, ScanRecords))
	want := []string{
		"text@2 f00 0x0",
		"text@6 f40 0x9", // TAB executed inside the CSI
		"csi@8 f00 0x6d",
		"csi@13 f02 0x0", // aborted by CAN
		"c0@14 f00 0x18",
		"format@17 f00 0x0",
		"invalid-utf8@19 f00 0x0", // cut by the end of the stream
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestScanAllocs checks that Scan does not allocate once its table is
// built.
func TestScanAllocs(t *testing.T) {
	p := hostile.Bytes(rand.New(rand.NewPCG(1, 2)), 4096)
	recs := make([]Record, 256)
	var d Decoder
	d.Scan(p, recs)
	if a := testing.AllocsPerRun(20, func() {
		for q := p; len(q) > 0; {
			m, _ := d.Scan(q, recs)
			q = q[m:]
		}
	}); a != 0 {
		t.Fatalf("Scan allocates %v times per run", a)
	}
}

// FuzzScan holds Scan to Feed on any input and split point, under every
// option.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"plain text\n", "\x1b[1;31mred\x1b[0m", "\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\",
		"\x9b31m\xc2\x9b0m", "\x1b]0;a\x9cb\x07", "\xe6\x9bh\xc0\x9b", "\x1b[3\xc2\x85x",
		"\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\", "\x1b[3\n1m\x1b[3\x18", "a\u202eb\U000E0041",
		"\x9d0;\xe0\x9c\x9c", "\x9d5\xc2\x9c", "\x1b]x\x1bc", "\x9b\xe2\x82\x1b\x18",
		"\x1b[m|\x1b[1;36mab\x1b[?25l\x1b[12345m\x1b[123456m", "x\x1b[01;31m\x1b[K\x1b[1:2m\x1b[1?m\x1b[1 q",
	} {
		f.Add([]byte(s), uint16(3), false, false)
	}
	f.Fuzz(func(t *testing.T, p []byte, cut uint16, lone, apcBEL bool) {
		checkScan(t, p, Decoder{LoneC1: lone, APCBEL: apcBEL}, int(cut))
	})
}

// TestScanBulk holds Scan to Feed where it skips in bulk: runs of payload
// and parameters long enough to skip (around scanStay and the eight bytes
// a word holds), ended by every byte, under two option sets.
func TestScanBulk(t *testing.T) {
	intros := []string{"\x1b]0;", "\x9d", "\x1bP1$", "\x98", "\x1b^", "\x9f", "\x1bk", "\x1b[", "\x9b?", "\x1b[1<"}
	fills := []string{"ab c~de!", "0123;4:5", "!/ ? <=>"}
	lengths := []int{8, 9, 16, 17, 40}
	if testing.Short() {
		lengths = []int{17}
	}
	for _, in := range intros {
		for _, fill := range fills {
			for _, n := range lengths {
				for b := range 256 {
					p := []byte(in + strings.Repeat(fill, 6)[:n])
					p = append(p, byte(b))
					p = append(p, "x1\x1b\\y"...)
					checkScan(t, p, Decoder{LoneC1: b%2 == 1, APCBEL: b%4 < 2}, len(in)+n/2)
				}
			}
		}
	}
}

// TestScanClasses checks that feeding one byte of each of scanClasses
// builds the scan table that feeding every byte builds, under every
// option set, and that scanClasses is the common refinement of the four
// tables' byte classes. go test -run TestScanClasses -update rewrites
// scanclasses_table.go.
func TestScanClasses(t *testing.T) {
	var fine [256][4]uint8
	for k := range 4 {
		full := buildScanTable(k&1 != 0, k&2 != 0, nil)
		for b := range 256 {
			fine[b][k] = full.class[b]
		}
		if golden.Updating() {
			continue
		}
		if fast := buildScanTable(k&1 != 0, k&2 != 0, &scanClasses); !reflect.DeepEqual(fast, full) {
			t.Errorf("lone %v, apc-bel %v: the table built from scanClasses differs from the one built from every byte", k&1 != 0, k&2 != 0)
		}
	}
	var src bytes.Buffer
	src.WriteString("// Code generated by go test -run TestScanClasses -update; DO NOT EDIT.\n\npackage decode\n\n")
	src.WriteString("// scanClasses partitions the bytes into classes whose bytes every state\n// of every scan table treats alike: the common refinement of the byte\n// classes of the four option sets. buildScanTable feeds one byte of each.\nvar scanClasses = [256]uint8{")
	index := map[[4]uint8]int{}
	for b, key := range fine {
		k, ok := index[key]
		if !ok {
			k = len(index)
			index[key] = k
		}
		if b%16 == 0 {
			src.WriteString("\n")
		}
		fmt.Fprintf(&src, "%d, ", k)
	}
	src.WriteString("\n}\n")
	out, err := format.Source(src.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "scanclasses_table.go", out)
}

// TestScanText holds Scan to Feed on text runs long enough for Scan's text
// path (skipText, entered after scanRun printable bytes) followed by TAB,
// LF, every 2- and 3-byte sequence that TestPlainUTF8 tries and the byte
// after it, whole, split inside the sequence and byte by byte.
func TestScanText(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 3
	}
	for b0 := 0xC0; b0 < 0xF0; b0 += step {
		for b1 := 0x70; b1 < 0xC8; b1++ {
			for _, b2 := range []byte{0x41, 0x80, 0x8B, 0x9B, 0x9C, 0xAE, 0xBF, 0xC0} {
				p := []byte("words\tand\nmore ")
				p = append(p, byte(b0), byte(b1), b2, 'x', '\x07', 'y')
				checkScan(t, p, Decoder{LoneC1: b1%2 == 1}, 16)
			}
		}
	}
}

// TestRecordEndNear: a record's end offset, kept in 40 bits, is read back
// whole near any offset, past 1 TiB and just before where the Scan call
// began (a text run closed before a carried UTF-8 unit).
func TestRecordEndNear(t *testing.T) {
	for _, tc := range []struct{ end, near int64 }{
		{0, 0}, {5, 0}, {100, 103}, {1<<40 - 1, 1<<40 - 2}, {1 << 40, 1<<40 - 2}, {1<<40 + 3, 1<<40 - 5},
		{1<<40 - 3, 1 << 40}, {5<<40 + 7, 5 << 40}, {5<<40 - 2, 5<<40 + 1}, {1 << 50, 1<<50 + 1<<38},
	} {
		r := Record(tc.end)<<24 | Record(KindText)
		if got := r.EndNear(tc.near); got != tc.end {
			t.Errorf("record ending at %d, near %d: EndNear = %d", tc.end, tc.near, got)
		}
	}
}

// TestScanTextRun checks what steps' text skip (skipASCII) rests on, in
// every table: in scanText the skip steps are the printable bytes, each
// staying in scanText with no record, and TAB and LF write no record and
// stay in a text run; and holds Scan to Feed on runs of printable ASCII,
// TAB and LF of every length up to 40 (the word loop and the bytes after
// it) ended by every byte, then more text.
func TestScanTextRun(t *testing.T) {
	for _, d := range []Decoder{{}, {LoneC1: true}, {APCBEL: true}, {LoneC1: true, APCBEL: true}} {
		tab := scanTableFor(d.LoneC1, d.APCBEL)
		for b := range 256 {
			k := scanText + uint32(tab.class[b])
			f, next := tab.info[k], tab.next[k]
			printable := b >= 0x20 && b < 0x7F
			if skip := f&infoSkip != 0; skip != printable || printable && (next != scanText || f&infoCount != 0) {
				t.Fatalf("lone %v, apc-bel %v: byte %#x in scanText: info %#x, next %d", d.LoneC1, d.APCBEL, b, f, next)
			}
			if (b == '\t' || b == '\n') && (f&(infoCount|infoSpecial) != 0 || !tab.inRun(next)) {
				t.Fatalf("lone %v, apc-bel %v: byte %#x in scanText: info %#x, next %d", d.LoneC1, d.APCBEL, b, f, next)
			}
		}
	}
	run := "words \tand\nmore text, twenty-six letters; ~!{}|\t\n"
	lengths := []int{0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 25, 31, 40}
	for _, n := range lengths {
		for b := range 256 {
			p := append([]byte(run[:n]), byte(b), 0xA9, 'x', 'y', 'z', '\x1b', '[', 'm')
			checkScan(t, p, Decoder{LoneC1: b%2 == 1, APCBEL: b%4 < 2}, n)
		}
	}
}
