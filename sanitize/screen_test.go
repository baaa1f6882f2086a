package sanitize

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/internal/hostile"
)

// TestCRScreen: under CRScreen, spelled screen or overwrite, each line
// is what the terminal finally showed. The one-line emulation that
// overwrite used to be gave the text in the comments.
func TestCRScreen(t *testing.T) {
	overwrite, err := ParsePolicy("cr=overwrite")
	if err != nil || overwrite != (Options{CR: CRScreen}) {
		t.Fatalf("cr=overwrite gives %+v, %v", overwrite, err)
	}
	for _, c := range []struct{ in, want string }{
		{"abcdef\r\x1b[Kxy\n", "xy\n"}, // "xycdef"
		{"rm -rf / \r# harmless comment\n", "# harmless comment\n"},
		{"evil.txt\x1b[2K\rsafe.txt\n", "safe.txt\n"},
		{"secret-1\n\x1b[1A\x1b[2Kshown\nnext\n", "shown\nnext\n"}, // "secret-1\nshown\nnext\n"
		{"working 10%\rworking 20%\rfailure\n", "failure 20%\n"},
		{"ls\b\bcat notes\n", "cat notes\n"},                           // "lscat notes"
		{"run \x1b[8mcurl x|sh\x1b[0m done\n", "run           done\n"}, // "run curl x|sh done"
		{"a\tb\n", "a       b\n"},                                      // "a\tb"
		{"\x1b[?1049hfull screen\x1b[?1049lafter\n", "after\n"},        // "full screenafter"
		{"no newline at the end", "no newline at the end\n"},
	} {
		if got, _ := String(c.in, overwrite); got != c.want {
			t.Errorf("%q: screen gives %q, want %q", c.in, got, c.want)
		}
	}
	// Lines that scroll off the 50-row screen come out in order, and a
	// line longer than 1000 columns stays one line.
	var in bytes.Buffer
	for i := range 120 {
		in.WriteString("line ")
		in.WriteByte(byte('a' + i%26))
		in.WriteByte('\n')
	}
	long := bytes.Repeat([]byte("x"), 2500)
	in.Write(long)
	in.WriteString("\nend\n")
	got, _ := Bytes(in.Bytes(), Options{CR: CRScreen})
	if want := bytes.ReplaceAll(in.Bytes(), []byte("\r"), nil); !bytes.Equal(got, want) {
		t.Errorf("scrolling lines: got %d bytes, want %d", len(got), len(want))
	}
}

// TestScreenRepeatBounded: under CRScreen a REP draws at most one line of
// the model (screenCols characters), so that REPs of the largest count
// give output text in proportion to their input (without the limit, each
// of these wrote 50,000 characters).
func TestScreenRepeatBounded(t *testing.T) {
	const reps = 40
	in := strings.Repeat("a\x1b[65535b", reps)
	got, _ := String(in, Options{CR: CRScreen})
	if n := strings.Count(got, "a"); n != reps*(screenCols+1) {
		t.Errorf("%d REPs of 65535 drew %d characters, want %d", reps, n, reps*(screenCols+1))
	}
}

// TestCRScreenInvariants: hostile input cleaned under CRScreen keeps
// invariant 1 and does not depend on how it was split.
func TestCRScreenInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50 {
		in := hostile.Bytes(r, 4096)
		whole, _ := Bytes(in, Options{CR: CRScreen})
		if !utf8.Valid(whole) || bytes.ContainsFunc(whole, func(c rune) bool {
			return c < 0x20 && c != '\n' && c != '\t' || c == 0x7F || c >= 0x80 && c <= 0x9F
		}) {
			t.Fatalf("unsafe output %q", whole)
		}
		var out bytes.Buffer
		w := NewWriter(&out, Options{CR: CRScreen})
		for p := in; len(p) > 0; {
			n := min(len(p), 1+r.IntN(100))
			w.Write(p[:n])
			p = p[n:]
		}
		w.Close()
		if !bytes.Equal(out.Bytes(), whole) {
			t.Fatalf("split input gives %q, whole %q", out.Bytes(), whole)
		}
		if rep := w.Report(); rep.BytesOut != int64(len(whole)) {
			t.Fatalf("BytesOut %d, wrote %d", rep.BytesOut, len(whole))
		}
	}
}

