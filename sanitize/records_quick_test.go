package sanitize

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// quickInputs are inputs dense with the records quickRecords takes (text
// between SGRs, short sequences the memo recalls, C0 controls, invalid
// UTF-8, controls embedded in sequences) and with the ones next to them
// that it must leave to record.
func quickInputs() map[string]string {
	in := map[string]string{}
	// Text of every length from 1 to 40 bytes and around maxWide, between
	// SGRs: one 16-byte word, two, the last word cut short, too long.
	var text strings.Builder
	for _, n := range []int{1, 2, 15, 16, 17, 31, 32, 33, 40, maxWide - 1, maxWide, maxWide + 1, 600} {
		for k := range 3 {
			fmt.Fprintf(&text, "\x1b[3%dm%s\x1b[m", k, strings.Repeat(string(rune('a'+k)), n))
		}
	}
	in["text lengths"] = text.String()
	// Sequences of every length from 3 to maxMemo+2 bytes in pairs that
	// differ only in their last byte (SGR and erase, counted by different
	// keys), and ones that differ only in their first bytes.
	var seqs strings.Builder
	for n := 0; n <= maxMemo-1; n++ {
		params := strings.Repeat("1;", n)[:n]
		for _, final := range "mJmK" {
			fmt.Fprintf(&seqs, "x\x1b[%s%c", params, final)
		}
		fmt.Fprintf(&seqs, "\x1b[?%sh\x1b[>%sm", params, params)
	}
	in["sequence lengths"] = seqs.String()
	// Aborted strings whose payloads differ only in NULs at the end (one
	// overlong under a short payload limit), aborted escapes and CSIs.
	in["aborted"] = "\x1b]0;abcdefg\x1b[m\x1b]0;abcdefg\x00\x00\x1b[m\x1bPabcdefg\x00\x1b[m\x1bPabcdefg\x1b[m\x1b[1;2\x1b[m\x1b\x18\x1b[3\x1a"
	// SGR conceal (parameter 8) in every position, as a subparameter, in
	// a colour (not conceal), leading zeros, and SGRs past maxMemo bytes.
	in["SGR 8"] = "\x1b[8m1\x1b[1;8m2\x1b[8;1m3\x1b[1;8;2m4\x1b[38;5;8m5\x1b[48;2;8;8;8m6\x1b[18m7\x1b[08m8" +
		"\x1b[1:8m9\x1b[38:5:8m10\x1b[8:1m11\x1b[;8m12\x1b[8;m13\x1b[88m14\x1b[800m15\x1b[0008m16" +
		"\x1b[1;2;3;4;5;6;7;8m17\x1b[38;2;255;255;255m18\x1b[38;2;255;255;8m19\x1b[1;2;3;4;5;6;7;9;1m20" +
		"\x1b[99999m21\x1b[1;99999m22\x1b[12345m23\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33m24"
	// C0 controls, also embedded in sequences; a CR run before text and
	// before an SGR; invalid UTF-8 between SGRs; 8-bit and UTF-8 CSIs.
	in["controls"] = "a\x01b\x1b[1\n;2mc\x1b[1\t2md\x1b[3\x00m\x1b[\r4me\r\r\x1b[1mf\rg\x1b[m\bh\x0bi\x0cj\x7fk" +
		"\xff\x1b[1m\xe2\x82\x1b[m\xc0l\x9b1m\xc2\x9b2mm\x1b7\x1b(B\x1b]0;t\x07n\x1bPq\x1b\\o"
	// Text whose last character the format policy reads back (a variation
	// selector, a joiner after it), right after the record path copied it.
	in["format after text"] = "\x1b[1m#\ufe0f\x1b[m#\x1b[m\ufe0f\x1b[1m\u4e00\U000E0100\x1b[m\u4e00\x1b[m\U000E0100" +
		"\x1b[1m\u200d\x1b[m\u200d\u200d\x1b[2m\u202ex\x1b[m\u2066"
	// Runs of CRs before text, LF, an LF or TAB embedded in a sequence,
	// invalid UTF-8, an erase and an SGR before text (as a progress
	// redraw writes them), a CR LF inside text, and at the end of the
	// input (of the stream, after the last repeat).
	in["CR runs"] = "a\r\rb\r\n\r\r\nc\r\x1b[K[ 1%] x\r\x1b[2K\x1b[33mw\x1b[m\r\x1b[1\nm\r\x1b[1\tm\r\xff\r\x00q\r\rd\re\r\n\r\r"
	// OSC 8 links: opens with and without parameters and labels, closes
	// by BEL, ESC \\, C1 ST and C2 9C, an open that replaces an open
	// one, a URI that LinksAppend does not show (not http, too long), a
	// 9C inside the payload, and a link left open at the end.
	in["links"] = "\x1b]8;;https://e.example/a\x1b\\label\x1b]8;;\x1b\\ \x1b]8;id=1;http://x.example/b\x07l\x1b]8;;\x07" +
		"\x1b]8;;https://e.example/c\x1b\\\x1b]8;;\x1b\\\x1b]8;;https://e.example/d\x1b\\l2\x1b]8;;https://e.example/e\x1b\\l3\x1b]8;;\x1b\\" +
		"\x1b]8;;ftp://f.example/\x1b\\f\x1b]8;;\x1b\\\x1b]8;;https://e.example/" + strings.Repeat("long/", 60) + "\x1b\\L\x1b]8;;\x1b\\" +
		"\xc2\x9d8;;http://u.example/\xc2\x9cu\xc2\x9d8;;\xc2\x9c\x9d8;;http://v.example/\x9cv\x9d8;;\x9c" +
		"\x1b]8;;http://w.example/\x9c\x1b\\w\x1b]8;;\x1b\\\x1b]8\x1b\\\x1b]8;\x1b\\\r\x1b]8;;http://r.example/\x1b\\r\x1b]8;;\x1b\\\x1b]8;;http://o.example/\x1b\\open"
	// Runs that begin at invalid UTF-8 (simpleRun): every C0, C1 in both
	// spellings and DEL after one, text of 15 to 17 bytes, a C0 embedded
	// in a CSI, a CR run.
	var runs strings.Builder
	for b := range 0x20 {
		fmt.Fprintf(&runs, "\xff%c\xc0x\xc2%c\xe2\x82%cy", b, 0x80+b, 0x80+b)
	}
	fmt.Fprintf(&runs, "\xff\x7f%s\xff%s\xfe%s\xff\x1b[1\x01m\xff\r\r\xffz", strings.Repeat("a", 15), strings.Repeat("b", 16), strings.Repeat("c", 17))
	in["simple runs"] = runs.String()
	return in
}

