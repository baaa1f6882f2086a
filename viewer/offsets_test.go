package viewer

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/sanitize"
)

// offsetPolicies are the policies under which every byte of cleaned text
// that is not a line break was copied from one byte of input, so that a
// search hit maps back to the exact bytes it came from.
var offsetPolicies = []string{"", "cr=drop", "format-chars=keep", "c1=lone", "apc-bel=true", "cr=drop,format-chars=keep"}

// offsetCapture returns a random capture: words separated by hostile
// fragments, progress frames separated by lone CRs among them.
func offsetCapture(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	words := []string{"alpha", "bravo", "cache.o", " 45%", "needle", "zulu"}
	var b []byte
	for range 40 + r.IntN(80) {
		switch r.IntN(4) {
		case 0:
			b = append(b, hostileFragments[r.IntN(len(hostileFragments))]...)
		case 1:
			b = append(b, '\r')
		}
		b = append(b, words[r.IntN(len(words))]...)
	}
	return b
}

// TestSearchHitsExact checks, for random captures under every policy
// that copies text byte for byte, that each place the text search lands
// is where its match starts in the input, and that the input span the
// offset map gives for the match cleans to the match itself: offsets stay
// exact inside CR-separated frames (they used to land on the frame's
// start) and across removed controls.
func TestSearchHitsExact(t *testing.T) {
	t.Parallel()
	for _, pol := range offsetPolicies {
		opts, err := sanitize.ParsePolicy(pol)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(30) {
			data := offsetCapture(seed)
			text, _, om := sanitize.Map(data, opts)
			src := source{r: bytes.NewReader(data), n: int64(len(data))}
			x := newIndex(0, src, opts, nil)
			for _, q := range []string{"cache.o", " 45%", "needle"} {
				var want []int64
				for k := 0; ; k++ {
					i := bytes.Index(text[k:], []byte(q))
					if i < 0 {
						break
					}
					k += i
					s, _ := om.ToInput(int64(k))
					_, e := om.ToInput(int64(k + len(q) - 1))
					if got, _ := sanitize.Bytes(data[s:e], opts); string(got) != q {
						t.Errorf("policy %q seed %d: %q at output %d maps to input [%d,%d) %q, which cleans to %q", pol, seed, q, k, s, e, data[s:e], got)
					}
					if len(want) == 0 || want[len(want)-1] != s {
						want = append(want, s)
					}
				}
				// The search from each hit finds the next, and wraps to
				// the first.
				from := int64(0)
				if len(want) > 0 && want[0] == 0 {
					from = -1
				}
				for i := range want {
					found, off := runJob(t, newTextSearch(x, q, false, opts, from))
					if !found || off != want[i] {
						t.Errorf("policy %q seed %d: search %q from %d = %d %v, want %d", pol, seed, q, from, off, found, want[i])
						break
					}
					from = off
				}
			}
		}
	}
}

// TestHazardKey checks where w and W stop: at the CR that hides a
// command, at the first BS of a run that hides one, at each bidi control
// of Trojan Source, and nowhere on text, colours or the CR of a CRLF;
// and that the status line says why.
func TestHazardKey(t *testing.T) {
	t.Parallel()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		data []byte
		want []int64
		why  string // in the message after the first stop
	}{
		{"cr-hide-command", read("cr-hide-command.bin"), []int64{18}, "CR without LF"},
		{"bs-hide-command", read("bs-hide-command.bin"), []int64{17}, "BS moves back"},
		{"trojan", read("bidi-trojan-source.bin"), []int64{24, 28, 48, 52}, "bidi control U+202E"},
		{"mixed", []byte("a\x1b[31mred\x1b[0m\r\nb\x1b]8;;http://x/\x1b\\l\x1b]8;;\x1b\\ \x1b[2K\xff\x1b[6n"), []int64{16, 41, 45, 46}, "hyperlink"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, load(t, tc.data), Options{}, testStyles(termenv.Ascii, false), 120, 30, nil)
			var got []int64
			for i := range len(tc.want) + 1 {
				d.press("w")
				if c := d.m.sv().cursor; len(got) == 0 || c != got[len(got)-1] {
					got = append(got, c)
				}
				if msg := d.m.msg.String(); strings.Contains(msg, ": ;") || strings.HasSuffix(msg, ": ") {
					t.Errorf("message with an empty reason: %q", msg)
				}
				if i == 0 && !strings.Contains(d.m.msg.String(), tc.why) {
					t.Errorf("message at the first stop %q, want it to say %q", d.m.msg, tc.why)
				}
			}
			if msg := d.m.msg.String(); !strings.HasPrefix(msg, "no next hazard found") {
				t.Errorf("w past the last hazard: message %q", msg)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("w stops at %v, want %v", got, tc.want)
			}
			var back []int64
			for range len(tc.want) {
				d.press("W")
				back = append(back, d.m.sv().cursor)
			}
			want := slices.Clone(tc.want[:len(tc.want)-1])
			slices.Reverse(want)
			if len(tc.want) > 1 && !slices.Equal(back[:len(want)], want) {
				t.Errorf("W stops at %v, want %v", back, want)
			}
		})
	}
}

