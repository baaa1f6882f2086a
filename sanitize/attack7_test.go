package sanitize

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// attack7Openers, attack7Fill and attack7Ends build the control strings
// whose payloads controlString reads as one word (payloadST decides a
// 9C in it): every opener, payloads of 0 to 20 bytes that hold 9C alone,
// as C2 9C, as the continuation of a character and of an ill-formed one,
// and every way to end one.
var (
	attack7Openers = []string{"\x1b]0;", "\x1b]", "\x1b]8;;", "\x1b]52;c;", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x1bk", "\x9d0;", "\xc2\x9d0;", "\x90", "\xc2\x90", "\x9f", "\x9e", "\x98"}
	attack7Fill    = []string{"a", "\x9c", "\xc2\x9c", "\xe2\x80\x9c", "\xe2\x9c", "\xc2", "\x80", "\xe9", "\u00e9", "\x00", "\x7f", "\x07", " ", "\xf0\x9f\x98", "\xed\x9c", "\xc2\xa0", "\x9b", "\xc2\x9b", "\x1b"}
	attack7Ends    = []string{"\x07", "\x1b\\", "\x9c", "\xc2\x9c", "\x18", "\x1a", "\x1b[1m", "", "\x1b"}
)

// attack7String returns a random control string of attack7's pieces, its
// payload n bytes or a little more.
func attack7String(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString(attack7Openers[r.IntN(len(attack7Openers))])
	for b.Len() < n {
		f := attack7Fill[r.IntN(len(attack7Fill))]
		if r.IntN(3) > 0 {
			f = attack7Fill[r.IntN(4)] // mostly payload and 9C
		}
		b.WriteString(f)
	}
	b.WriteString(attack7Ends[r.IntN(len(attack7Ends))])
	return b.String()
}

// attack7Opts are the policies the record path reads strings and CSIs
// under.
var attack7Opts = []Options{
	{},
	{C1: C1Lone},
	{APCBEL: true, MaxPayload: 3},
	{Links: LinksAppend, FormatChars: FormatEscape, MaxPayload: 16},
	{CR: CRDrop, C1: C1Lone, MaxPayload: 15},
}

// TestAttack7Strings: control strings with short payloads (one word, at
// and past maxMemo) holding 9C in every role, alone and in runs, after a
// dense prefix or none, findings full or not, whole and in Writes of 1 to
// 17 bytes: every path gives what the token path does.
func TestAttack7Strings(t *testing.T) {
	attack7Rounds(t, "strings", rand.New(rand.NewPCG(71, 72)), func(r *rand.Rand, b *strings.Builder) {
		for range 1 + r.IntN(6) {
			b.WriteString(attack7String(r, r.IntN(22)))
			if r.IntN(2) == 0 {
				b.WriteString("xy")
			}
		}
	})
}

// attack7Rounds checks 1000 inputs (250 under -short) that body writes
// after a prefix: findings filled up (every third) and a run of one SGR
// (every second), under attack7Opts in turn, whole and in Writes of 1 to
// 17 bytes: every path gives what the token path does.
func attack7Rounds(t *testing.T, name string, r *rand.Rand, body func(r *rand.Rand, b *strings.Builder)) {
	n := 1000
	if testing.Short() {
		n = 250
	}
	for i := range n {
		var b strings.Builder
		if i%3 == 0 {
			b.WriteString(fullFindings)
		}
		if i%2 == 0 {
			b.WriteString(strings.Repeat("\x1b[1m", 40))
		}
		body(r, &b)
		p := []byte(b.String())
		o := attack7Opts[i%len(attack7Opts)]
		assertPaths(t, name, p, o, nil, false)
		assertPaths(t, name, p, o, attackCuts(r, len(p), 1+r.IntN(17)), i%4 == 0)
	}
}

// TestAttack7CSI: CSIs at the edges of what a Token stores (MaxParams
// parameters and one more, values at MaxParamValue and past it, leading
// zeros, sub-parameters), with private markers, intermediates, controls
// executed inside and cut short: every path gives what the token path
// does.
func TestAttack7CSI(t *testing.T) {
	vals := []string{"", "0", "1", "8", "65535", "65536", "99999", "0000065535", "0000065536", "123456", "38", "5", "2"}
	seps := []string{";", ":"}
	privs := []string{"", "?", ">", "<", "="}
	inters := []string{"", " ", "!", "$", "\"", " !"}
	finals := []string{"m", "h", "l", "q", "n", "c", "J", "p", "~", "\x18", "\x1b", "\x1b[m", ""}
	ctls := []string{"\n", "\r", "\b", "\x00", "\x7f", "\t", "\x0b"}
	introsCSI := []string{"\x1b[", "\x9b", "\xc2\x9b"}
	attack7Rounds(t, "csi", rand.New(rand.NewPCG(73, 74)), func(r *rand.Rand, b *strings.Builder) {
		for range 1 + r.IntN(5) {
			b.WriteString(introsCSI[r.IntN(len(introsCSI))])
			b.WriteString(privs[r.IntN(len(privs))])
			np := r.IntN(4)
			switch r.IntN(3) {
			case 0:
				np = decode32 - 2 + r.IntN(4)
			case 1:
				np = 1 + r.IntN(3)
			}
			for k := range np {
				if k > 0 {
					b.WriteString(seps[r.IntN(8)/7])
				}
				b.WriteString(vals[r.IntN(len(vals))])
				if r.IntN(30) == 0 {
					b.WriteString(ctls[r.IntN(len(ctls))])
				}
			}
			b.WriteString(inters[r.IntN(len(inters))])
			b.WriteString(finals[r.IntN(len(finals))])
			if r.IntN(2) == 0 {
				b.WriteString("zz")
			}
		}
	})
}

const decode32 = 32 // decode.MaxParams

// attack7Bits are the pieces of short Writes: text of 1 to 17 bytes,
// characters cut at every byte, ESC, CR runs, blanks, format characters.
var attack7Bits = []string{"a", "abcd", "abcdefgh", "abcdefghijklmnop", "abcdefghijklmnopq", "\u00e9", "\u4e2d", "\xe0\xa0\x80", "\xed\x9f\xbf",
	"\U0001F600", "\r", "\r\r", "\r\n", "\n", "\t", "\x1b", "\x1b[", "\x1b[1", ";2", "m", "\x1b]0;", "title", "\x07", "\x1b\\", "\xc2\xa0", "\u3000", "\u200b",
	"\u202e", "\ufe0f", "\u20e3", "#", "\b", "\x00", "\x7f", "\x9c", "\xc2\x9c", "\xc2", "\xe4\xb8", "\xff", "\x1b[6n", "  ", "\x1b]8;;http://x/", "\x1b]8;;"}

// TestAttack7QuickWrites: random streams of attack7Bits in Writes of 1
// to 17 bytes, a frame marked after some, under every policy, findings
// below and at MaxFindings: the quick ways of a short Write give what Feed
// does, Write by Write.
func TestAttack7QuickWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	opts := append([]Options{{CR: CRLines}, {CR: CRScreen}, {BS: BSOverstrike}, {FormatChars: FormatEscape}, {FormatChars: FormatKeep}, {CR: CRDrop}}, attack7Opts...)
	n := 1000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		var b strings.Builder
		if i%3 == 0 {
			b.WriteString(strings.Repeat("\x1b[6n", MaxFindings-2+r.IntN(3)))
		}
		for range r.IntN(30) {
			b.WriteString(attack7Bits[r.IntN(len(attack7Bits))])
		}
		p := b.String()
		var pieces []string
		for j := 0; j < len(p); {
			k := min(len(p), j+1+r.IntN(17))
			if i%3 == 0 && j == 0 {
				k = min(len(p), 4*(MaxFindings-2))
			}
			pieces = append(pieces, p[j:k])
			j = k
		}
		o := opts[i%len(opts)]
		assertQuickWrites(t, fmt.Sprint("random ", i), pieces, o, i%4 == 1, 0)
	}
}

