package decode

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/internal/hostile"
)

// sig renders a token compactly for table tests: kind@off+len and the
// parts that matter for that kind.
func sig(t Token) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%d+%d", t.Kind, t.Off, t.Len)
	if t.Intro > Intro7Bit {
		fmt.Fprintf(&b, " %s", t.Intro)
	}
	switch t.Kind {
	case KindC0, KindC1, KindDEL:
		fmt.Fprintf(&b, " %02X", t.Final)
	case KindESC, KindNF:
		if t.Final != 0 {
			fmt.Fprintf(&b, " %q%c", t.Intermediates(), t.Final)
		}
	case KindCSI:
		fmt.Fprintf(&b, " ")
		if t.Private != 0 {
			b.WriteByte(t.Private)
		}
		for i, p := range t.Params() {
			if i > 0 {
				if t.Sub&(1<<i) != 0 {
					b.WriteByte(':')
				} else {
					b.WriteByte(';')
				}
			}
			fmt.Fprint(&b, p)
		}
		if int(t.ParamCount) > int(t.NParam) {
			fmt.Fprintf(&b, "…(%d)", t.ParamCount)
		}
		b.Write(t.Intermediates())
		if t.Final != 0 {
			b.WriteByte(t.Final)
		}
	case KindInvalid:
	case KindFormat:
		fmt.Fprintf(&b, " U+%04X", t.Rune)
	default:
		if t.Kind.IsString() {
			if t.Kind == KindOSC {
				fmt.Fprintf(&b, " cmd=%d", t.Command)
			}
			fmt.Fprintf(&b, " pay=%d", t.Payload)
			if t.Term != TermNone {
				fmt.Fprintf(&b, " %s", t.Term)
			}
		}
	}
	for i, name := range []string{"malformed", "aborted", "unterminated", "overlong", "ambiguous", "overflow", "embedded"} {
		if t.Flags&(1<<i) != 0 {
			fmt.Fprintf(&b, " %s", name)
		}
	}
	if t.Abort != AbortNone {
		fmt.Fprintf(&b, "(%s)", t.Abort)
	}
	return b.String()
}

func collect(d Decoder, p []byte) []Token { return slices.Collect(d.Tokens(p)) }

func sigs(ts []Token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = sig(t)
	}
	return out
}

