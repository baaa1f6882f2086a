package sanitize

import (
	"bytes"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/bytelens/bytelens/internal/hostile"
)

// attackPieces are the tokens the session-6 fast paths decide on: memo
// keys of every length up to maxMemo and one past, aborted ones (the
// FlagAborted tag), OSC numbers past 127 and CSI keys with intermediates
// (the open-addressed tables), non-ASCII blanks, invalid UTF-8 and
// text runs that end at word and batch boundaries.
var attackPieces = strings.Split("\x1b[1m|\x1b[0m|\x1b[38;5;208m|\x1b[38;5;2081m|\x1b[1;2;3;4;5;67m|\x1b[ q|\x1b[!p|\x1b[1 q|"+
	"\x1b[1\x18|\x1b[12\x1a|\x1b[38;5;20\x18|\x1b]200;x\x07|\x1b]999;y\x1b\\|\x1b]130\x07|\x1b]0;t\x07|\x1b]0;t\x18|\x1bP1$r\x1b\\|"+
	"\x1b(B|\x1b7|\x1b8|\x1b#8|\x9b1m|\xc2\x9b1m|\x9d0;x\x9c|\x1b[6n|\x1b[c|\u202e|\u200b|\x7f|\x00|\r|\r\n|\b|\x0b|"+
	"\xc2\xa0|\xe1\x9a\x80|\xe2\x80\x80|\xe2\x80\x8a|\xe2\x80\xaf|\xe2\x81\x9f|\xe3\x80\x80|\xe2\x80|\xc2|\xff|\xed\xa0\x80|"+
	"\x1b[1|\x1b[|\x1b]|\x1b]0;|\x1bP|\x1b|\x9b|\xc2\x9b1|abcdefgh|abcdefghijklmno|\u00e9\u00e9\u00e9\u00e9|\u4e2d\u4e2d\u4e2d|\U0001F600|#\ufe0f|\x1b[?1049h|\x1b[?25l|\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\", "|")

// attackLong are runs longer than a word, a batch or the history:
// multibyte text with non-ASCII blanks at every place in a word, long
// payloads and CSIs past MaxParams.
var attackLong = []string{
	strings.Repeat("\u4e2d\u3000\u00e9\u00a0ab\u2000\u1680\u202f\u205f\u200a", 9),
	strings.Repeat("\u00e9", 37) + "\u00a0" + strings.Repeat("\u4e2d", 11) + "\u3000\xe2\x80",
	strings.Repeat("\u00e9\u00e9\u00e9\xe3\x80\x80", 20) + "\xc2",
	"\x1b]0;" + strings.Repeat("p", 4100) + "\x07",
	"\x1bP" + strings.Repeat("\u00a0", 300) + "\x1b\\",
	"\x1b[" + strings.Repeat("1;", 40) + "m",
	"\x1b[" + strings.Repeat("1;", 40) + "\x18",
	"\x1b]8;;http://x/" + strings.Repeat("u", 2400) + "\x1b\\l\x1b]8;;\x1b\\",
}

// attackInput returns a random input built of attackPieces, hostile
// bytes and text runs of 1 to 300 bytes; when full is set it begins with
// MaxFindings+1 findings less r.IntN(3), so that findings fill in it.
func attackInput(r *rand.Rand, full bool) []byte {
	var b []byte
	if full {
		b = append(b, strings.Repeat("\x1b[6n", MaxFindings-2+r.IntN(3))...)
	}
	for range r.IntN(40) {
		switch r.IntN(6) {
		case 0:
			b = append(b, hostile.Bytes(r, r.IntN(20))...)
		case 1:
			b = append(b, strings.Repeat("x", 1+r.IntN(300))...)
		case 2:
			b = append(b, attackLong[r.IntN(len(attackLong))]...)
		default:
			b = append(b, attackPieces[r.IntN(len(attackPieces))]...)
		}
	}
	return b
}

// attackOptions returns random options of every policy but CRScreen.
func attackOptions(r *rand.Rand) Options {
	return Options{
		CR:          []CRPolicy{CRLines, CRDrop}[r.IntN(2)],
		BS:          BSPolicy(r.IntN(2)),
		Links:       LinkPolicy(r.IntN(2)),
		FormatChars: FormatPolicy(r.IntN(3)),
		C1:          C1Policy(r.IntN(2)),
		APCBEL:      r.IntN(2) == 0,
		MaxPayload:  []int64{0, 1, 8}[r.IntN(3)],
	}
}

// attackCuts returns cuts of n bytes into Writes of 1 to most bytes.
func attackCuts(r *rand.Rand, n, most int) []int {
	var cuts []int
	for c := 1 + r.IntN(most); c < n; c += 1 + r.IntN(most) {
		cuts = append(cuts, c)
	}
	return cuts
}

// blanksIn counts the non-ASCII blanks (Zs but U+0020) in b.
func blanksIn(b []byte) int64 {
	var n int64
	for _, r := range string(b) {
		if r != ' ' && unicode.Is(unicode.Zs, r) {
			n++
		}
	}
	return n
}

// TestAttackPaths: random inputs of attackPieces under random options,
// findings full or not, in Writes of 1 to 600 bytes with and without
// frames: every path gives what the token path does, the token path cut
// gives what it gives whole, and the text holds no control.
func TestAttackPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	n := 600
	if testing.Short() {
		n = 200
	}
	for i := range n {
		o := attackOptions(r)
		p := attackInput(r, i%3 == 0)
		most := []int{1, 3, 9, 40, 600}[r.IntN(5)]
		cuts := attackCuts(r, len(p), most)
		frames := i%4 == 0
		assertPaths(t, "attack", p, o, cuts, frames)
		if !frames {
			whole := writeCut(p, o, nil, false, pathTokens)
			cut := writeCut(p, o, cuts, false, pathAuto)
			checkInvariants(t, p, whole.out)
			if n := blanksIn(whole.out); o.BS == BSDrop && n != cut.rep.Kept.NonASCIIBlanks {
				t.Fatalf("%q %+v cuts %v: %d blanks in %q, Kept.NonASCIIBlanks %d", p, o, cuts, n, whole.out, cut.rep.Kept.NonASCIIBlanks)
			}
			if !bytes.Equal(whole.out, cut.out) || !reflect.DeepEqual(whole.rep, cut.rep) {
				t.Fatalf("%q %+v cuts %v: split differs:\n whole %q %+v\n   cut %q %+v", p, o, cuts, whole.out, whole.rep, cut.out, cut.rep)
			}
		}
	}
}

