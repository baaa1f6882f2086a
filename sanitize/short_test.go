package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// freshBytes is Bytes on a cleaner of its own (newCleaner), with neither
// the as-is test nor the pool: what Bytes and String must give.
func freshBytes(p []byte, o Options) ([]byte, Report) {
	c := newCleaner(o)
	c.out = make([]byte, 0, len(p))
	c.feed(p)
	c.end()
	return c.out, c.rep.snapshot()
}

// optionsOf returns the i-th of every combination of the options'
// values (432 of them, then again), MaxPayload 0, 8 or 64 bytes.
func optionsOf(i int) Options {
	next := func(n int) int { v := i % n; i /= n; return v }
	return Options{
		CR: CRPolicy(next(3)), BS: BSPolicy(next(2)), Links: LinkPolicy(next(2)),
		FormatChars: FormatPolicy(next(3)), C1: C1Policy(next(2)), APCBEL: next(2) == 1,
		MaxPayload: []int64{0, 8, 64}[next(3)],
	}
}

// sameClean fails t unless text and report are what a fresh cleaner gives.
func sameClean(t *testing.T, what string, p []byte, o Options, out []byte, rep Report) {
	t.Helper()
	want, wantRep := freshBytes(p, o)
	if !bytes.Equal(out, want) {
		t.Fatalf("%s %q under %v: text %q, a fresh cleaner's %q", what, p, o, out, want)
	}
	if !reflect.DeepEqual(rep, wantRep) {
		t.Fatalf("%s %q under %v: report\n%+v\na fresh cleaner's\n%+v", what, p, o, rep, wantRep)
	}
}

// dirtyInputs leave a cleaner in each state a stream can stop in, fed
// without the end of the stream: findings past MaxFindings, an OSC 8
// link open (its URI held), a string open (the history held), a run of
// CRs waiting, a held format character, a full memo, the record path's
// batch, a line under emulation, a screen.
var dirtyInputs = []struct {
	in   string
	opts Options
}{
	{strings.Repeat("\x1b[6n\x1b[2J\x07\x1b]0;t\x07", 300), Options{}},
	{"\x1b]8;;https://example.com/a\x1b\\label", Options{Links: LinksAppend}},
	{"text \x1b]0;title not ended", Options{}},
	{"abc\r\r", Options{}},
	{"a\u200d", Options{}},
	{"\u202e<U+202E", Options{FormatChars: FormatEscape}},
	{func() string {
		var b strings.Builder
		for i := range 400 {
			b.WriteString("\x1b[" + string(rune('0'+i%10)) + ";" + string(rune('0'+i/10%10)) + "m x")
		}
		return b.String()
	}(), Options{}},
	{strings.Repeat("\x1b[31mred\x1b[0m\r\n", 200) + "\x1bP1;2", Options{C1: C1Lone}},
	{"abc\b\bxy", Options{BS: BSOverstrike}},
	{"line\x1b[5;5Hmoved\r\n\x1b[?1049h", Options{CR: CRScreen}},
	{"\x9b31m\xc2\x9b0m\xe6\x9b", Options{APCBEL: true, MaxPayload: 8}},
}

// targetInputs are the corpus and random inputs, each under its options,
// that a reused cleaner must clean as a fresh one does.
func targetInputs(t *testing.T) []corpusCase {
	cs := loadCorpus(t)
	r := rand.New(rand.NewPCG(9, 9))
	for i := range 100 {
		cs = append(cs, corpusCase{"random", hostile.Bytes(r, r.IntN(700)), optionsOf(i * 7)})
	}
	for _, d := range dirtyInputs {
		cs = append(cs, corpusCase{"dirty", []byte(d.in), d.opts})
	}
	return cs
}

