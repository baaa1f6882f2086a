package sanitize

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/bytelens/bytelens/decode"
)

// TestFormatPolicy checks the format character decision table: what each
// class becomes by context, which flags it raises, and that the result
// does not depend on where the input is split, a split between a base
// character and its selector included.
func TestFormatPolicy(t *testing.T) {
	tests := []struct {
		name, in, policy, want string
		invisible, reorder     int64
		findings               []string // kind@offset+bytes
	}{
		{"emoji selector kept", "\U0001F600\ufe0f", "", "\U0001F600\ufe0f", 0, 0, nil},
		{"second selector removed", "\U0001F600\ufe0f\ufe0e", "", "\U0001F600\ufe0f", 1, 0, []string{"invisible@7+3"}},
		{"selector after space removed", "a \ufe0f", "", "a ", 1, 0, []string{"invisible@2+3"}},
		{"selector at start removed", "\ufe0fa", "", "a", 1, 0, []string{"invisible@0+3"}},
		{"keycap", "#\ufe0f\u20e3", "", "#\ufe0f\u20e3", 0, 0, nil},
		{"digit keycap", "1\ufe0f\u20e3", "", "1\ufe0f\u20e3", 0, 0, nil},
		// A selector after a digit draws the same digit: one per digit
		// of a log would carry hidden bits. It is kept in a keycap.
		{"selector after digit removed", "12\ufe0e3\ufe0f", "", "123", 2, 0, []string{"invisible@2+3", "invisible@6+3"}},
		{"text keycap", "1\ufe0e\u20e3", "", "1\ufe0e\u20e3", 0, 0, nil},
		{"keycap selector twice", "*\ufe0f\ufe0f\u20e3", "", "*\u20e3", 1, 0, []string{"invisible@1+6"}},
		{"selector after digit at end", "#\ufe0f", "", "#", 1, 0, []string{"invisible@1+3"}},
		{"selector after digit kept", "5\ufe0f", "format-chars=keep", "5\ufe0f", 1, 0, []string{"invisible@1+3"}},
		{"selector after digit escaped", "5\ufe0f!", "format-chars=escape", "5<U+FE0F>!", 1, 0, []string{"invisible@1+3"}},
		{"zero with short stroke", "0\ufe00", "", "0\ufe00", 0, 0, nil},
		{"math symbol", "\u2229\ufe00", "", "\u2229\ufe00", 0, 0, nil},
		{"information source letter", "\u2139\ufe0f", "", "\u2139\ufe0f", 0, 0, nil},
		{"myanmar letter", "\u1000\ufe00", "", "\u1000\ufe00", 0, 0, nil},
		{"cjk compatibility variant", "\u4e0d\ufe00", "", "\u4e0d\ufe00", 0, 0, nil},
		{"fullwidth punctuation variant", "\uff01\ufe01", "", "\uff01\ufe01", 0, 0, nil},
		{"emoji presentation after an emoji", "\U0001F600\ufe0f", "", "\U0001F600\ufe0f", 0, 0, nil},
		// A selector after an ideograph, a symbol or punctuation that has
		// no such sequence (StandardizedVariants.txt) draws nothing and
		// would carry four bits in every character of CJK text.
		{"selector after ideograph without the sequence removed", "\u4e00\ufe00\u4e0d\ufe05", "", "\u4e00\u4e0d", 2, 0, []string{"invisible@3+3", "invisible@9+3"}},
		{"selector after punctuation removed", "\u00bf\ufe0f\u3001\ufe07", "", "\u00bf\u3001", 2, 0, []string{"invisible@2+3", "invisible@8+3"}},
		// One selector per letter would carry four bits of a hidden
		// message in every character of ordinary text.
		{"selector after ascii letter removed", "h\ufe04i\ufe09", "", "hi", 2, 0, []string{"invisible@1+3", "invisible@5+3"}},
		{"emoji selector after ascii letter removed", "a\ufe0f", "", "a", 1, 0, []string{"invisible@1+3"}},
		{"selector after ascii punctuation removed", "!\ufe0f", "", "!", 1, 0, []string{"invisible@1+3"}},
		{"selector after cyrillic letter removed", "\u0434\ufe0f", "", "\u0434", 1, 0, []string{"invisible@2+3"}},
		{"selector after latin letter removed", "\u00e9\ufe01", "", "\u00e9", 1, 0, []string{"invisible@2+3"}},
		{"ideographic selector after ideograph", "\u845b\U000E0100", "", "\u845b\U000E0100", 0, 0, nil},
		{"ideographic selector after latin", "a\U000E0100", "", "a", 1, 0, []string{"invisible@1+4"}},
		{"selector after removed control", "a\x1b[m\ufe0f", "", "a", 1, 0, []string{"invisible@4+3"}},
		{"hidden message one run", "\U0001F600" + strings.Repeat("\U000E0140", 5), "", "\U0001F600", 1, 0, []string{"invisible@4+20"}},
		{"runs split by text", "\u200bx\u200b\u200b", "", "x", 2, 0, []string{"invisible@0+3", "invisible@4+6"}},
		{"run split by kept joiner", "\u200b\u200d\u200b", "", "", 1, 0, []string{"invisible@0+9"}},
		// A run of joiners and marks would carry a hidden message as
		// ZWNJ/ZWJ bits: only the first of a run is kept, also when
		// removed controls or invisible characters stand between them.
		{"joiner run", "ب\u200d\u200c\u200d\u200e\u00adت", "", "بت", 1, 0, []string{"invisible@2+14"}},
		// After a removed control a joining character stands next to
		// the last character written, which must keep it too.
		{"rlm after a removed control and no rtl text", "क\x00\u200fب", "", "कب", 1, 0, []string{"invisible@4+3"}},
		{"rlm after a removed control, overstrike", "क\x00\u200fب", "bs=overstrike", "कب", 1, 0, []string{"invisible@4+3"}},
		// Under escape as well, under bs=overstrike as under bs=drop, and
		// after literal text held from a '<', released before it.
		{"rlm after a removed control, escape", "क\x00\u200fب", "format-chars=escape", "क<U+200F>ب", 1, 0, []string{"invisible@4+3"}},
		{"rlm after a removed control, escape, overstrike", "क\x00\u200fب", "format-chars=escape,bs=overstrike", "क<U+200F>ب", 1, 0, []string{"invisible@4+3"}},
		{"rlm after a removed control and a held '<'", "क<\x00\u200fب", "format-chars=escape", "क<\u200fب", 0, 0, nil},
		{"rlm after a removed control and a held '<U'", "ب<U\x00\u200fب", "format-chars=escape", "ب<U<U+200F>ب", 1, 0, []string{"invisible@5+3"}},
		{"rlm after a removed control and rtl text", "א\x00\u200fب", "", "א\u200fب", 0, 0, nil},
		{"joiner run across removed controls", "ب\u200c\x1b[m\u200d\u200b\u200cت", "", "بت", 2, 0, []string{"invisible@2+3", "invisible@8+9"}},
		{"joiners between letters kept", "ب\u200cت\u200dث", "", "ب\u200cت\u200dث", 0, 0, nil},
		// A joiner, a bidi mark or a soft hyphen is kept only where a
		// script next to it needs it (joiningRules); after ASCII text each
		// of them, or none, looks the same.
		{"zwnj in persian", "می‌خواهم", "", "می‌خواهم", 0, 0, nil},
		{"zwj after virama in hindi", "क्‍ष", "", "क्‍ष", 0, 0, nil},
		{"zwnj after virama in hindi", "क्‌ष", "", "क्‌ष", 0, 0, nil},
		{"rlm after hebrew", "שלום‏!", "", "שלום‏!", 0, 0, nil},
		{"lrm between number and arabic", "10‎ب", "", "10‎ب", 0, 0, nil},
		{"alm after arabic digit", "١؜-", "", "١؜-", 0, 0, nil},
		{"shy in german", "Stra­ße", "", "Stra­ße", 0, 0, nil},
		{"emoji zwj with modifier", "👩🏽‍💻", "", "👩🏽‍💻", 0, 0, nil},
		{"zwnj between ascii letters removed", "a‌b", "", "ab", 1, 0, []string{"invisible@1+3"}},
		{"zwj between ascii letters removed", "a‍b", "", "ab", 1, 0, []string{"invisible@1+3"}},
		{"zwj between emoji and letter removed", "😀‍b", "", "😀b", 1, 0, []string{"invisible@4+3"}},
		{"zwj between arabic and emoji removed", "ب‍😀", "", "ب😀", 1, 0, []string{"invisible@2+3"}},
		{"lrm after ascii letter removed", "a‎b", "", "ab", 1, 0, []string{"invisible@1+3"}},
		{"rlm after ascii space removed", "a ‏b", "", "a b", 1, 0, []string{"invisible@2+3"}},
		{"alm after ascii removed", "e؜f", "", "ef", 1, 0, []string{"invisible@1+2"}},
		{"shy between ascii letters removed", "f­g", "", "fg", 1, 0, []string{"invisible@1+2"}},
		{"lrm at end after neutral removed", "1‎", "", "1", 1, 0, []string{"invisible@1+3"}},
		{"zwnj escaped in ascii", "a‌b", "format-chars=escape", "a<U+200C>b", 1, 0, []string{"invisible@1+3"}},
		{"emoji zwj sequence", "\U0001F469\u200d\U0001F4BB", "", "\U0001F469\u200d\U0001F4BB", 0, 0, nil},
		// U+FE0F ends an emoji element, it does not begin one: after a
		// ZWJ it is removed, and so is the ZWJ, which cleaning the
		// output again would otherwise remove (Text was not idempotent).
		{"zwj before a selector", "\U0001F468\u200d\ufe0f", "", "\U0001F468", 1, 0, []string{"invisible@4+6"}},
		{"zwj before a selector and an emoji", "\U0001F468\u200d\ufe0f\U0001F4BB", "", "\U0001F468\U0001F4BB", 1, 0, []string{"invisible@4+6"}},
		{"selector before a zwj kept", "\u2764\ufe0f\u200d\U0001F525", "", "\u2764\ufe0f\u200d\U0001F525", 0, 0, nil},
		{"joiners under overstrike", "بت\u200d\b\b\bسش\u200d\u200cص\n", "bs=overstrike", "سشص\n", 2, 0, []string{"invisible@4+3", "overwrite@7+1", "overwrite@8+1", "overwrite@9+1", "invisible@14+6"}},
		{"joiners between letters under overstrike", "ب\u200cت\u200dث\n", "bs=overstrike", "ب\u200cت\u200dث\n", 0, 0, nil},
		// The screen draws no format character, whatever the policy; the
		// flags are raised as under cr=lines.
		{"format characters under screen", "ب\u200cت\u202eث\u200b\n", "cr=screen,format-chars=keep", "بتث\n", 1, 1, []string{"reorder@7+3", "invisible@12+3"}},
		{"joiners across a line break", "ب\u200d\n\u200dت", "", "ب\nت", 2, 0, []string{"invisible@2+3", "invisible@6+3"}},
		{"joiner run kept", "ب\u200d\u200c", "format-chars=keep", "ب\u200d\u200c", 1, 0, []string{"invisible@2+6"}},
		{"hangul filler", "a\u3164b\uffa0", "", "ab", 2, 0, []string{"invisible@1+3", "invisible@5+3"}},
		{"choseong filler before vowel", "\u115f\u1161", "", "\u115f\u1161", 0, 0, nil},
		{"choseong filler alone", "\u115fx", "", "x", 1, 0, []string{"invisible@0+3"}},
		{"choseong filler at end", "x\u115f", "", "x", 1, 0, []string{"invisible@1+3"}},
		// The two fillers together are a blank syllable: a run of them
		// with a joiner or none after each would spell a hidden message.
		{"both fillers removed", "a\u115f\u1160b", "", "ab", 1, 0, []string{"invisible@1+6"}},
		{"filler syllables between joiners", "ب\u200d\u115f\u1160\u200c\u115f\u1160\u200dت", "", "بت", 1, 0, []string{"invisible@2+21"}},
		{"jungseong filler after consonant", "\u1100\u1160", "", "\u1100\u1160", 0, 0, nil},
		{"jungseong filler alone", "a\u1160", "", "a", 1, 0, []string{"invisible@1+3"}},
		{"mongolian selector", "\u1820\u180b", "", "\u1820\u180b", 0, 0, nil},
		{"mongolian selector outside", "a\u180b\u180e", "", "a", 1, 0, []string{"invisible@1+6"}},
		{"mongolian selectors twice", "\u1820\u180b\u180c", "", "\u1820\u180b", 1, 0, []string{"invisible@6+3"}},
		{"unassigned default ignorable", "a\u2065\ufff0\U000E0080\U000E01F0\U000E0FFFb", "", "ab", 1, 0, []string{"invisible@1+18"}},
		{"egyptian format controls", "a\U00013430\U0001343Fb", "", "ab", 1, 0, []string{"invisible@1+8"}},
		{"misc invisible", "\u034f\u206a\ufff9\u17b4\U0001D173\U0001BCA0", "", "", 1, 0, []string{"invisible@0+19"}},
		{"line separators", "a\u2028b\u2029", "", "a\nb\n", 0, 0, nil},
		{"line separator kept", "a\u2028b", "format-chars=keep", "a\u2028b", 0, 0, nil},
		{"bidi", "a\u202eb\u2066c", "", "abc", 0, 2, []string{"reorder@1+3", "reorder@5+3"}},
		{"bidi escaped", "a\u202eb", "format-chars=escape", "a<U+202E>b", 0, 1, []string{"reorder@1+3"}},
		{"invisible kept still flagged", "a\u200bb", "format-chars=keep", "a\u200bb", 1, 0, []string{"invisible@1+3"}},
		{"escape spelled", "<U+202E>", "format-chars=escape", "<U+003C>U+202E>", 0, 0, nil},
		{"escape spelled six digits", "<U+10FFFF>", "format-chars=escape", "<U+003C>U+10FFFF>", 0, 0, nil},
		{"escape spelled across removed CSI", "<U+20\x1b[1m2E>", "format-chars=escape", "<U+003C>U+202E>", 0, 0, nil},
		{"escape spelled across dropped CR", "<U+20\r2E>", "cr=drop,format-chars=escape", "<U+003C>U+202E>", 0, 0, []string{"overwrite@5+1"}},
		{"escape spelled broken by CR", "<U+20\r2E>", "format-chars=escape", "<U+20\n2E>", 0, 0, []string{"overwrite@5+1"}},
		{"escape three digits", "<U+20E>", "format-chars=escape", "<U+20E>", 0, 0, nil},
		{"escape lower case", "<U+202e>", "format-chars=escape", "<U+202e>", 0, 0, nil},
		{"escape twice", "<<U+2066>", "format-chars=escape", "<<U+003C>U+2066>", 0, 0, nil},
		{"escape open at end", "x <U+2", "format-chars=escape", "x <U+2", 0, 0, nil},
		{"escape broken by real override", "<U+\u202e", "format-chars=escape", "<U+<U+202E>", 0, 1, []string{"reorder@3+3"}},
		{"escape under overstrike", "<U+202E>\n", "bs=overstrike,format-chars=escape", "<U+003C>U+202E>\n", 0, 0, nil},
		{"strip leaves text spelled", "<U+202E>", "", "<U+202E>", 0, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParsePolicy(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			in := []byte(tc.in)
			out, rep := Bytes(in, o)
			if string(out) != tc.want {
				t.Errorf("out %q, want %q", out, tc.want)
			}
			if rep.Flags.Invisible != tc.invisible || rep.Flags.Reorder != tc.reorder {
				t.Errorf("invisible %d reorder %d, want %d %d", rep.Flags.Invisible, rep.Flags.Reorder, tc.invisible, tc.reorder)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, fmt.Sprintf("%s@%d+%d", f.Kind, f.Offset, f.Bytes))
			}
			if !slices.Equal(got, tc.findings) {
				t.Errorf("findings %q, want %q", got, tc.findings)
			}
			for c := 1; c < len(in); c++ {
				assertSplit(t, tc.name, in, o, []int{c}, out, rep)
			}
			var every []int
			for c := 1; c < len(in); c++ {
				every = append(every, c)
			}
			assertSplit(t, tc.name, in, o, every, out, rep)
		})
	}
}