func TestGrammar(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"text", "hello\tworld\n", []string{"text@0+12"}},
		{"sgr", "a\x1b[1;31mb", []string{"text@0+1", "csi@1+7 1;31m", "text@8+1"}},
		{"tput sgr0", "\x1b(B\x1b[m", []string{"nf@0+3 \"(\"B", "csi@3+3 m"}},
		{"nF DECALN", "\x1b#8", []string{"nf@0+3 \"#\"8"}},
		{"nF SP F", "\x1b F", []string{"nf@0+3 \" \"F"}},
		{"two-byte", "\x1b7\x1b=\x1bc", []string{"esc@0+2 \"\"7", "esc@2+2 \"\"=", "esc@4+2 \"\"c"}},
		{"private csi", "\x1b[?1049h", []string{"csi@0+8 ?1049h"}},
		{"csi intermediate", "\x1b[2 q", []string{"csi@0+5 2 q"}},
		{"csi default params", "\x1b[;5H", []string{"csi@0+5 0;5H"}},
		{"colon subparams", "\x1b[38:2::255:0:0m", []string{"csi@0+16 38:2:0:255:0:0m"}},
		{"malformed marker late", "\x1b[1?h", []string{"csi@0+5 1h malformed"}},
		{"malformed param after inter", "\x1b[1 2q", []string{"csi@0+6 1 q malformed"}},
		{"30-digit param", "\x1b[123456789012345678901234567890m", []string{"csi@0+33 65535m overflow"}},
		{"DA", "\x1b[c\x1b[>c\x1b[6n", []string{"csi@0+3 c", "csi@3+4 >c", "csi@7+4 6n"}},
		{"ESC aborts csi", "\x1b[31\x1b[m", []string{"csi@0+4 31 aborted(ESC)", "csi@4+3 m"}},
		{"CAN aborts csi", "\x1b[31\x18x", []string{"csi@0+4 31 aborted(CAN)", "c0@4+1 18", "text@5+1"}},
		{"SUB aborts csi", "\x1b[31\x1ax", []string{"csi@0+4 31 aborted(SUB)", "c0@4+1 1A", "text@5+1"}},
		{"LF inside csi", "\x1b[3\n1m", []string{"text@3+1 embedded", "csi@0+6 31m"}},
		{"CR inside escape", "\x1b(\rB", []string{"c0@2+1 0D embedded", "nf@0+4 \"(\"B"}},
		{"non-ASCII inside csi", "\x1b[3éx", []string{"csi@0+5 3 aborted(non-ASCII)", "text@5+1"}},
		{"C1 inside csi", "\x1b[3\x9b1m", []string{"csi@0+3 3 aborted(C1)", "csi@3+3 8-bit 1m"}},
		{"ESC ESC", "\x1b\x1b[m", []string{"esc@0+1 aborted(ESC)", "csi@1+3 m"}},
		{"ESC non-ASCII", "\x1bé", []string{"esc@0+1 aborted(non-ASCII)", "text@1+2"}},
		{"ESC DEL ignored", "\x1b\x7f7", []string{"esc@0+3 \"\"7"}},
		{"osc bel", "\x1b]0;title\x07x", []string{"osc@0+10 cmd=0 pay=7 BEL", "text@10+1"}},
		{"osc st", "\x1b]2;t\x1b\\", []string{"osc@0+7 cmd=2 pay=3 ST"}},
		{"osc 104 no semicolon", "\x1b]104\x07", []string{"osc@0+6 cmd=104 pay=3 BEL"}},
		{"osc non-numeric", "\x1b]L;x\x07", []string{"osc@0+6 cmd=-1 pay=3 BEL"}},
		{"osc unterminated", "a\x1b]52;c;QUFB", []string{"text@0+1", "osc@1+11 cmd=52 pay=9 unterminated"}},
		{"9C in ESC ] stays open", "\x1b]0;a\x9cb\x07", []string{"osc@0+8 cmd=0 pay=5 BEL ambiguous"}},
		{"U+009C in ESC ] stays open", "\x1b]0;a\xc2\x9cb\x07", []string{"osc@0+9 cmd=0 pay=6 BEL ambiguous"}},
		{"raw OSC closed by raw ST", "\x9d0;t\x9cx", []string{"osc@0+5 8-bit cmd=0 pay=3 C1 ST", "text@5+1"}},
		{"utf8 OSC closed by utf8 ST", "\xc2\x9d0;t\xc2\x9cx", []string{"osc@0+7 utf-8 cmd=0 pay=3 C1 ST", "text@7+1"}},
		{"utf8 in payload opens nothing", "\x1b]0;\xd0\x90\x07", []string{"osc@0+7 cmd=0 pay=4 BEL"}},
		{"ESC aborts string", "\x1b]0;a\x1b[mx", []string{"osc@0+5 cmd=0 pay=3 aborted(ESC)", "csi@5+3 m", "text@8+1"}},
		{"CAN aborts string", "\x1bPab\x18c", []string{"dcs@0+4 pay=2 aborted(CAN)", "c0@4+1 18", "text@5+1"}},
		{"BEL is DCS payload", "\x1bPa\x07b\x1b\\", []string{"dcs@0+7 pay=3 ST"}},
		{"BEL is APC payload", "\x1b_Ga\x07b\x1b\\", []string{"apc@0+8 pay=4 ST"}},
		{"LF in DCS payload", "\x1bP$q\nm\x1b\\", []string{"dcs@0+8 pay=4 ST"}},
		{"PM", "\x1b^secret\x1b\\", []string{"pm@0+10 pay=6 ST"}},
		{"SOS", "\x1bXs\x1b\\", []string{"sos@0+5 pay=1 ST"}},
		{"ESC k title", "\x1bkname\x1b\\\x1bkx\x07", []string{"esc-k@0+8 pay=4 ST", "esc-k@8+4 pay=1 BEL"}},
		{"raw CSI", "\x9b31mX", []string{"csi@0+4 8-bit 31m", "text@4+1"}},
		{"utf8 CSI", "\xc2\x9b31mX", []string{"csi@0+5 utf-8 31m", "text@5+1"}},
		{"lone C1", "\x85\x8d", []string{"c1@0+1 8-bit 85", "c1@1+1 8-bit 8D"}},
		{"utf8 C1 NEL", "\xc2\x85", []string{"c1@0+2 utf-8 85"}},
		{"stray raw ST", "\x9c", []string{"c1@0+1 8-bit 9C"}},
		{"cyrillic er", "\xd1\x80", []string{"text@0+2"}},
		{"serbian tshe", "\xd1\x9b", []string{"text@0+2"}},
		{"devanagari ka", "\xe0\xa4\x95", []string{"text@0+3"}},
		{"cjk", "\xe7\xbb\x88", []string{"text@0+3"}},
		{"E6 9B h", "\xe6\x9bh", []string{"invalid-utf8@0+2", "text@2+1"}},
		{"overlong C0 9B", "\xc0\x9b1m", []string{"invalid-utf8@0+1", "csi@1+3 8-bit 1m"}},
		{"surrogate", "\xed\xa0\x80", []string{"invalid-utf8@0+1", "invalid-utf8@1+1", "c1@2+1 8-bit 80"}},
		{"invalid before ESC", "\xe2\x82\x1b[m", []string{"invalid-utf8@0+2", "csi@2+3 m"}},
		{"cut at end", "a\xe2\x82", []string{"text@0+1", "invalid-utf8@1+2"}},
		{"F5 FF", "\xf5\xff", []string{"invalid-utf8@0+1", "invalid-utf8@1+1"}},
		{"C0 and DEL", "\x00\x07\x0b\x0c\r\x08\x7f", []string{"c0@0+1 00", "c0@1+1 07", "c0@2+1 0B", "c0@3+1 0C", "c0@4+1 0D", "c0@5+1 08", "del@6+1 7F"}},
		{"bidi override", "a\u202eb", []string{"text@0+1", "format@1+3 U+202E", "text@4+1"}},
		{"tag", "\U000E0041", []string{"format@0+4 U+E0041"}},
		{"zwj", "x\u200dy", []string{"text@0+1", "format@1+3 U+200D", "text@4+1"}},
		{"unterminated csi", "\x1b[12", []string{"csi@0+4 12 unterminated"}},
		{"lone ESC at end", "a\x1b", []string{"text@0+1", "esc@1+1 unterminated"}},
		{"ESC at end of string", "\x1b]0;x\x1b", []string{"osc@0+6 cmd=0 pay=3 unterminated"}},
		{"csi abort char cut", "\x1b[1\xe4\xb8", []string{"csi@0+5 1 aborted(non-ASCII)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sigs(collect(Decoder{}, []byte(tc.in)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	got := sigs(collect(Decoder{LoneC1: true}, []byte("caf\x9b\x9d \x9c")))
	want := []string{"text@0+3", "c1@3+1 8-bit 9B", "c1@4+1 8-bit 9D", "text@5+1", "c1@6+1 8-bit 9C"}
	if !slices.Equal(got, want) {
		t.Errorf("LoneC1: got %q, want %q", got, want)
	}
	got = sigs(collect(Decoder{APCBEL: true}, []byte("\x1b_bk;t=1\x07x")))
	want = []string{"apc@0+9 pay=6 BEL", "text@9+1"}
	if !slices.Equal(got, want) {
		t.Errorf("APCBEL: got %q, want %q", got, want)
	}
	long := "\x1b]0;" + strings.Repeat("a", 4094) + "\x07"
	if g := sig(collect(Decoder{}, []byte(long))[0]); strings.Contains(g, "overlong") {
		t.Errorf("4096-byte payload flagged: %s", g)
	}
	long = "\x1b]0;" + strings.Repeat("a", 4095) + "\x07"
	if g := sig(collect(Decoder{}, []byte(long))[0]); !strings.Contains(g, "overlong") {
		t.Errorf("4097-byte payload not flagged: %s", g)
	}
	if g := sig(collect(Decoder{MaxPayload: 3}, []byte("\x1bPabcd\x1b\\"))[0]); !strings.Contains(g, "overlong") {
		t.Errorf("MaxPayload 3: %s", g)
	}
}

func TestManyParams(t *testing.T) {
	in := "\x1b[" + strings.Repeat("1;", 9999) + "1m"
	ts := collect(Decoder{}, []byte(in))
	if len(ts) != 1 {
		t.Fatalf("got %d tokens, want 1", len(ts))
	}
	tok := ts[0]
	if tok.ParamCount != 10000 || tok.NParam != MaxParams || !tok.Is(FlagOverflow) || tok.Final != 'm' {
		t.Errorf("got %s count=%d", sig(tok), tok.ParamCount)
	}
}

func TestPrefix(t *testing.T) {
	tok := collect(Decoder{}, []byte("\x1bPtmux;\x1b\x1b]52;c;x\x07\x1b\\"))
	if got := string(tok[0].PayloadPrefix()); got != "tmux;" {
		t.Errorf("prefix %q (tokens %q)", got, sigs(tok))
	}
	tok = collect(Decoder{}, []byte("\x1b]52;c;"+strings.Repeat("Q", 100)+"\x07"))
	if got := string(tok[0].PayloadPrefix()); got != "52;c;QQQQQQQQQQQ" || tok[0].Payload != 105 {
		t.Errorf("prefix %q payload %d", got, tok[0].Payload)
	}
}

// checkTiling asserts that the non-embedded tokens of ts tile [0, n) and
// that every embedded token lies inside the next non-embedded one.
func checkTiling(t *testing.T, p []byte, ts []Token) {
	t.Helper()
	var at int64
	var pending []Token
	for _, tok := range ts {
		if tok.Len <= 0 {
			t.Fatalf("%q: empty token %s", p, sig(tok))
		}
		if tok.Is(FlagEmbedded) {
			pending = append(pending, tok)
			continue
		}
		if tok.Off != at {
			t.Fatalf("%q: token %s at %d, want %d", p, sig(tok), tok.Off, at)
		}
		for _, e := range pending {
			if e.Off < tok.Off || e.End() > tok.End() {
				t.Fatalf("%q: embedded %s outside %s", p, sig(e), sig(tok))
			}
		}
		pending = pending[:0]
		at = tok.End()
	}
	if at != int64(len(p)) || len(pending) > 0 {
		t.Fatalf("%q: tokens end at %d, input is %d bytes (%d embedded left)", p, at, len(p), len(pending))
	}
}

// coalesce merges adjacent text tokens (which Feed boundaries split) so
// that token streams can be compared across chunkings.
func coalesce(ts []Token) []Token {
	var out []Token
	for _, t := range ts {
		t.Rune = 0
		if n := len(out); n > 0 && t.Kind == KindText && !t.Is(FlagEmbedded) &&
			out[n-1].Kind == KindText && !out[n-1].Is(FlagEmbedded) && out[n-1].End() == t.Off {
			out[n-1].Len += t.Len
			continue
		}
		out = append(out, t)
	}
	return out
}

// feedSplit decodes p fed in the chunks that cuts (sorted offsets) make.
func feedSplit(d Decoder, p []byte, cuts []int) []Token {
	var ts []Token
	emit := func(t *Token) { ts = append(ts, *t) }
	prev := 0
	for _, c := range cuts {
		d.Feed(p[prev:c], emit)
		prev = c
	}
	d.Feed(p[prev:], emit)
	d.End(emit)
	return ts
}

func TestTilingRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		p := hostile.Bytes(r, r.IntN(200))
		checkTiling(t, p, collect(Decoder{}, p))
		checkTiling(t, p, collect(Decoder{LoneC1: true, APCBEL: true}, p))
	}
}