// fullFindings is input that fills the findings (MaxFindings queries),
// after which the memo recalls tokens that raise something.
var fullFindings = strings.Repeat("\x1b[6n", MaxFindings)

// TestAttackMemo: tokens the memo must tell apart once findings are
// full, on every path and whole or a byte at a time.
func TestAttackMemo(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		o    Options
	}{
		// An aborted OSC, and the same with NULs at the end of its
		// payload, which makes it overlong: zero-padded, their bytes
		// are one memo key unless the key holds the length.
		{"aborted, then with NULs", fullFindings + "\x1b]0;x\x1b7\x1b]0;x\x00\x00\x1b7", Options{MaxPayload: 3}},
		{"aborted with NULs, then without", fullFindings + "\x1b]0;x\x00\x00\x1b7\x1b]0;x\x1b7", Options{MaxPayload: 3}},
		{"aborted DCS", fullFindings + "\x1bPq\x00\x1b7\x1bPq\x1b7\x1bPq\x00\x00\x00\x1b7", Options{MaxPayload: 1}},
	} {
		p := []byte(c.in)
		assertPaths(t, c.name, p, c.o, nil, false)
		assertPaths(t, c.name, p, c.o, cutsEvery(1, len(p)), false)
	}
}

// TestAttackLinkAllocs: under LinksAppend, links whose payloads Writes of
// 7 bytes cut, and whole ones, cost no allocation in steady state, once
// findings are full (the URI and the joined payload were allocated for
// each link).
func TestAttackLinkAllocs(t *testing.T) {
	in := []byte(strings.Repeat("\x1b]8;;http://example.com/a/b\x1b\\label\x1b]8;;\x1b\\ text\n", 50))
	for _, size := range []int{7, len(in)} {
		w := NewWriter(io.Discard, Options{Links: LinksAppend})
		w.Write([]byte(fullFindings))
		write := func() {
			for i := 0; i < len(in); i += size {
				w.Write(in[i:min(i+size, len(in))])
			}
		}
		write()
		if n := testing.AllocsPerRun(5, write); n != 0 {
			t.Errorf("Writes of %d bytes: %.0f allocations per %d links", size, n, 50)
		}
	}
}

