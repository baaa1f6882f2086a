package sanitize

import "testing"

// BenchmarkCleanScreen measures Bytes under CRScreen on the inputs of
// BenchmarkClean: the screen model's share of a --cr screen run.
func BenchmarkCleanScreen(b *testing.B) {
	for _, in := range benchInputs() {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				Bytes(in.data, Options{CR: CRScreen})
			}
		})
	}
}