func TestSplitInvariance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		p := hostile.Bytes(r, r.IntN(120))
		whole := coalesce(collect(Decoder{}, p))
		// Every single split point, then byte by byte, then random cuts.
		for c := 0; c <= len(p); c++ {
			if got := coalesce(feedSplit(Decoder{}, p, []int{c})); !slices.Equal(got, whole) {
				t.Fatalf("%q split at %d:\n got %q\nwant %q", p, c, sigs(got), sigs(whole))
			}
		}
		var every []int
		for c := 1; c < len(p); c++ {
			every = append(every, c)
		}
		if got := coalesce(feedSplit(Decoder{}, p, every)); !slices.Equal(got, whole) {
			t.Fatalf("%q byte by byte:\n got %q\nwant %q", p, sigs(got), sigs(whole))
		}
	}
}

func TestCheckpoint(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		p := hostile.Bytes(r, 1+r.IntN(150))
		cut := r.IntN(len(p))
		var d Decoder
		var head []Token
		d.Feed(p[:cut], func(t *Token) { head = append(head, *t) })
		cp := d // checkpoint
		var a, b []Token
		d.Feed(p[cut:], func(t *Token) { a = append(a, *t) })
		d.End(func(t *Token) { a = append(a, *t) })
		cp.Feed(p[cut:], func(t *Token) { b = append(b, *t) })
		cp.End(func(t *Token) { b = append(b, *t) })
		if !slices.Equal(a, b) {
			t.Fatalf("%q: resumed copy differs at cut %d", p, cut)
		}
	}
}