// quickPolicies are the record policies, LinksAppend over plain text
// (quickRecords runs while a link's URI waits on its close) and a payload
// limit below an OSC 8 close's.
var quickPolicies = append(recordPolicies[:len(recordPolicies):len(recordPolicies)], Options{Links: LinksAppend}, Options{MaxPayload: 2})

// TestQuickRecords: the record path gives what the token path gives over
// quickInputs under quickPolicies, with findings listed and after MaxFindings erases (when
// recalls that raise classes are taken too), whole and in Writes of sizes
// that cut sequences, text and characters at every point.
func TestQuickRecords(t *testing.T) {
	full := strings.Repeat("\x1b[2J", MaxFindings)
	for name, s := range quickInputs() {
		for _, pre := range []string{"", full} {
			p := []byte(pre + strings.Repeat(s, 3))
			for _, size := range []int{1, 2, 3, 7, 16, 17, 509, minScanPiece, len(p)} {
				if pre != "" && size < 7 {
					continue // short Writes of the erases take the time; the first form has them
				}
				for _, o := range quickPolicies {
					assertPaths(t, fmt.Sprintf("%s (%d erases before), Writes of %d", name, len(pre)/4, size), p, o, cutsEvery(size, len(p)), false)
				}
			}
		}
	}
}

// TestMemoKeys: sequences of every length the memo takes (and one past
// it) that differ only in their final byte, or only in a parameter byte,
// are counted each by its own key, on both paths: the memo's key of a
// token (wordAt) holds all of its bytes and none past them.
func TestMemoKeys(t *testing.T) {
	for n := 3; n <= maxMemo+1; n++ {
		params := strings.Repeat("1;", n)[:n-3]
		var in strings.Builder
		want := map[string]int64{}
		for range 20 {
			for _, final := range "mJKH" {
				fmt.Fprintf(&in, "x\x1b[%s%cy", params, final)
				want[string(final)]++
			}
			if n > 3 {
				// An SGR of the same length that conceals, which is
				// not recalled as one that does not.
				conceal := "8"
				if n > 4 {
					conceal = params[:n-5] + ";8"
				}
				fmt.Fprintf(&in, "x\x1b[%sm", conceal)
				want["m"]++
			}
		}
		for _, path := range []pathChoice{pathRecords, pathTokens} {
			w := writeCut([]byte(in.String()), Options{}, nil, false, path)
			if !reflect.DeepEqual(w.rep.CSIFinals, want) {
				t.Errorf("%d-byte CSIs, path %d: counted %v, want %v", n, path, w.rep.CSIFinals, want)
			}
			if n > 3 && w.rep.Flags.SGRConceal != 20 {
				t.Errorf("%d-byte CSIs, path %d: %d SGR conceals, want 20", n, path, w.rep.Flags.SGRConceal)
			}
		}
	}
}

// TestControls: controls counts, eight bytes at a time, what a byte loop
// counts, for every byte value at every position of a word and for random
// bytes of every length up to 70.
func TestControls(t *testing.T) {
	slow := func(p []byte) (n int) {
		for _, b := range p {
			if b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7F {
				n++
			}
		}
		return n
	}
	check := func(p []byte) {
		t.Helper()
		if got, want := controls(p), slow(p); got != want {
			t.Fatalf("controls(%q) = %d, want %d", p, got, want)
		}
	}
	for v := range 256 {
		for at := range 8 {
			p := []byte("abcdefgh\x01\x7f\t\n\r\x1f \x80")
			p[at] = byte(v)
			check(p)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 71 {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.IntN(256))
			if r.IntN(2) == 0 {
				p[i] &= 0x1F // controls, TAB, LF and CR often
			}
		}
		check(p)
	}
}
