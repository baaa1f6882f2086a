package screen

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// checkFindings holds the finding properties on input in: every finding
// lies inside the text of the stream (text, invalid UTF-8 and REP bytes),
// destruction findings never overlap one another, nor do draw-time
// findings, so together they tile no more than twice the text.
func checkFindings(t *testing.T, in []byte, fs []Finding) {
	t.Helper()
	drawn := make([]bool, len(in)) // bytes that can draw a cell
	var d decode.Decoder
	mark := func(tok *decode.Token) {
		if tok.Kind == decode.KindText || tok.Kind == decode.KindInvalid || tok.Kind == decode.KindFormat ||
			tok.Kind == decode.KindCSI && tok.Final == 'b' {
			for i := tok.Off; i < tok.End(); i++ {
				drawn[i] = true
			}
		}
	}
	d.Feed(in, mark)
	d.End(mark)
	var del, drw [][2]int64
	for _, f := range fs {
		if f.Off < 0 || f.Len <= 0 || f.Off+f.Len > int64(len(in)) {
			t.Fatalf("finding %d+%d outside the %d-byte input", f.Off, f.Len, len(in))
		}
		for i := f.Off; i < f.Off+f.Len; i++ {
			if !drawn[i] {
				t.Fatalf("finding %s %d+%d covers byte %d, which draws nothing", f.Cause, f.Off, f.Len, i)
			}
		}
		if f.Rank < 0 || f.Rank > 100 {
			t.Fatalf("rank %d", f.Rank)
		}
		if f.Cause >= CauseConcealed {
			drw = append(drw, [2]int64{f.Off, f.Off + f.Len})
		} else {
			del = append(del, [2]int64{f.Off, f.Off + f.Len})
		}
	}
	for _, spans := range [][][2]int64{del, drw} {
		slices.SortFunc(spans, func(a, b [2]int64) int { return int(a[0] - b[0]) })
		for i := 1; i < len(spans); i++ {
			if spans[i][0] < spans[i-1][1] && !(spans[i][0] == spans[i-1][0] && isREP(in, spans[i][0])) {
				t.Fatalf("findings %v and %v overlap", spans[i-1], spans[i])
			}
		}
	}
}

// isREP reports whether a CSI REP starts at off: its cells share one span.
func isREP(in []byte, off int64) bool { return in[off] == 0x1b || in[off] == 0x9b }

func FuzzScreen(f *testing.F) {
	files, _ := filepath.Glob("testdata/deception/*.bin")
	recs, _ := filepath.Glob("testdata/recordings/*.typescript")
	for _, p := range append(files, recs...) {
		b, err := os.ReadFile(p)
		if err == nil {
			f.Add(b[:min(len(b), 4096)], uint8(10), uint8(4))
		}
	}
	for _, c := range fnCases {
		f.Add([]byte(c.in), uint8(10), uint8(4))
	}
	f.Fuzz(func(t *testing.T, in []byte, cols, rows uint8) {
		o := Options{Cols: int(cols%40) + 1, Rows: int(rows%12) + 1, Findings: true}
		m, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		m.Feed(in)
		m.End()
		fs := m.Findings()
		checkFindings(t, in, fs)
		// Split anywhere, the model ends the same.
		cut := len(in) / 3
		s, _ := New(o)
		s.Feed(in[:cut])
		s.Feed(in[cut:])
		s.End()
		if a, b := describe(m), describe(s); a != b {
			t.Fatalf("split at %d:\n%s\nwhole:\n%s", cut, b, a)
		}
	})
}

// TestChunkSplitInvariance feeds every recording and corpus file whole,
// byte by byte and at random split points: screens and findings agree.
func TestChunkSplitInvariance(t *testing.T) {
	files, _ := filepath.Glob("testdata/deception/*.bin")
	recs, _ := filepath.Glob("testdata/recordings/*.typescript")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range append(files, recs...) {
		in, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		o := Options{Findings: true, NewlineCRLF: filepath.Ext(p) == ".bin"}
		whole := feed(t, o, string(in))
		want := describe(whole)
		checkFindings(t, in, whole.Findings())
		for _, split := range []string{"bytes", "random"} {
			m, _ := New(o)
			for i := 0; i < len(in); {
				n := 1
				if split == "random" {
					n = 1 + rng.IntN(64)
				}
				n = min(n, len(in)-i)
				m.Feed(in[i : i+n])
				i += n
			}
			m.End()
			if got := describe(m); got != want {
				t.Errorf("%s split by %s:\n%s\nwhole:\n%s", p, split, got, want)
			}
		}
	}
}