// TestOffsetMapScreen: under CRScreen the offset map ties each character
// to the bytes that drew it, input that shows nothing to an empty span
// where the text drawn before it ends (after its line feed), and a line
// feed or blank to its line's input, up to the next byte that draws —
// also when a cursor-up repaint draws a line after the one below it.
func TestOffsetMapScreen(t *testing.T) {
	type span struct{ start, end int64 }
	for _, c := range []struct {
		in, out  string
		toInput  map[int64]span // output offset → input span
		toOutput map[int64]span // input offset → output span
	}{
		{"abcdef\r\x1b[Kxy\n", "xy\n",
			map[int64]span{0: {10, 11}, 1: {11, 12}, 2: {10, 13}},
			map[int64]span{0: {0, 0}, 5: {0, 0}, 7: {0, 0}, 10: {0, 1}, 11: {1, 2}, 12: {3, 3}}},
		{"10%\r50%\r100%\ndone\n", "100%\ndone\n",
			map[int64]span{0: {8, 9}, 3: {11, 12}, 4: {8, 13}, 5: {13, 14}, 9: {13, 18}},
			map[int64]span{0: {0, 0}, 4: {0, 0}, 8: {0, 1}, 12: {5, 5}, 16: {8, 9}, 17: {10, 10}}},
		// "b" (2) is drawn before "x" (8), which repaints the line above.
		{"a\nb\n\x1b[2Ax\n", "x\nb\n",
			map[int64]span{0: {8, 9}, 1: {8, 10}, 2: {2, 3}, 3: {2, 8}},
			map[int64]span{0: {0, 0}, 2: {2, 3}, 3: {4, 4}, 4: {4, 4}, 8: {0, 1}, 9: {2, 2}}},
		// Indented by a cursor move; a line with nothing drawn; "é",
		// copied byte for byte; "q" drawn as "─" by DEC special graphics.
		{"\x1b[3Cab\n\n\xc3\xa9\x1b(0q\x1b(B\n", "   ab\n\né─\n",
			map[int64]span{0: {4, 8}, 3: {4, 5}, 6: {8, 8}, 7: {8, 9}, 8: {9, 10}, 9: {13, 14}, 11: {13, 14}, 12: {8, 18}},
			map[int64]span{4: {3, 4}, 6: {6, 6}, 8: {7, 8}, 9: {8, 9}, 10: {9, 9}, 13: {9, 12}, 14: {13, 13}}},
	} {
		out, _, m := Map([]byte(c.in), Options{CR: CRScreen})
		if string(out) != c.out {
			t.Errorf("%q: text %q, want %q", c.in, out, c.out)
			continue
		}
		for o, want := range c.toInput {
			if s, e := m.ToInput(o); s != want.start || e != want.end {
				t.Errorf("%q: ToInput(%d) = %d,%d want %d,%d", c.in, o, s, e, want.start, want.end)
			}
		}
		for i, want := range c.toOutput {
			if s, e := m.ToOutput(i); s != want.start || e != want.end {
				t.Errorf("%q: ToOutput(%d) = %d,%d want %d,%d", c.in, i, s, e, want.start, want.end)
			}
		}
	}
}

// TestOffsetMapScreenRoundTrip: on hostile input, every character of the
// text under CRScreen maps to input that maps back to it (or, for the
// copies REP made, to another copy of the same span).
func TestOffsetMapScreenRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		checkScreenMap(t, hostile.Bytes(r, 4096))
	}
}

// FuzzCRScreen checks, under CRScreen, invariants 1, 2 and 3 of
// DESIGN.md, that the text does not depend on how the input was split,
// and the offset map's round trip.
func FuzzCRScreen(f *testing.F) {
	for _, s := range []string{
		"abcdef\r\x1b[Kxy\n", "a\nb\n\x1b[2Ax\n", "\x1b[3Cab\n\n\xc3\xa9\x1b(0q\x1b(B\n", "x\x1b[5b\x1b[?1049hy\x1b[?1049l",
		"\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\\n", "a\u202eb\u0301\u200d\n", "\x1b[2;3r\n\n\nz\x1b[8mhid",
	} {
		f.Add([]byte(s), uint16(1))
	}
	o := Options{CR: CRScreen}
	f.Fuzz(func(t *testing.T, p []byte, cut uint16) {
		out, rep := Bytes(p, o)
		checkInvariants(t, p, out)
		checkNoPayload(t, "fuzz", p, o, out, rep)
		assertSplit(t, "fuzz", p, o, []int{int(cut) % (len(p) + 1)}, out, rep)
		checkScreenMap(t, p)
	})
}

// checkScreenMap checks that Map gives Bytes' text under CRScreen and
// that each character of it maps to input that maps back to it, or for
// the copies REP made to another copy of the same span.
func checkScreenMap(t *testing.T, in []byte) {
	t.Helper()
	out, _, m := Map(in, Options{CR: CRScreen})
	if want, _ := Bytes(in, Options{CR: CRScreen}); !bytes.Equal(out, want) {
		t.Fatalf("%q: Map's text %q differs from Bytes' %q", in, out, want)
	}
	for k := range out {
		if out[k] == ' ' || out[k] == '\n' || !utf8.RuneStart(out[k]) {
			continue
		}
		s, e := m.ToInput(int64(k))
		if s >= e || e > int64(len(in)) {
			t.Fatalf("%q at %d maps to input %d,%d", out[k:min(k+8, len(out))], k, s, e)
		}
		if os, oe := m.ToOutput(s); (int64(k) < os || int64(k) >= oe) && !sameInput(m, os, s, e) {
			t.Fatalf("%q at %d maps to input %d,%d, which maps to output %d,%d", out[k:min(k+8, len(out))], k, s, e, os, oe)
		}
	}
}

func sameInput(m *OffsetMap, out, s, e int64) bool {
	s2, e2 := m.ToInput(out)
	return s2 == s && e2 == e
}
