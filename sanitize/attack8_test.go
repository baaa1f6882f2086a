package sanitize

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"
)

// TestAttack8TransformerReader: through transform.NewReader (its 4 KiB
// dst) and transform.NewWriter, read whole, a byte and half a buffer at a
// time, the Transformer gives what Bytes does, also where the text
// outgrows the input (U+FFFD for each invalid byte, appended link
// targets, escaped format characters) and so the dst: a Transform that
// flushes text held from the call before consumes src too, as a nil error
// says it did (else the reader fails, "inconsistent byte count").
func TestAttack8TransformerReader(t *testing.T) {
	for _, c := range []struct {
		in   string
		opts Options
	}{
		{strings.Repeat("\xff", 20000), Options{}},
		{strings.Repeat("\x1b]8;;https://example.com/"+strings.Repeat("u", 300)+"\x1b\\l\x1b]8;;\x1b\\", 40), Options{Links: LinksAppend}},
		{strings.Repeat("\u202e\u200b", 5000), Options{FormatChars: FormatEscape}},
		{strings.Repeat("text \x1b[1m\xc3(\r\n", 2000), Options{}},
	} {
		in := []byte(c.in)
		want, rep := Bytes(in, c.opts)
		for name, src := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(in) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(in)) },
			"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(in)) },
		} {
			tr := NewTransformer(c.opts)
			got, err := io.ReadAll(transform.NewReader(src(), tr))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%.20q %v reader %s: %d bytes, %v; want %d bytes", c.in, c.opts, name, len(got), err, len(want))
			}
			if r := tr.Report(); !reflect.DeepEqual(r, rep) {
				t.Fatalf("%.20q reader %s: report\n%+v\nwant\n%+v", c.in, name, r, rep)
			}
		}
		var buf bytes.Buffer
		w := transform.NewWriter(&buf, NewTransformer(c.opts))
		for p := in; len(p) > 0; p = p[min(len(p), 5000):] {
			if _, err := w.Write(p[:min(len(p), 5000)]); err != nil {
				t.Fatalf("%.20q writer: %v", c.in, err)
			}
		}
		if err := w.Close(); err != nil || !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("%.20q writer: %d bytes, %v; want %d", c.in, buf.Len(), err, len(want))
		}
	}
}

// TestAttack8LinkIntro: under LinksAppend the target written after a
// label is the URI a terminal follows, also when controls are executed
// between the ESC and the ']' of the OSC (the DEC parser's escape state
// executes C0 controls and ignores DEL there, so "ESC NUL ] 8 ; ; URI ST"
// opens the same link): the payload begins after the ']', not two bytes
// after the ESC (which showed "<https://trusted.example/x;https://evil.example>"
// for a link to https://evil.example/). Whole, a byte at a time and on
// every path.
func TestAttack8LinkIntro(t *testing.T) {
	o := Options{Links: LinksAppend}
	for _, c := range []struct{ in, want string }{
		{"a\x1b]8;;https://evil.example/\x1b\\label\x1b]8;;\x1b\\b", "alabel <https://evil.example/>b"},
		{"a\x1b\x00]8;;https://evil.example/\x1b\\label\x1b]8;;\x1b\\b", "alabel <https://evil.example/>b"},
		{"a\x1b\x00]8;https://trusted.example/x;https://evil.example/\x1b\\label\x1b\x7f]8;;\x1b\\b", "alabel <https://evil.example/>b"},
		{"a\x1b\x01\x7f\x05]8;id=1;https://evil.example/\x07label\x1b]8;;\x07b", "alabel <https://evil.example/>b"},
		{"a\x9d8;;https://evil.example/\x9clabel\xc2\x9d8;;\xc2\x9cb", "alabel <https://evil.example/>b"},
		{"a\xc2\x9d8;;https://evil.example/\xc2\x9clabel\x1b]8;;\x1b\\b", "alabel <https://evil.example/>b"},
	} {
		p := []byte(c.in)
		if got, _ := Bytes(p, o); string(got) != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
		for _, cuts := range [][]int{nil, cutsEvery(1, len(p))} {
			assertPaths(t, "link intro", p, o, cuts, false)
		}
	}
}