// TestJoiningCapacityAfterASCII: after an ASCII letter, with ASCII text or
// the end of the text after it, no invisible character changes the cleaned
// text: one choice, no hidden bits (format characters that the policy
// turns into something visible, the line separators, aside).
func TestJoiningCapacityAfterASCII(t *testing.T) {
	var invisible []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if r >= 0xE0200 && testing.Short() {
			break // the rest of the block is unassigned default ignorables, one class
		}
		if cls := decode.ClassifyFormat(r); cls != decode.FormatNone && cls != decode.FormatLineSeparator {
			invisible = append(invisible, r)
		}
	}
	for _, prev := range []string{"a", "Z"} {
		for _, next := range []string{"", "b", " ", "1", "\n"} {
			want, _ := Bytes([]byte(prev+next), Options{})
			for _, r := range invisible {
				in := prev + string(r) + next
				if got, _ := Bytes([]byte(in), Options{}); !bytes.Equal(got, want) {
					t.Fatalf("%q: cleaned %q, want %q: a second choice after an ASCII letter", in, got, want)
				}
			}
		}
	}
}

// TestRedTeamJoiners: the red team's line of invisible choices after
// ASCII letters, an emoji and an ideograph: each joiner, mark and soft
// hyphen is removed and found; the selectors after their bases stay.
func TestRedTeamJoiners(t *testing.T) {
	in := "a\u200cb\u200dc\u200ed\u200fe\u061cf\u00adg\U0001F600\ufe0e\u200c\u4e00\U000E0100\u200d\n"
	out, rep := Bytes([]byte(in), Options{})
	if want := "abcdefg\U0001F600\ufe0e\u4e00\U000E0100\n"; string(out) != want {
		t.Errorf("out %q, want %q", out, want)
	}
	if rep.Removed.Format != 8 || rep.Flags.Invisible != 8 || rep.Kept.Format != 2 {
		t.Errorf("removed %d invisible %d kept %d, want 8 8 2", rep.Removed.Format, rep.Flags.Invisible, rep.Kept.Format)
	}
}