// TestFastPathAgrees compares whole-buffer decoding, where the 8-byte text
// scan runs, with one byte per Feed, where it never sees more than a byte.
func TestFastPathAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		// Mostly printable text so the 8-byte scan runs, with controls mixed in.
		p := []byte(strings.Repeat("plain text, 8 bytes+ ", 1+r.IntN(4)))
		for range r.IntN(6) {
			i := r.IntN(len(p))
			p = slices.Insert(p, i, hostile.Bytes(r, 1+r.IntN(6))...)
		}
		var every []int
		for c := 1; c < len(p); c++ {
			every = append(every, c)
		}
		if a, b := coalesce(collect(Decoder{}, p)), coalesce(feedSplit(Decoder{}, p, every)); !slices.Equal(a, b) {
			t.Fatalf("%q: fast %q, slow %q", p, sigs(a), sigs(b))
		}
	}
	// Control string payloads heavy in UTF-8, whole and cut units, 9C
	// as a continuation byte and as C1 ST, where the payload skip runs.
	units := []string{"a", "é", "\xe6\x9c\x80", "\xe6\x9c", "\xe0\x9c", "\xc2\x9c", "\xc2", "\xf0\x9f\x98\x80", "\xf0\x9f", "\x9c", "\xed\xa0\x80", "\xff", "\x07", "\x1b\\"}
	for range 2000 {
		var b strings.Builder
		b.WriteString([]string{"\x1b]0;", "\x9d8;;", "\xc2\x9f", "\x1bP", "\x1b_"}[r.IntN(5)])
		for range r.IntN(30) {
			b.WriteString(units[r.IntN(len(units))])
		}
		p := []byte(b.String())
		var every []int
		for c := 1; c < len(p); c++ {
			every = append(every, c)
		}
		if a, b := coalesce(collect(Decoder{}, p)), coalesce(feedSplit(Decoder{}, p, every)); !slices.Equal(a, b) {
			t.Fatalf("%q: fast %q, slow %q", p, sigs(a), sigs(b))
		}
	}
}

