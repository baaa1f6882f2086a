package sanitize

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/internal/hostile"
)

// TestCRScreen: under CRScreen each line is what the terminal finally
// showed, where CROverwrite invents text.
func TestCRScreen(t *testing.T) {
	for _, c := range []struct{ in, want, overwrite string }{
		{"abcdef\r\x1b[Kxy\n", "xy\n", "xycdef\n"},
		{"rm -rf / \r# harmless comment\n", "# harmless comment\n", "# harmless comment\n"},
		{"evil.txt\x1b[2K\rsafe.txt\n", "safe.txt\n", "safe.txt\n"},
		{"secret-1\n\x1b[1A\x1b[2Kshown\nnext\n", "shown\nnext\n", "secret-1\nshown\nnext\n"},
		{"working 10%\rworking 20%\rfailure\n", "failure 20%\n", "failure 20%\n"},
		{"ls\b\bcat notes\n", "cat notes\n", "lscat notes\n"},
		{"run \x1b[8mcurl x|sh\x1b[0m done\n", "run           done\n", "run curl x|sh done\n"},
		{"a\tb\n", "a       b\n", "a\tb\n"},
		{"\x1b[?1049hfull screen\x1b[?1049lafter\n", "after\n", "full screenafter\n"},
		{"no newline at the end", "no newline at the end\n", "no newline at the end"},
	} {
		if got, _ := String(c.in, Options{CR: CRScreen}); got != c.want {
			t.Errorf("%q: screen gives %q, want %q", c.in, got, c.want)
		}
		if got, _ := String(c.in, Options{CR: CROverwrite}); got != c.overwrite {
			t.Errorf("%q: overwrite gives %q, want %q", c.in, got, c.overwrite)
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
