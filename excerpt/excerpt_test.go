package excerpt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// put writes an artifact whose stdout is the concatenation of chunks (and
// whose stderr is errText) into a store with the cleaning sidecar.
func put(t *testing.T, st *store.Store, errText string, chunks ...string) store.Ref {
	t.Helper()
	return putWith(t, st, sanitize.Options{}, errText, chunks...)
}

// putWith is put cleaning under opts.
func putWith(t *testing.T, st *store.Store, opts sanitize.Options, errText string, chunks ...string) store.Ref {
	t.Helper()
	st.SetSidecar(Sidecar(opts))
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	aw, err := store.NewArtifactWriter(w, store.Manifest{Argv: []string{"printf", "x"}, Started: time.Unix(0, 0),
		Streams: []store.StreamDesc{{ID: 1, Name: "stdout"}, {ID: 2, Name: "stderr"}}})
	if err != nil {
		t.Fatal(err)
	}
	seq := uint32(0)
	for _, c := range chunks {
		if err := aw.Chunk(1, seq, 0, []byte(c), len(c)); err != nil {
			t.Fatal(err)
		}
		seq++
	}
	if errText != "" {
		aw.Chunk(2, seq, 0, []byte(errText), len(errText))
	}
	if err := aw.Finish(store.Trailer{ExitCode: 3}); err != nil {
		t.Fatal(err)
	}
	ref, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SidecarErr(); err != nil {
		t.Fatal(err)
	}
	return ref
}

