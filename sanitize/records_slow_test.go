package sanitize

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// slowRecords are tokens that the record path classifies from their bytes
// (controlString, csi, csiParts) rather than through the second Decoder,
// with their neighbours that decide it otherwise: 9C in a payload (C1 ST,
// ambiguous payload, a continuation byte) at each place of a one-word
// payload and past it, strings left open at the end of the stream, aborted
// strings and CSIs, CSIs with controls executed inside, private markers,
// one and two intermediates, parameters that overflow a Token (or just
// fit) or select
// a variant (SGR conceal, after 38;5 too), VT and FF (written as LF by
// record itself), alone, after CRs and embedded in a CSI; controls
// executed at each place of a CSI (csiParts passes over them), before and
// after its private marker, among its parameters, around its
// intermediate, in an SGR that conceals and one that does not.
var slowRecords = []string{
	"\x1b]0;title\a", "\x1b]2;a\x9cb\a", "\x1b]0;0123456\x9c\a", "\x1b]0;01234567\x9c\a", "\x1b]0;0123456789abc\x9c\a",
	"\x1b]0;0123456789abcd\x9c\a", "\x1b]0;0123456789abcdef\x9c\a", "\x1b]0;0123456789abcdefg\x9c\a",
	"\x1b]0;\xe2\x9c", "\x1b]0;\xe0\x9c\a", "\x1b]0;\xed\x9c\a", "\x1b]0;\xf0\x9c\a", "\x1b]0;\xf4\x9c\a", "\x1b]0;\xe2\x80\x9c\x9c\a", "\x1b]0;\xc2\x9c\xc2\a",
	"\x9d0;a\x9c", "\x9d0;0123456789abcd\x9c", "\xc2\x9d0;x\xc2\x9c", "\x1bP$q\xe2\x80\x9cm\x1b\\", "\x1bPtmux;0123456789\x1b\\",
	"\x1b]52;c;?\a", "\x1b]4;1;?\x1b\\", "\x1b]133;A\a", "\x1b]1234;x\a", "\x1b]12a;x\a", "\x1b];x\a", "\x1b]9\a", "\x1b]9\x1b\\", "\x1b]97\xc2\x9c",
	"\x1b]0;ab\x18", "\x1b]0;ab\x1a", "\x1b]0;ab\x1bc", "\x1b_Gab\x1b[m", "\x1b^pm\x07x\x1b\\", "\x1bXsos\x1b\\", "\x1bk\ntitle\x1b\\",
	"\x1b[1;2m", "\x1b[1\n;2m", "\x1b[\a1m", "\x1b[1;2\x7fm", "\x1b\t[3m", "\x1b[?1049h", "\x1b[?25\nl", "\x1b[>0c", "\x1b[=1c",
	"\x1b[2 q", "\x1b[1\n q", "\x1b[!p", "\x1b[1$p", "\x1b[1$$p", "\x1b[1 !p", "\x1b[1?m", "\x1b[123456m", "\x1b[65535m", "\x1b[65536J", "\x1b[0000000000012J", "\x1b[99999;2H", "\x1b[?99999h",
	"\x1b[" + strings.Repeat(";", decode.MaxParams-1) + "1m", "\x1b[" + strings.Repeat(";", decode.MaxParams) + "m", "\x1b[" + strings.Repeat("1;", decode.MaxParams) + "J",
	"\x1b[8m", "\x1b[1;8m", "\x1b[38;5;8m", "\x1b[38;2;8;8;8m", "\x1b[38:5:8m", "\x1b[8\nm", "\x1b[6n", "\x1b[2J", "\x1b[K", "\x1b[2K",
	"\u200b", "\u202e", "\u200d", "é", "\r", "\x1b]8;;http://x/\a", "\x1b]8;;\a",
	"\v", "\f", "\r\v", "\r\r\f", "\x1b[1\v;2m", "\x1b]0;a\fb\a",
	"\x1b[\n?25l", "\x1b[?\n25l", "\x1b[\x7f>0c", "\x1b[1 \nq", "\x1b[1\n \nq", "\x1b[1 \n!p", "\x1b[\n8m", "\x1b[3\n8m", "\x1b[8\tm",
	"\x1b[1;\x7f8m", "\x1b[1;\x7f9m", "\x1b\t[\n1m", "\x1b\t\n[8m", "\x9b\n1m", "\xc2\x9b\a8m", "\x1b[?\a1049\bh", "\x1b[6\x00n",
	"\x1b[" + strings.Repeat("1;\n", 40) + "8m", "\x1b[" + strings.Repeat("\n", 60) + "8m",
	"\x1b[1;2\x18", "\x1b[?1\x1b\\", "\x9b1m", "\x9b", "\xc2\x9b8m", "\x1b[", "\x9b\a8m", "\x1b(B", "\x1b(\n0", "\x1b#8", "\x1b7",
}

