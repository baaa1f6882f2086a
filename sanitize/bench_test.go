package sanitize

import (
	"fmt"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/benchinput"
	"github.com/charmbracelet/x/ansi"
)

// benchInputs are the benchmark inputs of internal/benchinput.
func benchInputs() []struct {
	name string
	data []byte
} {
	var out []struct {
		name string
		data []byte
	}
	for _, in := range benchinput.Inputs(filepath.Join("testdata", "bench")) {
		out = append(out, struct {
			name string
			data []byte
		}{in.Name, in.Data})
	}
	return out
}

// BenchmarkClean measures bytelens against charmbracelet/x/ansi Strip and
// a utf8.Valid-plus-copy loop (the least work a sanitizer that keeps UTF-8
// intact must do), in one run. Rows: sanitize.Bytes; the Writer reused
// across iterations (steady state) fed 64 KiB and 7 bytes per Write; the
// decoder alone with an empty callback (the grammar's share of the time).
// BENCHMARKS.md has the figures and the command.
func BenchmarkClean(b *testing.B) {
	for _, in := range benchInputs() {
		dst := make([]byte, 0, 2*len(in.data))
		run := func(name string, f func()) {
			b.Run(in.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					f()
				}
			})
		}
		run("bytes", func() { Bytes(in.data, Options{}) })
		for _, size := range []int{64 << 10, 7} {
			w := NewWriter(discard{}, Options{})
			run(fmt.Sprintf("writer-%d", size), func() {
				for p := in.data; len(p) > 0; {
					n := min(size, len(p))
					w.Write(p[:n])
					p = p[n:]
				}
			})
		}
		var dec decode.Decoder
		run("decode-only", func() { dec.Feed(in.data, func(*decode.Token) {}) })
		run("ansi.Strip", func() { _ = ansi.Strip(string(in.data)) })
		run("utf8valid-copy", func() {
			dst = dst[:0]
			if utf8.Valid(in.data) {
				dst = append(dst, in.data...)
			}
		})
	}
}