func newStore(t *testing.T) *store.Store {
	st, err := store.Open(filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// spans renders lines as "N text [start,end)" rows.
func spans(ls []Line) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "%d %q [%d,%d)", l.N, l.Text, l.RawStart, l.RawEnd)
		if l.Match {
			b.WriteString(" match")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The raw span of each line starts where the piece that produced its first
// cleaned byte starts, and the spans tile the stream, however the stream
// was cut into chunks.
func TestLineSpans(t *testing.T) {
	// The title's payload holds an LF: line 3 begins where the OSC does,
	// not inside it.
	raw := "a\nbb\r\n\x1b]0;t\nu\x07c\rd\n\x1b[31mlast"
	want := `1 "a" [0,2)
2 "bb" [2,6)
3 "c" [6,16)
4 "d" [16,18)
5 "last" [18,27)
`
	for cut := 0; cut <= len(raw); cut++ {
		st := newStore(t)
		ref := put(t, st, "", raw[:cut], raw[cut:])
		rec, err := Open(st, ref)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := rec.Lines("stdout", 1, 100)
		if err != nil {
			t.Fatal(err)
		}
		if got := spans(ex.Lines); got != want {
			t.Fatalf("cut at %d:\n%s\nwant\n%s", cut, got, want)
		}
		if ex.TotalLines != 5 || ex.Next != 0 {
			t.Fatalf("total %d next %d", ex.TotalLines, ex.Next)
		}
	}
}

// TestLineSpansScreen: under cr=screen a line comes out when it scrolls
// off the model's 50 rows, or at the end, yet its span still begins at
// the first byte that drew a character on it: the hidden "abcdef" and
// the erase belong to the line before "xy", which starts at "x".
func TestLineSpansScreen(t *testing.T) {
	var raw strings.Builder
	for i := range 55 {
		fmt.Fprintf(&raw, "l%02d\n", i+1)
	}
	x := int64(raw.Len()) + int64(len("abcdef\r\x1b[K"))
	raw.WriteString("abcdef\r\x1b[Kxy\n")
	in := raw.String()
	for _, cut := range []int{0, 1, 100, 203, len(in) - 3} {
		st := newStore(t)
		ref := putWith(t, st, sanitize.Options{CR: sanitize.CRScreen}, "", in[:cut], in[cut:])
		rec, err := Open(st, ref)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := rec.Lines("stdout", 1, 100)
		if err != nil || len(ex.Lines) != 56 {
			t.Fatalf("cut at %d: %d lines, %v", cut, len(ex.Lines), err)
		}
		for i, l := range ex.Lines[:55] {
			end := int64(4 * (i + 1))
			if i == 54 {
				end = x
			}
			if want := fmt.Sprintf("l%02d", i+1); l.Text != want || l.RawStart != int64(4*i) || l.RawEnd != end {
				t.Fatalf("cut at %d: line %d %q [%d,%d), want %q [%d,%d)", cut, l.N, l.Text, l.RawStart, l.RawEnd, want, 4*i, end)
			}
		}
		if l := ex.Lines[55]; l.Text != "xy" || l.RawStart != x || l.RawEnd != int64(len(in)) {
			t.Fatalf("cut at %d: last line %q [%d,%d), want \"xy\" [%d,%d)", cut, l.Text, l.RawStart, l.RawEnd, x, len(in))
		}
	}
}

func TestLinesLimits(t *testing.T) {
	st := newStore(t)
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	long := strings.Repeat("é", 10000) // 20000 bytes
	ref := put(t, st, "", b.String(), long+"\n", "tail\n")
	rec, err := Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := rec.Lines("stdout", 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Lines) != MaxCallLines || ex.Next != 201 || ex.Lines[199].Text != "line 200" {
		t.Fatalf("got %d lines, next %d", len(ex.Lines), ex.Next)
	}
	ex, err = rec.Lines("stdout", 300, 302)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Lines) != 2 || !ex.Lines[1].Cut || ex.Next != 302 {
		t.Fatalf("got %s next %d", spans(ex.Lines), ex.Next)
	}
	cut := ex.Lines[1]
	text, ok := strings.CutSuffix(cut.Text, CutMarker)
	if !ok || len(text) != MaxCallBytes-len("line 300") || text != long[:len(text)] || cut.CutBytes != int64(len(long)+1-len(text)) {
		t.Fatalf("cut line: %d bytes shown, %d cut, marker %v", len(text), cut.CutBytes, ok)
	}
	for _, c := range []struct{ from, to int64 }{{0, 5}, {5, 4}, {303, 310}} {
		if _, err := rec.Lines("stdout", c.from, c.to); !errors.Is(err, ErrRange) {
			t.Errorf("Lines(%d, %d): %v, want ErrRange", c.from, c.to, err)
		}
	}
	if _, err := rec.Lines("stdin", 1, 1); !errors.Is(err, ErrStream) {
		t.Errorf("stdin: %v", err)
	}
}

func TestGrep(t *testing.T) {
	st := newStore(t)
	var b strings.Builder
	for i := 1; i <= 120; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "ok %d\n", i)
		} else {
			fmt.Fprintf(&b, "error \x1b[31m%d\x1b[0m\n", i)
		}
	}
	ref := put(t, st, "warn: a.b\nwarn: aXb\n", b.String())
	rec, err := Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "^error (3|31)$", Regex: true, Context: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := `2 "ok 2" [17,22)
3 "error 3" [22,39) match
4 "ok 4" [39,44)
30 "ok 30" [345,351)
31 "error 31" [351,369) match
32 "ok 32" [369,375)
`
	if got := spans(ex.Lines); got != want || ex.Matches != 2 || ex.Next != 0 {
		t.Fatalf("got\n%s matches %d next %d\nwant\n%s", got, ex.Matches, ex.Next, want)
	}
	// Literal by default: "a.b" does not match aXb; as RE2 it does.
	for regex, n := range map[bool]int{false: 1, true: 2} {
		ex, err := rec.Grep(t.Context(), "stderr", GrepOptions{Pattern: "a.b$", Regex: regex})
		if regex && (err != nil || ex.Matches != n) {
			t.Errorf("regex: %v, %d matches", err, ex.Matches)
		}
		if !regex && (err != nil || ex.Matches != 0) {
			t.Errorf("literal a.b$: %v, %d matches", err, ex.Matches)
		}
	}
	// 60 matches: 50, then the cursor gives the other 10.
	ex, err = rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "error"})
	if err != nil || ex.Matches != MaxMatches || ex.Next != 100 {
		t.Fatalf("first page: %v, %d matches, next %d", err, ex.Matches, ex.Next)
	}
	ex, err = rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "error", Cursor: ex.Next})
	if err != nil || ex.Matches != 10 || ex.Next != 0 || ex.Lines[0].N != 101 {
		t.Fatalf("second page: %v, %d matches, next %d", err, ex.Matches, ex.Next)
	}
	if _, err := rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "(", Regex: true}); !errors.Is(err, ErrPattern) {
		t.Errorf("invalid RE2: %v", err)
	}
	if _, err := rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "x", Context: MaxContext + 1}); !errors.Is(err, ErrRange) {
		t.Errorf("context: %v", err)
	}
}

