package render

import (
	"bytes"
	"errors"
	"io/fs"
	"testing"
)

// hostileName holds an OSC 52 clipboard write, C1 CSI, a bidi override,
// LF, TAB, a Hangul filler and render's own ␛ and ‹ markers.
const hostileName = "a\x1b]52;c;SGk=\x07b\u009b31m\u202e\n\t\u3164␛‹"

const hostileEscaped = "a␛]52;c;SGk=␇b<U+009B>31m<U+202E>␊␉<U+3164><U+241B><U+2039>"

func TestSprintf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		args   []any
		want   string
	}{
		{"string argument", "stream %s: %d bytes\n", []any{hostileName, 42}, "stream " + hostileEscaped + ": 42 bytes\n"},
		{"bytes argument", "%s", []any{[]byte("x\x9by")}, "x<9B>y"},
		{"quoted", "%q", []any{"x\x1by"}, `"x\x1by"`},
		{"safe argument kept", "‹%s›\t%s", []any{TextString("x\ny"), Line([]byte("␛"))}, "‹x\ny›\t<U+241B>"},
		{"error argument", "open: %v", []any{errors.New("no\x1b[2J")}, "open: no␛[2J"},
		{"safe error argument", "%v", []any{Errorf("name %s", "␛")}, "name <U+241B>"},
		{"stringer", "%v", []any{fs.FileMode(0)}, "----------"},
		{"star width", "[%-*s|%*d]", []any{4, "ab", 3, 7}, "[ab  |  7]"},
		{"rune as char", "%c%c", []any{rune(0x1b), 'x'}, "␛x"},
		{"format controls escaped", "a\x1bb\u202e", nil, "a␛b<U+202E>"},
		{"padding of escaped", "%-6s|", []any{"\x07"}, "␇     |"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sprintf(tc.format, tc.args...).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestErrorf(t *testing.T) {
	err := Errorf("%s: %w", hostileName, fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("Errorf's %w does not wrap")
	}
	if want := hostileEscaped + ": file does not exist"; err.Error() != want || ErrorText(err).String() != want {
		t.Errorf("got %q, %q, want %q", err.Error(), ErrorText(err), want)
	}
	if errors.Is(Errorf("%s", fs.ErrNotExist), fs.ErrNotExist) {
		t.Error("an argument without %w is wrapped")
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"plain error escaped", errors.New(hostileName), hostileEscaped},
		{"safe error as is", Errorf("‹%s›", "x"), "‹x›"},
		{"wrapping a safe error escapes the wrapper", errors.Join(Errorf("‹x›")), "<U+2039>x<U+203A>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorText(tc.err).String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, fs.ErrClosed
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Printf("%s=%d\n", "k\x1b", 1)
	w.Println(Line([]byte("v")), Spaces(1))
	if want := "k␛=1\nv \n"; b.String() != want || w.Err() != nil {
		t.Errorf("got %q, %v; want %q", b.String(), w.Err(), want)
	}
	f := &failWriter{}
	w = NewWriter(f)
	w.Printf("a")
	w.Printf("b")
	if !errors.Is(w.Err(), fs.ErrClosed) || f.n != 1 {
		t.Errorf("err %v after %d writes, want ErrClosed after 1", w.Err(), f.n)
	}
}

func TestInertWriter(t *testing.T) {
	var b bytes.Buffer
	w := InertWriter(&b)
	in := "help ‹›␛\tok\n" + hostileName + "\u202e"
	// Byte by byte: sequences split across writes come out whole.
	for i := range len(in) {
		if n, err := w.Write([]byte{in[i]}); n != 1 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	want := "help ‹›␛\tok\na␛]52;c;SGk=␇b<U+009B>31m<U+202E>\n\t<U+3164>␛‹<U+202E>"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	w.Write([]byte("\xe2\x80"))
	w.Write([]byte("x\xff"))
	if want := "<E2><80>x<FF>"; b.String() != want {
		t.Errorf("invalid UTF-8: got %q, want %q", b.String(), want)
	}
}