func TestSkipPrintable(t *testing.T) {
	for b := range 256 {
		w := bytes.Repeat([]byte{'a'}, 8)
		for pos := range 8 {
			w[pos] = byte(b)
			want := 8
			if b < 0x20 || b >= 0x7F {
				want = pos
			}
			if got := skipPrintable(w, 0); got != want {
				t.Fatalf("byte %02X at %d: got %d", b, pos, got)
			}
			w[pos] = 'a'
		}
	}
	// Several flagged bytes: the first one counts, whatever follows it.
	edge := []byte{0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xFF}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		var w [8]byte
		want := 8
		for i := range w {
			b := edge[r.IntN(len(edge))]
			w[i] = b
			if want == 8 && (b < 0x20 || b >= 0x7F) {
				want = i
			}
		}
		if got := skipPrintable(w[:], 0); got != want {
			t.Fatalf("% x: got %d, want %d", w, got, want)
		}
	}
}

func TestFeedAllocs(t *testing.T) {
	p := []byte(strings.Repeat("text \x1b[1;31mred\x1b[0m \x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\ é中\r\n", 50))
	var d Decoder
	n := 0
	emit := func(*Token) { n++ }
	allocs := testing.AllocsPerRun(100, func() { d.Feed(p, emit) })
	if allocs != 0 {
		t.Errorf("Feed allocates %.1f times per call", allocs)
	}
}

func TestKindString(t *testing.T) {
	for k := range numKinds {
		if k.String() == "" || k.String() == "kind?" {
			t.Errorf("kind %d has no name", k)
		}
	}
}