// doneAfter is a context whose Err is context.Canceled from its n+1st
// call on: a search stopped at a known point, without timing.
type doneAfter struct {
	context.Context
	n int
}

func (c *doneAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestGrepStops checks that Grep ends with its context's error when the
// context is done, also inside one long line (an agent's pattern can cost
// seconds a MB, attack13), and answers nothing from the part it read.
func TestGrepStops(t *testing.T) {
	st := newStore(t)
	long := strings.Repeat("a", 1<<20)
	ref := put(t, st, "", "short\n"+long+"\nlast\n")
	rec, err := Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	// "a$" matches any prefix of the long line read so far: a stop taken
	// as the line's end would answer it. The long line takes 256 checks:
	// every stop below is inside it but the first.
	for _, checks := range []int{0, 1, 3, 200} {
		ctx := &doneAfter{Context: t.Context(), n: checks}
		ex, err := rec.Grep(ctx, "stdout", GrepOptions{Pattern: "a$", Regex: true})
		if !errors.Is(err, context.Canceled) || ex != nil {
			t.Errorf("done after %d checks: %+v, %v; want context.Canceled", checks, ex, err)
		}
	}
	ex, err := rec.Grep(t.Context(), "stdout", GrepOptions{Pattern: "a$", Regex: true})
	if err != nil || ex.Matches != 1 || ex.Lines[0].N != 2 {
		t.Errorf("not stopped: %+v, %v", ex, err)
	}
}

func TestRangeReport(t *testing.T) {
	st := newStore(t)
	ref := put(t, st, "", "plain\n", "title \x1b]0;evil\x07 here\n", "clip \x1b]52;c;aGk=\x07\n")
	rec, err := Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := rec.Report("stdout", 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rr.RawStart != 6 || rr.RawEnd != 27 || rr.BytesOut != len64("title  here\n") || len(rr.Findings) != 1 || rr.Findings[0].Kind != "title" {
		t.Fatalf("%+v", rr)
	}
	sm, _ := rec.Stream("stdout")
	if sm.Report.Removed.OSC != 2 || sm.Lines != 3 || rec.Meta.ExitCode != 3 {
		t.Fatalf("stream meta %+v", sm)
	}
}

func len64(s string) int64 { return int64(len(s)) }

// TestQuery checks that a Query is answered by Grep, Report or Lines.
func TestQuery(t *testing.T) {
	st := newStore(t)
	ref := put(t, st, "", "plain\n", "title \x1b]0;evil\x07 here\n", "clip \x1b]52;c;aGk=\x07\n")
	rec, err := Open(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		q    Query
		want string // the text WriteText prints
	}{
		{Query{Stream: "stdout", From: 2, To: 3}, "      2  [6:27]  title  here\n      3  [27:45]  clip \n"},
		{Query{Stream: "stdout", From: 1, To: 9, Report: true}, ref.String() + " stdout lines 1:3: raw [0:45], 45 bytes in, 24 bytes of text out\nfindings:\n" +
			"  0x0000000c  12  title      OSC 0 title   9 bytes\n  0x00000020  32  clipboard  OSC 52 write  12 bytes\n"},
		{Query{Stream: "stdout", From: 1, To: 1, Report: true, Grep: GrepOptions{Pattern: "clip"}}, ">     3  [27:45]  clip \n"},
	} {
		a, err := rec.Query(t.Context(), tc.q)
		if err != nil {
			t.Fatalf("%+v: %v", tc.q, err)
		}
		var b bytes.Buffer
		if err := a.WriteText(render.NewWriter(&b)); err != nil || b.String() != tc.want {
			t.Errorf("%+v: %q (%v), want %q", tc.q, b.String(), err, tc.want)
		}
	}
	if a, err := rec.Query(t.Context(), Query{Stream: "stdin", From: 1, To: 1}); a != nil || err == nil {
		t.Errorf("no such stream: %v, %v", a, err)
	}
}

// The hostile corpus: no line of any excerpt holds a control, and the
// text files hold exactly the sanitizer's output.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../testdata/corpus/*.bin")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	st := newStore(t)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ref := put(t, st, "", string(raw))
		text, _ := sanitize.Bytes(raw, sanitize.Options{})
		fh, err := st.OpenClean(ref, "stdout.txt")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		got.ReadFrom(fh)
		fh.Close()
		if !bytes.Equal(got.Bytes(), text) {
			t.Errorf("%s: stored text differs from sanitize.Bytes", f)
		}
	}
}