// FuzzAttackPaths: any input under any options but CRScreen (from opt's
// bits), after findings filled or not, cut into Writes of 1 to 64 bytes
// (from seed), framed or not: every path gives what the token path does.
func FuzzAttackPaths(f *testing.F) {
	for _, s := range attackPieces {
		f.Add([]byte(s+s), uint16(0x1FF), uint64(1))
	}
	f.Add([]byte("\x1b]0;x\x1b7\x1b]0;x\x00\x00\x1b7"), uint16(0x680), uint64(7))
	f.Fuzz(func(t *testing.T, p []byte, opt uint16, seed uint64) {
		o := Options{
			CR:          []CRPolicy{CRLines, CRDrop}[opt&1],
			BS:          BSPolicy(opt >> 1 & 1),
			Links:       LinkPolicy(opt >> 2 & 1),
			FormatChars: FormatPolicy(opt >> 3 & 3 % 3),
			C1:          C1Policy(opt >> 5 & 1),
			APCBEL:      opt>>6&1 != 0,
			MaxPayload:  int64(opt >> 9 & 7),
		}
		if opt>>7&1 != 0 {
			p = append([]byte(fullFindings), p...)
		}
		r := rand.New(rand.NewPCG(seed, 0))
		assertPaths(t, "fuzz", p, o, attackCuts(r, len(p), 1+int(seed%64)), opt>>8&1 != 0)
	})
}

// TestAttackAbortedLongString: on the record path (chosen for the dense
// first Write), a string longer than the history aborted by the ESC that
// begins the next token, in Writes of one byte: the ESC's chunk is
// history the cleaner did not keep (the string open then was too long),
// and rebuilding the next token at the end of the stream read the
// history at -1 (a panic).
func TestAttackAbortedLongString(t *testing.T) {
	dense := strings.Repeat("\x1b[1m", 150)
	for _, next := range []string{"\x1b]0;x", "\x1b]8;;\x9cb", "\x1b_x", "\x1b[1;2"} {
		p := []byte(dense + "\x1b]0;" + strings.Repeat("u", histLen) + next)
		cuts := []int{len(dense) + 4}
		for c := cuts[0] + 1; c < len(p); c++ {
			cuts = append(cuts, c)
		}
		assertPaths(t, "aborted long string", p, Options{}, cuts, false)
	}
}

// TestAttackLongTokens: strings and CSIs about as long as the history,
// or short, of text, blanks, NULs or DEL, ended or aborted by the next
// token in every way, after a dense prefix (the record path) or not, cut
// into Writes of 1 to 600 bytes from a random first one.
func TestAttackLongTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	opens := []string{"\x1b]0;", "\x1b]8;;http://x/", "\x1bP", "\x1b_", "\x1b^", "\x1bX", "\x9d0;", "\xc2\x9d0;", "\x1bk", "\x1b[" + strings.Repeat("1;", 5), "\x1b[" + strings.Repeat("1;", 40)}
	fills := []string{"u", "1;", "\xc2\xa0", "é", "\x00", "\x7f"}
	nexts := []string{"\x1b]0;x", "\x1b]8;;\x9cb", "\x1b_x", "\x1b[1;2", "\x1b[1m", "\x1b\\", "\x18", "\x1a", "\x07", "\x9c", "\xc2\x9c", "\x1b", "\x1b]", "\x1bP1", "\x1b(", "\xe2\x80", "x"}
	n := 600
	if testing.Short() {
		n = 150
	}
	for i := range n {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteString(strings.Repeat("\x1b[1m", 150))
		}
		for range 1 + r.IntN(3) {
			b.WriteString(opens[r.IntN(len(opens))])
			f := fills[r.IntN(len(fills))]
			size := histLen - 20 + r.IntN(40)
			if r.IntN(3) == 0 {
				size = r.IntN(300)
			}
			b.WriteString(strings.Repeat(f, size/len(f)))
			for range 1 + r.IntN(3) {
				b.WriteString(nexts[r.IntN(len(nexts))])
			}
		}
		p := []byte(b.String())
		cuts := []int{r.IntN(len(p))}
		step := 1 + r.IntN([]int{1, 8, 64, 600}[i%4])
		for c := cuts[0] + step; c < len(p); c += 1 + r.IntN(step) {
			cuts = append(cuts, c)
		}
		assertPaths(t, "long", p, attackOptions(r), cuts, i%5 == 0)
	}
}
