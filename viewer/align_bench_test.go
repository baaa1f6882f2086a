package viewer

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// BenchmarkAlign measures the alignment of two 8 MiB captures (maxAlign,
// the longest compare mode aligns): B with a line inserted in the middle
// and a colour changed near the end, and B another capture altogether.
func BenchmarkAlign(b *testing.B) {
	var a bytes.Buffer
	for i := 0; a.Len() < maxAlign-200; i++ {
		fmt.Fprintf(&a, "line %d \x1b[3%dmcoloured\x1b[0m and \x1b]8;;https://x.example/%d\x1b\\a link\x1b]8;;\x1b\\\r\n", i, i%8, i)
	}
	near := bytes.Clone(a.Bytes())
	mid := bytes.IndexByte(near[len(near)/2:], '\n') + len(near)/2 + 1
	near = append(near[:mid:mid], append([]byte("an inserted line\r\n"), near[mid:]...)...)
	if k := bytes.LastIndex(near, []byte("\x1b[31m")); k >= 0 {
		near[k+3] = '2'
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{{"near", near}, {"other", hostile(7, a.Len())}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(a.Len() + len(tc.b)))
			for b.Loop() {
				al := align(a.Bytes(), tc.b, decode.Decoder{}, decode.Decoder{})
				b.ReportMetric(float64(len(al.places)), "places")
			}
		})
	}
}