// TestClearedCleanerIsZero: a cleared cleaner (release) is the zero
// cleaner but for its method values, whatever the stream it cleaned
// left in it, so that getCleaner's cleaner is newCleaner's. It fails
// when clear keeps a field, or when a field is added that it keeps.
func TestClearedCleanerIsZero(t *testing.T) {
	for _, d := range dirtyInputs {
		for _, end := range []bool{false, true} {
			c := newCleaner(d.opts)
			c.feed([]byte(d.in))
			if end {
				c.end()
			}
			c.clear()
			v := reflect.ValueOf(c).Elem()
			for i := range v.NumField() {
				name := v.Type().Field(i).Name
				if name == "tokenFn" || name == "shadowFn" {
					if v.Field(i).IsNil() {
						t.Errorf("%q: cleared cleaner lost %s", d.in, name)
					}
					continue
				}
				if !v.Field(i).IsZero() {
					t.Errorf("%.40q (end %v): cleared cleaner keeps %s", d.in, end, name)
				}
			}
		}
	}
}

// TestReusedCleanerExact: a cleaner that cleaned (or began to clean) a
// stream that left findings, a link, a string, CRs, held characters, a
// memo, a batch, a line or a screen, once cleared and readied again
// (init, as getCleaner does), cleans every corpus input, random input
// and dirty input under its options as a fresh cleaner does, text and
// report; and so do Bytes and String, whose cleaners come from the pool.
func TestReusedCleanerExact(t *testing.T) {
	targets := targetInputs(t)
	for j, tc := range targets {
		want, wantRep := freshBytes(tc.in, tc.opts)
		for k := range 3 { // three dirty inputs for each target, each dirty input for a third of them
			d := dirtyInputs[(3*j+k)%len(dirtyInputs)]
			c := newCleaner(d.opts)
			c.feed([]byte(d.in))
			if j%2 == 0 {
				c.end()
			}
			c.clear()
			c.init(tc.opts)
			c.out = make([]byte, 0, len(tc.in))
			c.feed(tc.in)
			c.end()
			if rep := c.rep.snapshot(); !bytes.Equal(c.out, want) || !reflect.DeepEqual(rep, wantRep) {
				t.Fatalf("%s %q under %v, on a cleaner reused after %.40q: %q, %+v; a fresh cleaner's %q, %+v",
					tc.name, tc.in, tc.opts, d.in, c.out, rep, want, wantRep)
			}
		}
		d := dirtyInputs[j%len(dirtyInputs)]
		Bytes([]byte(d.in), d.opts) // the pooled cleaner it gave back
		out, rep := Bytes(tc.in, tc.opts)
		s, srep := String(string(tc.in), tc.opts)
		if !bytes.Equal(out, want) || !reflect.DeepEqual(rep, wantRep) || s != string(want) || !reflect.DeepEqual(srep, wantRep) {
			t.Fatalf("%s %q under %v: Bytes %q, %+v; String %q, %+v; a fresh cleaner's %q, %+v",
				tc.name, tc.in, tc.opts, out, rep, s, srep, want, wantRep)
		}
	}
}

