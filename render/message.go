package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Format is the text of a message bytelens writes itself, with fmt verbs:
// the format of Sprintf, Errorf and Writer.Printf. A constant converts to
// it implicitly; a string variable needs a visible conversion, so text from
// elsewhere cannot slip in as a format by accident. Pass such text as an
// argument: arguments are escaped.
type Format string

// Sprintf formats like fmt.Sprintf and returns safe text. Every argument
// is escaped as Line escapes it, after it is formatted with its verb, flags
// and width: a file name, a stream name from a manifest, an argv element or
// a message quoted from elsewhere comes out with its controls as Control
// Pictures (␛), C1, format and invisible characters as "<U+009B>", LF as ␊
// and render's own glyphs escaped. A Safe argument is written as it is,
// and an error argument as ErrorText gives it. The format's own TAB and LF
// are kept (TAB for text/tabwriter columns), as are render's glyphs and
// markers in it; anything else in the format that Text would escape is
// escaped.
func Sprintf(format Format, args ...any) Safe {
	return Safe{string(appendEscaped(nil, []byte(fmt.Sprintf(string(format), escapeArgs(args)...)), keepLF|keepTab|keepMarkers))}
}

// escapeArgs wraps every argument but numbers and booleans in an escaper
// for fmt. Those stay as they are for '*' widths; what a %c makes of them
// is escaped with the format.
func escapeArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a.(type) {
		case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool:
			out[i] = a
		default:
			out[i] = escaper{a}
		}
	}
	return out
}

// escaper formats its value with the directive fmt gives it, then escapes
// the result as Line does; a Safe is formatted as its text, an error as
// its ErrorText.
type escaper struct{ v any }

// Format implements fmt.Formatter.
func (e escaper) Format(f fmt.State, verb rune) {
	directive := fmt.FormatString(f, verb)
	var s string
	switch v := e.v.(type) {
	case Safe:
		s = fmt.Sprintf(directive, v.s)
	case error:
		s = fmt.Sprintf(directive, ErrorText(v).s)
	default:
		s = string(appendEscaped(nil, []byte(fmt.Sprintf(directive, v)), keepNone))
	}
	io.WriteString(f, s)
}

// Error is an error whose message is safe text: built by Errorf from a
// Format and escaped arguments, or by any type that has a SafeError
// method. ErrorText prefers it to escaping Error().
type Error interface {
	error
	SafeError() Safe
}

// Errorf returns an error whose message is Sprintf(format, args...), %w
// written as %v. When the format holds %w, the error arguments are
// wrapped, every one of them: errors.Is and errors.As see them through
// the returned error (fmt.Errorf wraps only those of a %w).
func Errorf(format Format, args ...any) error {
	e := &safeError{msg: Sprintf(Format(strings.ReplaceAll(string(format), "%w", "%v")), args...)}
	if strings.Contains(string(format), "%w") {
		for _, a := range args {
			if err, ok := a.(error); ok {
				e.wrapped = append(e.wrapped, err)
			}
		}
	}
	return e
}

// safeError is the error Errorf returns.
type safeError struct {
	msg     Safe
	wrapped []error
}

func (e *safeError) Error() string   { return e.msg.s }
func (e *safeError) SafeError() Safe { return e.msg }
func (e *safeError) Unwrap() []error { return e.wrapped }

// ErrorText returns the message of err as safe one-line text: the
// SafeError of err when err is an Error, else err.Error() escaped as Line
// escapes it. Only err itself is asked, not what it wraps: an error that
// wraps another writes its own message, which may quote anything. A nil
// err gives the empty Safe.
func ErrorText(err error) Safe {
	if err == nil {
		return Safe{}
	}
	if se, ok := err.(Error); ok {
		return se.SafeError()
	}
	return Line([]byte(err.Error()))
}

// Writer writes safe text, and only safe text, to an output a person
// reads: a terminal, stderr, a file of messages. It keeps the first write
// error; later writes do nothing.
type Writer struct {
	w     io.Writer
	err   error
	flush func() error // set by Columns
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Print writes the parts in order and returns Err.
func (w *Writer) Print(parts ...Safe) error {
	for _, p := range parts {
		if w.err != nil {
			break
		}
		_, w.err = io.WriteString(w.w, p.s)
	}
	return w.err
}

// Println writes the parts in order, then LF, and returns Err.
func (w *Writer) Println(parts ...Safe) error { return w.Print(append(parts, Safe{"\n"})...) }

// Printf writes Sprintf(format, args...) and returns Err.
func (w *Writer) Printf(format Format, args ...any) error { return w.Print(Sprintf(format, args...)) }

// Err returns the first write error, or nil.
func (w *Writer) Err() error { return w.err }

// Columns returns a Writer that aligns the TAB-separated cells of what is
// written to it in columns, padded with spaces as text/tabwriter does with
// these minwidth, tabwidth and padding, and writes the result to w when
// Flush is called. Aligning safe cells with spaces keeps them safe.
func (w *Writer) Columns(minwidth, tabwidth, padding int) *Writer {
	tw := tabwriter.NewWriter(safeSink{w}, minwidth, tabwidth, padding, ' ', 0)
	return &Writer{w: tw, flush: tw.Flush}
}

// Flush writes out what a Columns writer holds, unless a write failed,
// and returns the first error of w and of what it writes to. On other
// writers it only returns Err.
func (w *Writer) Flush() error {
	if w.flush != nil && w.err == nil {
		w.err = w.flush()
	}
	return w.err
}

// safeSink writes what a tabwriter aligned from safe cells to a Writer.
type safeSink struct{ w *Writer }

func (s safeSink) Write(p []byte) (int, error) {
	s.w.Print(Safe{string(p)})
	if s.w.err != nil {
		return 0, s.w.err
	}
	return len(p), nil
}

// InertWriter returns an io.Writer that escapes what is written through
// it as Sprintf escapes its format: C0 but TAB and LF, DEL, C1, invalid
// UTF-8, format and invisible characters become Control Pictures and
// "<U+202E>"; render's glyphs and markers are kept. It is for output that
// a library writes to an io.Writer itself, such as cobra's help and usage
// text, which may quote an argument. A UTF-8 sequence split across writes
// is held until it is complete.
func InertWriter(w io.Writer) io.Writer { return &inertWriter{w: w} }

type inertWriter struct {
	w    io.Writer
	tail []byte // an incomplete UTF-8 sequence at the end of the last write
}

// Write escapes p and writes it; it returns len(p) unless the underlying
// writer fails.
func (iw *inertWriter) Write(p []byte) (int, error) {
	buf := append(iw.tail, p...)
	iw.tail = nil
	if cut := incompleteTail(buf); cut > 0 {
		iw.tail = append([]byte(nil), buf[len(buf)-cut:]...)
		buf = buf[:len(buf)-cut]
	}
	if _, err := iw.w.Write(appendEscaped(nil, buf, keepLF|keepTab|keepMarkers)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// incompleteTail returns the length of the incomplete but so far valid
// UTF-8 sequence that p ends with, or 0.
func incompleteTail(p []byte) int {
	for n := 1; n < utf8.UTFMax && n <= len(p); n++ {
		b := p[len(p)-n]
		if b < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(b) {
			if !utf8.FullRune(p[len(p)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
