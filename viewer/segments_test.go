package viewer

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/sanitize"
)

// longLines returns about n bytes of coloured text in a few very long
// lines, with multi-byte characters, CR, removed controls and now and then
// an LF or a run of LFs.
func longLines(r *rand.Rand, n int) []byte {
	var p []byte
	for len(p) < n {
		switch r.IntN(40) {
		case 0:
			p = append(p, bytes.Repeat([]byte("\n"), 1+r.IntN(3))...)
		case 1:
			p = append(p, "\x1b]8;;http://x.example/\x1b\\link\x1b]8;;\x1b\\"...)
		case 2:
			p = append(p, "\r\n"...)
		default:
			p = append(p, []string{"\x1b[31mred\x1b[0m ", "τὸ σῶμα ", "终端 ", "plain words ", "\x07"}[r.IntN(5)]...)
		}
	}
	return p
}

// TestSegments checks the layout of long lines by segments: segments tile
// each line, start on characters, are at most segLen and a character
// long, and segStart finds the same segment from any byte of it; the rows
// around any cursor are a run of the rows of the whole window, each at
// most width cells, the cursor's row holding the cursor.
func TestSegments(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 4))
	for range 4 {
		in := longLines(r, 20_000+r.IntN(60_000))
		c := newCleanWin(0, in, sanitize.Options{}, true)
		n := int64(len(c.text))
		width := 10 + r.IntN(150)
		// layout returns the row starts of the whole window, segment by
		// segment, with the highlight h (which splits pieces, and so may
		// move a wide character to the next row).
		layout := func(h highlight) []int64 {
			var all []int64
			for s := int64(0); ; {
				e := c.segEnd(s)
				if e < s || e-s > segLen+utf8.UTFMax || s < n && !utf8.RuneStart(c.text[s]) {
					t.Fatalf("segment [%d, %d) of %d bytes", s, e, n)
				}
				for _, p := range []int64{s, (s + e) / 2, max(s, e-1)} {
					if p < n && c.text[p] != '\n' {
						if got := c.segStart(p); got != s {
							t.Fatalf("segStart(%d) = %d, want %d", p, got, s)
						}
					}
				}
				for _, row := range c.segRows(s, e, width, h) {
					w := 0
					for _, pc := range row.pieces {
						w += pc.width
					}
					if w > width {
						t.Fatalf("row at %d is %d cells, wider than %d", row.out, w, width)
					}
					all = append(all, row.out)
				}
				if e >= n {
					break
				}
				if s = e; c.text[e] == '\n' {
					s++
				}
				if s == n {
					all = append(all, n)
					break
				}
			}
			return all
		}
		layout(highlight{run: -1})
		for range 15 {
			cursor := r.Int64N(int64(len(in)))
			above, below := c.rowsAround(cursor, nil, width, 20, 25, nil, false)
			h := c.highlightFor(cursor, nil)
			all := layout(h)
			var got []int64
			for _, row := range append(above, below...) {
				got = append(got, row.out)
			}
			i := slices.Index(all, got[0])
			if i < 0 || i+len(got) > len(all) || !slices.Equal(all[i:i+len(got)], got) {
				j := max(0, slices.Index(all, got[len(got)-1])-len(got)-3)
				t.Fatalf("cursor %d: rows %v are not a run of the window's rows %v", cursor, got, all[j:min(len(all), j+len(got)+6)])
			}
			anchor := h.cs
			if h.run >= 0 {
				anchor = c.runs[h.run].out
			}
			if cur := below[0].out; cur > anchor || len(below) > 1 && below[1].out <= anchor && below[1].out != cur {
				t.Fatalf("cursor %d (output %d): its row starts at %d", cursor, anchor, cur)
			}
		}
	}
}

// TestCleanWindowKept checks that the cleaned-text window is made once
// for a cursor whose nearest checkpoint in ground is two blocks back (the
// checkpoint before its block falls inside an OSC, as a long line's
// checkpoints do inside its sequences): frames that do not move the
// cursor out of its block, such as every step the background pass
// reports, reuse it instead of sanitizing it again.
func TestCleanWindowKept(t *testing.T) {
	var data []byte
	data = append(data, bytes.Repeat([]byte("a"), checkpointEvery-8)...)
	data = append(data, "\x1b]0;title over the checkpoint\x07"...)
	data = append(data, bytes.Repeat([]byte("b"), 3*checkpointEvery)...)
	m, c := openModel(t, t.TempDir(), data)
	defer c.Close()
	indexAll(m)
	sv := m.sv()
	for _, off := range []int64{2*checkpointEvery + 100, 2*checkpointEvery + 5000, 3*checkpointEvery - 1} {
		first, _, err := sv.cleanAround(off, sanitize.Options{})
		if err != nil || first == nil {
			t.Fatalf("cleanAround(%d): %v, %v", off, first, err)
		}
		if first.a != 0 || !first.exact {
			t.Fatalf("cleanAround(%d): window from %d (exact %v), want the checkpoint in ground at 0", off, first.a, first.exact)
		}
		again, _, _ := sv.cleanAround(off, sanitize.Options{})
		if again != first {
			t.Errorf("cleanAround(%d) made the window [%d, %d) again", off, again.a, again.b)
		}
	}
}