// TestIdempotentAroundRemovedControls: a format character after a control
// the policy removes is judged as at the start of the text, but in the
// cleaned text it stands next to the last character written, and cleaning
// that text again must decide the same ("क NUL RLM ب" once kept the RLM,
// which follows no right-to-left text, and the second pass removed it).
// The cleaned text is also the same whatever the Writes' lengths, the
// last character written lying in an earlier Write included.
func TestIdempotentAroundRemovedControls(t *testing.T) {
	pool := strings.Split("a|z|1|#|*| |.|क|ष|ب|ت|א|😀|👨|❤|葛|ᠠ|ᄀ|\u1161|"+
		"\u200c|\u200d|\u200e|\u200f|\u061c|\u00ad|\ufe0e|\ufe0f|\U000E0100|\u180b|\u115f|\u1160|\u20e3|\u202e|\u2028|"+
		"\x00|\x07|\x1b[m|\x1b[31m|\r|\b|\x7f|\xff|\x1b]0;t\x07|\x9b1m", "|")
	r := rand.New(rand.NewPCG(31, 32))
	for i := range 20000 {
		var sb strings.Builder
		for range 2 + r.IntN(6) {
			sb.WriteString(pool[r.IntN(len(pool))])
		}
		in := []byte(sb.String())
		o := []Options{{}, {CR: CRDrop}, {FormatChars: FormatKeep}}[i%3]
		once, rep := Bytes(in, o)
		if twice, _ := Bytes(once, o); !bytes.Equal(once, twice) {
			t.Fatalf("%+v %q: once %q, twice %q", o, in, once, twice)
		}
		var cuts []int
		for c := 1 + r.IntN(4); c < len(in); c += 1 + r.IntN(4) {
			cuts = append(cuts, c)
		}
		assertSplit(t, fmt.Sprintf("%+v %q", o, in), in, o, cuts, once, rep)
	}
}
