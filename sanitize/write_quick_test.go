package sanitize

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// perWrite is what a Writer did for each Write: the bytes it wrote to the
// underlying writer during that Write (one string per call), InGround and
// Settled after it, and the report at the end.
type perWrite struct {
	calls   [][]string
	ground  []bool
	settled []bool
	rep     Report
}

// callLog is an underlying writer that logs each call, and fails every
// call from the failAt-th on (from 1; 0 never).
type callLog struct {
	calls  []string
	failAt int
}

func (l *callLog) Write(p []byte) (int, error) {
	l.calls = append(l.calls, string(p))
	if l.failAt > 0 && len(l.calls) >= l.failAt {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// writeEach writes the pieces through a Writer driven as path says,
// marking a frame after each piece when frames is set, and logs what
// perWrite holds, and each Write's result. An empty Write comes first:
// the first Write takes no quick way (Write sets quick after a Write).
func writeEach(pieces []string, o Options, path pathChoice, frames bool, failAt int) (perWrite, []string) {
	log := &callLog{failAt: failAt}
	w := NewWriter(log, o)
	w.c.path = path
	var res perWrite
	var results []string
	for _, s := range append([]string{""}, pieces...) {
		before := len(log.calls)
		n, err := w.Write([]byte(s))
		results = append(results, fmt.Sprint(n, err))
		res.calls = append(res.calls, append([]string(nil), log.calls[before:]...))
		res.ground = append(res.ground, w.InGround())
		res.settled = append(res.settled, w.Settled())
		if frames {
			w.Frame()
		}
	}
	results = append(results, fmt.Sprint(w.Close()))
	res.rep = w.Report()
	return res, results
}

// assertQuickWrites checks that the quick ways of Writer.Write (pathAuto
// takes them, pathTokens never does) write the same bytes to the
// underlying writer in the same Writes, and leave the same report,
// InGround, Settled and results, as Feed over every byte.
func assertQuickWrites(t *testing.T, name string, pieces []string, o Options, frames bool, failAt int) {
	t.Helper()
	quick, qres := writeEach(pieces, o, pathAuto, frames, failAt)
	tok, tres := writeEach(pieces, o, pathTokens, frames, failAt)
	switch {
	case !reflect.DeepEqual(quick.calls, tok.calls):
		t.Fatalf("%s %q %+v: writes to the underlying writer per Write\nquick  %q\ntokens %q", name, pieces, o, quick.calls, tok.calls)
	case !reflect.DeepEqual(qres, tres):
		t.Fatalf("%s %q %+v: results\nquick  %q\ntokens %q", name, pieces, o, qres, tres)
	case !reflect.DeepEqual(quick.ground, tok.ground) || !reflect.DeepEqual(quick.settled, tok.settled):
		t.Fatalf("%s %q %+v: InGround %v Settled %v, tokens %v %v", name, pieces, o, quick.ground, quick.settled, tok.ground, tok.settled)
	case !reflect.DeepEqual(quick.rep, tok.rep):
		t.Fatalf("%s %q %+v: report\nquick  %+v\ntokens %+v", name, pieces, o, quick.rep, tok.rep)
	}
}

// TestQuickWrites: the quick ways of a short Write (printable ASCII taken
// in one word, other text, bytes that extend an open token) against Feed
// over every byte, Write by Write: text ending in a character cut after
// one or two bytes (and E0, whose next byte is constrained), the Write
// that completes it, then one large enough for the record path (which
// reads the cut character back from the history), a Write after an open
// CR run and after a lone ESC, format characters that read the character
// before them (keycaps, variation selectors), text once the findings are
// full, with and without a frame after each Write, and every cut of
// 1 to 9 bytes (1, 4 and 7 under -short, and fewer options).
func TestQuickWrites(t *testing.T) {
	dense := strings.Repeat("\x1b[1;31mé\x1b[0m\x1b]0;t\x07\r\n", 40) // > minScanPiece
	findings := strings.Repeat("\x1b[6n", MaxFindings+5)              // query findings past MaxFindings
	cases := [][]string{
		{"abcdefg", "hijklm\n", "nopq\trs"},
		{"abcdé\xd0", "\xb1xyzw", "ab\xe4", "\xb8\xadcdefg", "\xe4\xb8", "\xadabcdef"},
		{"abc\xe0", "\xa0\x80defgh", "abcd\xe0\xa0", "\x80efgh"},
		{"abc\xe0", "\x80defgh"}, // E0 80: ill-formed, not text
		{"abcdef\xd0", "\xb1" + dense, "tail\xe4\xb8", dense + "\xadok"},
		{"abc\xe4", "\xb8"}, // a character still cut after the second Write
		{"progress\r", "50%done", "\r\n", "next line"},
		{"a\r", "\r", "bcdefgh", "ijklmno"},
		{"abcdefg\x1b", "[1mabcdefg", "\x1b", "]0;title", "abcdefg", "\x07abcdefg"},
		{"key #", "\ufe0f\u20e3abc", "abcdefg", "\u20e3", "abc\u2764", "\ufe0fdefg"},
		{"abc", "key #", "\ufe0f\u20e3abc", "abcdef1", "\u20e3abc", "abcd\u2764", "\ufe0fdefg"},
		{"ab\u200b", "cdefgh", "ijk\u200d", "lmnopq"},
		{findings, "abcdefg", "\x1b[6n", "hijklmn", "ab\xd0", "\xb1cdefg"},
		{"\x1b]8;;http://x/", "abcdefg", "hijklmn", "\x1b\\label", "\x1b]8;;\x1b\\", "abcdefg"},
		{"\x1b[", strings.Repeat("1;", 40), "1;2;3;4", "mabcdefg"},
		{"", "abcd", "", "\xd0", "", "\xb1abc"},
	}
	opts := append([]Options{{Links: LinksAppend}, {CR: CRLines}, {CR: CRScreen}, {BS: BSOverstrike}, {FormatChars: FormatEscape}}, recordPolicies...)
	sizes := []int{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if testing.Short() {
		opts, sizes = append([]Options{{CR: CRLines}}, recordPolicies...), []int{1, 4, 7}
	}
	for _, pieces := range cases {
		for _, o := range opts {
			assertQuickWrites(t, "pieces", pieces, o, false, 0)
			assertQuickWrites(t, "pieces, frames", pieces, o, true, 0)
			whole := []byte(strings.Join(pieces, ""))
			for _, size := range sizes {
				var cut []string
				for i := 0; i < len(whole); i += size {
					cut = append(cut, string(whole[i:min(i+size, len(whole))]))
				}
				assertQuickWrites(t, fmt.Sprintf("cut every %d", size), cut, o, size%2 == 0, 0)
			}
		}
	}
}

// TestQuickWriteErrors: when the underlying writer fails on a Write that
// a quick way took (printable ASCII, other text, text completing a cut
// character), that Write returns 0 and the error, every later one and
// Close return it without calling the writer again, and the report
// counts what was given to it, as on the token path.
func TestQuickWriteErrors(t *testing.T) {
	pieces := []string{"abcdefg", "ab\xe4", "\xb8\xadcdé", "hijklmn", "\x1b]0;tit", "lexyzw", "\x07abcdefg", "more text"}
	for failAt := 1; failAt <= 5; failAt++ {
		assertQuickWrites(t, fmt.Sprintf("fail at call %d", failAt), pieces, Options{}, false, failAt)
	}
	log := &callLog{failAt: 1}
	w := NewWriter(log, Options{})
	w.Write(nil) // the first Write takes no quick way (quick is not yet set)
	if n, err := w.Write([]byte("abcdefg")); n != 0 || err == nil {
		t.Errorf("a quick Write after the failure: %d, %v; want 0, disk full", n, err)
	}
	if len(log.calls) != 1 {
		t.Errorf("the underlying writer was called %d times, want 1", len(log.calls))
	}
	if err := w.Close(); err == nil {
		t.Error("Close after the failure: nil, want disk full")
	}
}

// TestQuickWriteNoCopy: text a quick way takes whole in ground is written
// from the caller's p, not copied (io.Writer lets the Writer pass it on:
// the underlying writer must not retain it).
func TestQuickWriteNoCopy(t *testing.T) {
	var got []byte
	w := NewWriter(writerFunc(func(b []byte) (int, error) { got = b; return len(b), nil }), Options{})
	w.Write([]byte("settle\n"))
	for _, s := range []string{"abcdefg", "абв"} {
		p := []byte(s)
		w.Write(p)
		if !bytes.Equal(got, p) || &got[0] != &p[0] {
			t.Errorf("%q: the underlying writer got %q, not p itself", s, got)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
