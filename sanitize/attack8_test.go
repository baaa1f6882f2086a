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