// TestRecordSlowPaths: the tokens of slowRecords, each among text and the
// others at random, in long runs (the memo takes some; past MaxFindings,
// where classes and anomalies are only counted, after a run of queries),
// through the record path and the choice by piece as through the token
// path, whole, in Writes of 1, 7 and 64 bytes and at random cuts, and as
// the last token of the stream.
func TestRecordSlowPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 12))
	var b strings.Builder
	for range 3000 {
		b.WriteString(slowRecords[r.IntN(len(slowRecords))])
		if r.IntN(3) == 0 {
			b.WriteString("ab")
		}
	}
	body := b.String()
	inputs := map[string]string{
		"slow":              body,
		"slow past finds":   strings.Repeat("\x1b[6n", MaxFindings+1) + body,
		"one after another": strings.Join(slowRecords, "") + strings.Join(slowRecords, "x"),
	}
	sizes := []int{1, 7, 64}
	if testing.Short() {
		sizes = sizes[1:2] // 7-byte Writes only
	}
	queries := strings.Repeat("\x1b[6n", MaxFindings+1)
	for _, s := range slowRecords {
		inputs["last "+s] = "ab" + s
		inputs["open "+s] = "ab" + s[:len(s)-1]
		inputs["open past finds "+s] = queries + "ab" + s[:len(s)-1]
		// Format characters held or in a run of invisible ones, which
		// the next token settles.
		inputs["format "+s] = "a\u200b" + s + "\u200bb1\ufe0f" + s + "\u20e3\u0646\u200c" + s + "\u06cc\u115f" + s + "\u1161\u200e" + s
	}
	for name, s := range inputs {
		p := []byte(s)
		for _, o := range recordPolicies {
			assertPaths(t, name, p, o, nil, false)
			if len(p) > 10000 {
				for _, size := range sizes {
					assertPaths(t, name, p, o, cutsEvery(size, len(p)), false)
				}
			}
			var cuts []int
			for c := 1 + r.IntN(40); c < len(p); c += 1 + r.IntN(40) {
				cuts = append(cuts, c)
			}
			assertPaths(t, name, p, o, cuts, r.IntN(2) == 0)
		}
	}
}

// TestWordHolds: memoWord.holds finds a byte at each place of words of
// each length, and not in the zero padding.
func TestWordHolds(t *testing.T) {
	for n := 0; n <= maxMemo; n++ {
		for _, x := range []byte{0x9C, 0x01, 0xFF, 0x80} {
			b := make([]byte, maxMemo+8)
			for i := range b {
				b[i] = x // past n: masked off
			}
			clear(b[:n])
			if wideWord(b[:n]).holds(x) {
				t.Errorf("%d zero bytes hold %#x", n, x)
			}
			for i := range n {
				w := bytes.Clone(b)
				w[i] = x
				if !wideWord(w[:n]).holds(x) {
					t.Errorf("%#x at %d of %d bytes not found", x, i, n)
				}
				w[i] = x ^ 1
				if wideWord(w[:n]).holds(x) {
					t.Errorf("%#x found in %d bytes without it", x, n)
				}
			}
		}
	}
}

// TestCSIParts: csiParts reads the parts of a CSI from its bytes, passing
// over the controls executed at each place of it, and declines bytes out
// of order; a decline is not seen in the output (the CSI is rebuilt), so
// each case says what it gives.
func TestCSIParts(t *testing.T) {
	type parts struct {
		private, inter byte
		params         string
		over, mixed    bool
	}
	tests := []struct {
		in   string
		want *parts // nil: declined
	}{
		{"\x1b[1;2m", &parts{params: "1;2"}},
		{"\x9b1m", &parts{params: "1"}},
		{"\xc2\x9b0m", &parts{params: "0"}},
		{"\x1b[?25l", &parts{private: '?', params: "25"}},
		{"\x1b[\n?25l", &parts{private: '?', params: "25"}},
		{"\x1b[?\n25l", &parts{private: '?', params: "\n25", mixed: true}},
		{"\x1b[\x7f>0c", &parts{private: '>', params: "0"}},
		{"\x1b\t[3m", &parts{params: "3"}},
		{"\x1b\t\n[8m", &parts{params: "8"}},
		{"\x1b[1\n;2m", &parts{params: "1\n;2", mixed: true}},
		{"\x1b[2 q", &parts{inter: ' ', params: "2"}},
		{"\x1b[1 \nq", &parts{inter: ' ', params: "1"}},
		{"\x1b[1\n q", &parts{inter: ' ', params: "1\n", mixed: true}},
		{"\x1b[65535m", &parts{params: "65535"}},
		{"\x1b[65536m", &parts{params: "65536", over: true}},
		{"\x1b[6553\n6m", &parts{params: "6553\n6", over: true, mixed: true}},
		{"\x1b[" + strings.Repeat(";", decode.MaxParams) + "m", &parts{params: strings.Repeat(";", decode.MaxParams), over: true}},
		{"\x1b[1 !p", nil},
		{"\x1b[1?m", nil},
		{"\x1b[ 1m", nil},
	}
	for _, tc := range tests {
		b := []byte(tc.in)
		sh := csiParts(b, b[len(b)-1])
		ok := sh&shapeBad == 0
		got := &parts{sh.private(), sh.inter(), string(b[sh.params0():sh.params1()]), sh&shapeOver != 0, sh&shapeMixed != 0}
		switch {
		case ok != (tc.want != nil):
			t.Errorf("%q: ok %v, want %v", tc.in, ok, tc.want != nil)
		case ok && *got != *tc.want:
			t.Errorf("%q: %+v, want %+v", tc.in, *got, *tc.want)
		}
	}
}