// TestParallelCallers: Bytes, String and Map called from many goroutines at
// once, on inputs of every kind, each get what a fresh cleaner gives:
// no pooled cleaner is shared, and none carries one caller's stream
// into the next (go test -race ./sanitize -run TestParallelCallers).
func TestParallelCallers(t *testing.T) {
	targets := targetInputs(t)
	type want struct {
		out []byte
		rep Report
	}
	wants := make([]want, len(targets))
	for i, tc := range targets {
		wants[i].out, wants[i].rep = freshBytes(tc.in, tc.opts)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for range 150 {
				i := r.IntN(len(targets))
				tc := targets[i]
				var out []byte
				var rep Report
				switch g % 3 {
				case 0:
					out, rep = Bytes(tc.in, tc.opts)
				case 1:
					var s string
					s, rep = String(string(tc.in), tc.opts)
					out = []byte(s)
				case 2:
					out, rep, _ = Map(tc.in, tc.opts)
				}
				if !bytes.Equal(out, wants[i].out) || !reflect.DeepEqual(rep, wants[i].rep) {
					errs <- tc.name
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for name := range errs {
		t.Errorf("a parallel caller's %s input came out unlike a fresh cleaner's", name)
	}
}

// TestStringAsIs: stringAsIs, which reads a string through a 256-byte
// buffer, decides as asIs does on the bytes, whatever character the
// buffer's end cuts and wherever a byte that is not plain text lies.
func TestStringAsIs(t *testing.T) {
	for _, tail := range []string{"", "é", "中", "\u00a0", "\u2028", "\u200d", "\x1b", "\xe4\xb8", "\xc3", "😀", "\t\n"} {
		for n := 250; n <= 520; n++ {
			s := strings.Repeat("a", n) + tail
			for _, u := range []string{s, "é" + s, "中" + s, s + "x", s + "中中"} {
				if got, want := stringAsIs(u, Options{}), asIs([]byte(u), Options{}); got != want {
					t.Fatalf("stringAsIs(%d bytes ending %q) = %v, asIs %v", len(u), u[max(0, len(u)-6):], got, want)
				}
			}
		}
	}
	for _, s := range []string{strings.Repeat("x", maxAsIs), strings.Repeat("x", maxAsIs+1), ""} {
		if got, want := stringAsIs(s, Options{}), asIs([]byte(s), Options{}); got != want {
			t.Fatalf("stringAsIs(%d bytes) = %v, asIs %v", len(s), got, want)
		}
	}
}

// TestShortStringAllocs: String of a file name or an argv word that needs
// no cleaning allocates only its report's two empty maps; Bytes adds the
// copy it returns; Text allocates nothing. Before the as-is test and the pool: 8 allocations and
// 21.9 KB.
func TestShortStringAllocs(t *testing.T) {
	for _, s := range []string{"main.go", "--color=always", "naïve 中文.txt"} {
		if n := testing.AllocsPerRun(100, func() { String(s, Options{}) }); n > 2 {
			t.Errorf("String(%q) makes %v allocations, want at most 2", s, n)
		}
		if n := testing.AllocsPerRun(100, func() { Text(s, Options{}) }); n > 0 {
			t.Errorf("Text(%q) makes %v allocations, want none", s, n)
		}
		p := []byte(s)
		if n := testing.AllocsPerRun(100, func() { Bytes(p, Options{}) }); n > 3 {
			t.Errorf("Bytes(%q) makes %v allocations, want at most 3", s, n)
		}
	}
}

// FuzzAsIs: Bytes and String give what a fresh cleaner gives on any input
// under any options, and Text String's text; where the as-is test passes, that is the input as it
// stands and asIsReport; stringAsIs decides as asIs does.
func FuzzAsIs(f *testing.F) {
	for _, s := range []string{
		"main.go", "--color=always", "a\tb\nc", "naïve 中文", "", "a\u00a0b", "a\u3000", "a\u2028b", "x\u200dy",
		"<U+202E>", "a\rb", "a\bb", "\xc2\x9b1m", "😀", "\xe4\xb8", "\x1b[31merror:\x1b[0m open",
		strings.Repeat("ab", 128) + "中", strings.Repeat("a", maxAsIs),
	} {
		for _, opt := range []uint16{0, 1, 3, 24, 113} { // default, CRScreen, BSOverstrike, FormatEscape, others
			f.Add([]byte(s), opt)
		}
	}
	f.Fuzz(func(t *testing.T, p []byte, opt uint16) {
		o := optionsOf(int(opt))
		out, rep := Bytes(p, o)
		sameClean(t, "Bytes", p, o, out, rep)
		s, rep := String(string(p), o)
		sameClean(t, "String", p, o, []byte(s), rep)
		if text := Text(string(p), o); text != s {
			t.Fatalf("Text(%q) = %q, String's text %q", p, text, s)
		}
		if asIs(p, o) {
			if !bytes.Equal(out, p) || !reflect.DeepEqual(rep, asIsReport(o, len(p))) {
				t.Fatalf("%q under %v passes the as-is test, but a cleaner makes %q, %+v", p, o, out, rep)
			}
		}
		if got, want := stringAsIs(string(p), o), asIs(p, o); got != want {
			t.Fatalf("stringAsIs(%q) = %v, asIs %v", p, got, want)
		}
	})
}