// TestAttack7NoRetain: a Writer whose Writes a quick way takes neither
// keeps nor writes the caller's p after Write returns: overwriting each p
// once Write returned changes nothing in the output or the report.
func TestAttack7NoRetain(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 78))
	for i := range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(attack7Bits[r.IntN(len(attack7Bits))])
		}
		in := []byte(b.String())
		cuts := attackCuts(r, len(in), 1+r.IntN(17))
		o := attack7Opts[i%len(attack7Opts)]
		want := writeCut(in, o, cuts, false, pathTokens)
		var got bytes.Buffer
		w := NewWriter(&got, o)
		prev := 0
		for _, c := range append(cuts, len(in)) {
			p := append([]byte(nil), in[prev:c]...)
			w.Write(p)
			for k := range p {
				p[k] = "\x1b\x9b\x00X"[k%4]
			}
			prev = c
		}
		w.Close()
		if !bytes.Equal(got.Bytes(), want.out) {
			t.Fatalf("%q cuts %v: p overwritten after Write: got %q, want %q", in, cuts, got.Bytes(), want.out)
		}
		checkInvariants(t, in, got.Bytes())
	}
}

// FuzzAttack7Writes: any input under any options (from opt's bits), after
// findings filled or not, in Writes of 1 to 17 bytes (from seed), framed
// or not: the quick ways of a short Write give what Feed does, Write by
// Write.
func FuzzAttack7Writes(f *testing.F) {
	for _, s := range attack7Bits {
		f.Add([]byte(s+"abcdefg"+s), uint16(0), uint64(3))
	}
	f.Fuzz(func(t *testing.T, p []byte, opt uint16, seed uint64) {
		o := Options{
			CR:          []CRPolicy{CRLines, CRDrop, CRScreen, CRLines}[opt&3],
			BS:          BSPolicy(opt >> 2 & 1),
			Links:       LinkPolicy(opt >> 3 & 1),
			FormatChars: FormatPolicy(opt >> 4 & 3 % 3),
			C1:          C1Policy(opt >> 6 & 1),
			APCBEL:      opt>>7&1 != 0,
			MaxPayload:  int64(opt >> 9 & 7),
		}
		var pieces []string
		if opt>>8&1 != 0 {
			pieces = append(pieces, fullFindings[4:])
		}
		r := rand.New(rand.NewPCG(seed, 1))
		for j := 0; j < len(p); {
			k := min(len(p), j+1+r.IntN(17))
			pieces = append(pieces, string(p[j:k]))
			j = k
		}
		assertQuickWrites(t, "fuzz", pieces, o, opt>>12&1 != 0, 0)
	})
}