// TestPlainUTF8 checks ground's non-ASCII fast path against decodeUTF8 on
// every 2- and 3-byte sequence: decoding the bytes whole (fast path) and
// one byte per Feed (never the fast path) must give the same tokens.
func TestPlainUTF8(t *testing.T) {
	for b0 := 0xC0; b0 < 0xF0; b0++ {
		for b1 := 0x70; b1 < 0xC8; b1++ {
			for _, b2 := range []byte{0x41, 0x80, 0x8B, 0x9B, 0x9C, 0xAE, 0xBF, 0xC0} {
				p := []byte{byte(b0), byte(b1), b2, 'x'}
				if a, b := coalesce(collect(Decoder{}, p)), coalesce(feedSplit(Decoder{}, p, []int{1, 2, 3})); !slices.Equal(a, b) {
					t.Fatalf("% x: whole %q, byte by byte %q", p, sigs(a), sigs(b))
				}
			}
		}
	}
}

// TestPlainLead checks that every format character (ClassifyFormat) starts
// with a lead byte that ground's fast path does not take as plain text
// (plainLead 0), so that none is skipped over as text.
func TestPlainLead(t *testing.T) {
	for r := rune(0x80); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || ClassifyFormat(r) == FormatNone {
			continue
		}
		if lead := string(r)[0]; plainLead[lead] != 0 {
			t.Fatalf("U+%04X is a format character, but its lead byte %02X is in plainLead", r, lead)
		}
	}
}

// TestStates feeds the shortest input that leads to each state and checks
// the state the decoder is left in: every state of the diagram and every
// addition is reachable, and the table reads as a map of the diagram.
func TestStates(t *testing.T) {
	cases := []struct {
		in   string
		want state
	}{
		{"text", stateGround},
		{"\xe6\x9c", stateUTF8},
		{"\x1b", stateEscape},
		{"\x1b(", stateEscapeIntermediate},
		{"\x1b#(", stateEscapeIntermediate},
		{"\x1b[", stateCSIEntry},
		{"\x9b", stateCSIEntry},
		{"\xc2\x9b", stateCSIEntry},
		{"\x1b[1", stateCSIParam},
		{"\x1b[?", stateCSIParam},
		{"\x1b[;", stateCSIParam},
		{"\x1b[1\x00", stateCSIParam},
		{"\x1b[ ", stateCSIIntermediate},
		{"\x1b[1$", stateCSIIntermediate},
		{"\x1b[1$1", stateCSIIgnore},
		{"\x1b[1?", stateCSIIgnore},
		{"\x1b[\xe6", stateCSIAbortChar},
		{"\x1b[1\xf0\x9f", stateCSIAbortChar},
		{"\x1b]", stateOSCCommand},
		{"\x1b]52", stateOSCCommand},
		{"\x9d52\xc2", stateOSCCommandC2},
		{"\x1b]52;", stateOSCString},
		{"\x1b]x", stateOSCString},
		{"\x1bk", stateOSCString},
		{"\x1bP", stateDCSPassthrough},
		{"\x90q\x07", stateDCSPassthrough},
		{"\x1bX", stateSOSPMAPCString},
		{"\x1b^", stateSOSPMAPCString},
		{"\x1b_G\x07", stateSOSPMAPCString},
		{"\x1b]0;\x1b", stateStringEsc},
		{"\x1bP\x1b", stateStringEsc},
		{"\x1b]0;\xe6", stateStringUTF8},
		{"\x1b_\xc2", stateStringUTF8},
		{"\x9d0;\xc2", stateStringUTF8},
	}
	var reached [numStates]bool
	for _, c := range cases {
		// Whole and byte by byte: the state does not depend on the cuts.
		for _, step := range []int{len(c.in), 1} {
			var d Decoder
			for p := []byte(c.in); len(p) > 0; {
				n := min(step, len(p))
				d.Feed(p[:n], func(*Token) {})
				p = p[n:]
			}
			if d.state != c.want {
				t.Errorf("%q fed %d at a time: state %d, want %d", c.in, step, d.state, c.want)
			}
		}
		reached[c.want] = true
	}
	for s, ok := range reached {
		if !ok {
			t.Errorf("state %d: no case", s)
		}
	}
}
