package viewer

import (
	"bytes"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

// BenchmarkTextSearch measures the cleaned-text search through a
// generated capture (coloured log lines, progress bars, links) with the
// needle at its end, the index built, for a query the prefilter can rule
// out piece by piece; and the same search with the prefilter off, which
// cleans every piece.
func BenchmarkTextSearch(b *testing.B) {
	var data []byte
	for i := 0; len(data) < 32<<20; i++ {
		data = append(data, "\x1b[36m2026-12-01T10:00:00Z\x1b[0m line: the quick brown fox jumps over the lazy dog, τὸ σῶμα 终端 \r\n"...)
		if i%3 == 0 {
			data = append(data, "progress  42% \x1b[42m          \x1b[0m\r"...)
		}
	}
	data = append(data, "\x1b[1mneedle at the e\x1b[31mnd\x1b[0m\r\n"...)
	src := source{r: bytes.NewReader(data), n: int64(len(data))}
	x := newIndex(0, src, sanitize.Options{}, nil)
	for !x.decodeDone {
		x.decodeStep()
	}
	for _, tc := range []struct {
		name string
		pre  bool
	}{{"prefilter", true}, {"clean-every-piece", false}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				j := newTextSearch(x, "needle at the end", false, sanitize.Options{}, 0)
				j.pre.off = !tc.pre
				for {
					done, found, off, err := j.step()
					if err != nil || done && (!found || off < int64(len(data))-64) {
						b.Fatalf("search: %v %v %d", err, found, off)
					}
					if done {
						break
					}
				}
			}
		})
	}
}
