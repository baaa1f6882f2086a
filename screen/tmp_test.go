package screen

import "testing"

func BenchmarkTmpTrim(b *testing.B) {
	m, _ := New(Options{Cols: 1000, Rows: 50, NewlineCRLF: true, Scrollback: true, Segments: true})
	m.Feed([]byte("\x1b[32mINFO\x1b[0m request 12345 served in 17 ms\n"))
	var dst []byte
	var segs []Segment
	for b.Loop() {
		dst = m.appendText(dst[:0], 0, m.segs(&segs))
		segs = segs[:0]
	}
}
