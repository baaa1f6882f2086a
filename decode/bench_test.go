package decode

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/bytelens/bytelens/internal/benchinput"
)

// BenchmarkFeed measures the decoder alone (an emit that counts) on dense
// escapes and on uniform random bytes.
func BenchmarkFeed(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var dense bytes.Buffer
	for i := 0; dense.Len() < 1<<20; i++ {
		dense.WriteString([...]string{"\x1b[38;5;208m", "x", "\x1b]0;t\x07", "\x1b(B", "\x1b[?25l", "\x9b1m", "\xc2\x9b0m", "\x1bP$qm\x1b\\",
			"\x1b_Ga=T\x1b\\", "\x1b^pm\x1b\\", "\x1b7", "\r", "\b", "\x00", "\u202e", "é"}[i%16])
	}
	random := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	plain := bytes.Repeat([]byte("2026-11-29 INFO request served in 12 ms, status=200 path=/api/v1 — ошибка 終了\n"), 1<<20/80)
	for _, in := range []struct {
		name string
		p    []byte
	}{{"dense", dense.Bytes()}, {"random", random}, {"plain", plain}} {
		b.Run(in.name, func(b *testing.B) {
			var d Decoder
			n := 0
			emit := func(*Token) { n++ }
			b.SetBytes(int64(len(in.p)))
			b.ReportAllocs()
			for b.Loop() {
				d.Feed(in.p, emit)
			}
		})
	}
}

// BenchmarkScan measures Scan into a batch of 1024 records on the inputs
// of internal/benchinput (go test ./decode -bench 'Scan/dense').
func BenchmarkScan(b *testing.B) {
	recs := make([]Record, 1024)
	for _, in := range benchinput.Inputs(filepath.Join("..", "sanitize", "testdata", "bench")) {
		b.Run(in.Name, func(b *testing.B) {
			var d Decoder
			b.SetBytes(int64(len(in.Data)))
			b.ReportAllocs()
			for b.Loop() {
				for p := in.Data; len(p) > 0; {
					m, _ := d.Scan(p, recs)
					p = p[m:]
				}
			}
		})
	}
}

// BenchmarkScanTable measures the generation of a scan table, which the
// first Scan of a process with those options pays (go test ./decode -run
// '^$' -bench ScanTable).
func BenchmarkScanTable(b *testing.B) {
	for b.Loop() {
		buildScanTable(false, false, &scanClasses)
	}
}