// TestAttack7QuickTextAllocs: short Writes of text that the quick ways
// take cost no allocation in steady state, also after a first Write that
// left the output buffer small: text of 17 bytes to minScanPiece, which
// TakeText appends to the output buffer (AppendText), and text that
// completes a character cut by the Write before.
func TestAttack7QuickTextAllocs(t *testing.T) {
	for _, first := range []string{"", "x", strings.Repeat("y", 600)} {
		for _, s := range []string{"abcdefg", "abcdéfghijklmno", strings.Repeat("a", 17), strings.Repeat("é", 100), strings.Repeat("中", 100) + "\xe4", "\xb8\xad" + strings.Repeat("a", 300)} {
			w := NewWriter(io.Discard, Options{})
			w.Write([]byte(first))
			p := []byte(s)
			w.Write(p)
			if n := testing.AllocsPerRun(20, func() { w.Write(p) }); n != 0 {
				t.Errorf("after a first Write of %d bytes, Writes of %q: %.0f allocations each", len(first), s[:min(len(s), 20)], n)
			}
		}
	}
}

// FuzzAttack7Strings: a control string of any payload, from every opener
// to every end (attack7Openers, attack7Ends), twice and after a dense
// prefix (the record path; the memo sees it again), findings full or not,
// under attack7Opts, whole and cut at two points: every path gives what
// the token path does.
func FuzzAttack7Strings(f *testing.F) {
	for i, s := range attack7Fill {
		f.Add([]byte("ab"+s+s+"cd"), uint8(i), uint8(i), uint8(i), uint16(i*7))
	}
	f.Fuzz(func(t *testing.T, payload []byte, open, end, opt uint8, cut uint16) {
		s := attack7Openers[int(open)%len(attack7Openers)] + string(payload) + attack7Ends[int(end)%len(attack7Ends)]
		in := strings.Repeat("\x1b[1m", 40) + s + "x" + s + "é" + s
		if opt&0x80 != 0 {
			in = fullFindings + in
		}
		p := []byte(in)
		o := attack7Opts[int(opt&0x7F)%len(attack7Opts)]
		x := 160 + int(cut)%(len(p)-159)
		assertPaths(t, "fuzz strings", p, o, nil, false)
		assertPaths(t, "fuzz strings", p, o, []int{x, min(len(p), x+1+int(cut>>12))}, opt&0x40 != 0)
	})
}

// FuzzAttack7CSI: a CSI of any bytes after its introducer, twice and
// after a dense prefix, findings full or not, under attack7Opts, whole
// and cut at a point: every path gives what the token path does.
func FuzzAttack7CSI(f *testing.F) {
	for _, s := range []string{"1;2m", "?1049h", strings.Repeat("1;", 31) + "8m", strings.Repeat("1;", 32) + "m", "65536m", "0000065535;8m", "1\n2m", "1 !q", "?1\x7fh", ">0c", "38:5:8m"} {
		f.Add([]byte(s), uint8(0), uint8(0), uint16(3))
	}
	f.Fuzz(func(t *testing.T, body []byte, intro, opt uint8, cut uint16) {
		s := []string{"\x1b[", "\x9b", "\xc2\x9b"}[int(intro)%3] + string(body)
		in := strings.Repeat("\x1b[1m", 40) + s + "x" + s + s
		if opt&0x80 != 0 {
			in = fullFindings + in
		}
		p := []byte(in)
		o := attack7Opts[int(opt&0x7F)%len(attack7Opts)]
		assertPaths(t, "fuzz csi", p, o, nil, false)
		assertPaths(t, "fuzz csi", p, o, []int{160 + int(cut)%(len(p)-159)}, opt&0x40 != 0)
	})
}

// TestAttack7Promise: whatever the input (attack pieces, attack7's
// strings, CSIs and short-Write bits, random bytes), under every policy
// and in Writes of 1 to 17 bytes with frames, the text holds no control:
// no C0 but TAB and LF, no DEL, no C1 raw or as UTF-8, no ESC.
func TestAttack7Promise(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	opts := append([]Options{{CR: CRScreen}, {BS: BSOverstrike}, {FormatChars: FormatKeep}, {FormatChars: FormatEscape, Links: LinksAppend}}, attack7Opts...)
	for i := range 300 {
		in := attackInput(r, i%4 == 0)
		for range r.IntN(10) {
			in = append(in, attack7String(r, r.IntN(20))...)
			in = append(in, attack7Bits[r.IntN(len(attack7Bits))]...)
		}
		o := opts[i%len(opts)]
		out := writeCut(in, o, attackCuts(r, len(in), 1+r.IntN(17)), i%2 == 0, pathAuto).out
		checkInvariants(t, in, out)
	}
}