// TestRawTextSearch checks the raw-text search: it lands inside a
// payload (an OSC 8 target) that the cleaned-text search cannot see,
// ignores case when asked or when the query is in lower case, and Tab in
// the prompt switches between the two modes, which the prompt names.
func TestRawTextSearch(t *testing.T) {
	t.Parallel()
	data := []byte("see \x1b]8;;https://Evil.Example/x\x1b\\here\x1b]8;;\x1b\\ evil.example\n")
	d := newDriver(t, load(t, data), Options{}, testStyles(termenv.Ascii, false), 120, 30, nil)
	d.press("/evil.example<enter>")
	if c := d.m.sv().cursor; c != 45 {
		t.Errorf("cleaned-text search for evil.example at %d, want 45 (the text, not the target)", c)
	}
	d.press("<home>Xevil.example<enter>")
	if c := d.m.sv().cursor; c != 17 {
		t.Errorf("raw search (smart case) at %d, want 17 inside the target", c)
	}
	d.press("<home>XEvil.Example<enter>")
	if c := d.m.sv().cursor; c != 17 {
		t.Errorf("raw search, exact case, at %d, want 17", c)
	}
	d.press("<home>XEVIL<enter>")
	if c := d.m.sv().cursor; c != 0 || !strings.Contains(d.m.msg.String(), "no raw text EVIL found") {
		t.Errorf("raw search for EVIL (case kept) at %d, message %q", c, d.m.msg)
	}
	d.press("/EVIL")
	if v := d.m.View(); !strings.Contains(v, "search cleaned text (smart case") {
		t.Errorf("prompt does not name its mode:\n%s", v)
	}
	d.press("<tab>")
	d.send(tea.KeyMsg{Type: tea.KeyCtrlT})
	if v := d.m.View(); !strings.Contains(v, "search raw bytes as text (ignore case") {
		t.Errorf("tab and ctrl+t do not switch the prompt to raw, ignoring case:\n%s", v)
	}
	d.press("<enter>")
	if c := d.m.sv().cursor; c != 17 {
		t.Errorf("raw search for EVIL ignoring case at %d, want 17", c)
	}
}

// TestPrefilter checks the text search's raw prefilter against cleaning:
// whenever it rules a piece out, the piece's cleaned text does not hold
// the query, for random captures cut into random pieces, matches across
// removed controls included; and that it does rule out most pieces of
// text without the query.
func TestPrefilter(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	skipped := 0
	for _, pol := range offsetPolicies {
		opts, err := sanitize.ParsePolicy(pol)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(40) {
			data := offsetCapture(seed)
			data = append(data, "ne\x1b[0medle cac\u202ehe.o Needle"...)
			for _, q := range []string{"needle", "cache.o", " 45%", "Needle", "zz"} {
				fold := smartFold([]byte(q))
				qq := []byte(q)
				if fold {
					qq = asciiLower(qq)
				}
				pre := newPrefilter(qq, fold, opts)
				for range 10 {
					a := r.IntN(len(data))
					b := a + r.IntN(len(data)-a+1)
					text, _ := sanitize.Bytes(data[a:b], opts)
					if fold {
						text = asciiLower(text)
					}
					if !pre.mayMatch(data[a:b]) {
						skipped++
						if bytes.Contains(text, qq) {
							t.Errorf("policy %q: prefilter rules out %q for %q, whose cleaned text %q holds it", pol, q, data[a:b], text)
						}
					}
				}
			}
		}
	}
	plain := bytes.Repeat([]byte("\x1b[32mok\x1b[0m build step finished in 3.2s\r\n"), 1000)
	if p := newPrefilter([]byte("needle"), true, sanitize.Options{}); p.mayMatch(plain) {
		t.Error("prefilter keeps a build log without the query")
	}
	if skipped == 0 {
		t.Error("prefilter never ruled a piece out")
	}
}

// TestPrefilterNonASCII checks the prefilter on queries whose prefixes
// end in bytes outside printable ASCII: a removed token right after a
// UTF-8 character of the query, or after a run of such bytes.
func TestPrefilterNonASCII(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ raw, q string }{
		{"un caf\u00e9\x1b[31m au lait", "café au"},
		{"x \u03c3\u1ff6\x1b[1m\u03bc\u03b1 y", "σῶμα"},
		{"終端\x07\x1b[0mです", "終端です"},
	} {
		pre := newPrefilter([]byte(c.q), false, sanitize.Options{})
		if text, _ := sanitize.String(c.raw, sanitize.Options{}); !strings.Contains(text, c.q) {
			t.Fatalf("%q cleans to %q, without %q", c.raw, text, c.q)
		}
		if !pre.mayMatch([]byte(c.raw)) {
			t.Errorf("prefilter rules %q out of %q", c.q, c.raw)
		}
	}
}
