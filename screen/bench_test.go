package screen

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/charmbracelet/x/vt"
)

// benchInputs are the captures of the benchmarks, about 2 MiB each
// (clears 256 KiB):
// "mixed" is the real recordings (vim, less, apt, a progress bar) one
// after another, repeated; "scrolling" a coloured log of short lines
// scrolling the whole screen; "clears" ED 2 (clear the screen) over and
// over, with a line of text after every 64th.
func benchInputs(b *testing.B) []struct {
	name string
	p    []byte
} {
	var mixed bytes.Buffer
	recs := recordings(&testing.T{})
	for mixed.Len() < 2<<20 {
		for _, r := range recs {
			mixed.Write(r.data)
		}
	}
	var scroll bytes.Buffer
	for i := 0; scroll.Len() < 2<<20; i++ {
		fmt.Fprintf(&scroll, "2026-12-01 10:%02d:%02d \x1b[32mINFO\x1b[0m request %d served in %d ms path=/api/v1/items\r\n", i/60%60, i%60, i, i%97)
	}
	var clears bytes.Buffer
	for i := 0; clears.Len() < 256<<10; i++ {
		clears.WriteString("\x1b[2J")
		if i%64 == 0 {
			fmt.Fprintf(&clears, "\x1b[Hstatus %d\r\n", i)
		}
	}
	return []struct {
		name string
		p    []byte
	}{{"mixed", mixed.Bytes()}, {"scrolling", scroll.Bytes()}, {"clears", clears.Bytes()}}
}

// BenchmarkScreen compares, in one run, the decoder alone, the screen
// model alone, the model with findings, and charmbracelet/x/vt on the
// same bytes fed in 64 KiB chunks.
func BenchmarkScreen(b *testing.B) {
	for _, in := range benchInputs(b) {
		chunks := func(feed func([]byte)) {
			for p := in.p; len(p) > 0; {
				n := min(len(p), 64<<10)
				feed(p[:n])
				p = p[n:]
			}
		}
		b.Run(in.name+"/decode", func(b *testing.B) {
			b.SetBytes(int64(len(in.p)))
			b.ReportAllocs()
			n := 0
			emit := func(*decode.Token) { n++ }
			for b.Loop() {
				var d decode.Decoder
				chunks(func(p []byte) { d.Feed(p, emit) })
			}
		})
		for _, findings := range []bool{false, true} {
			name := in.name + "/screen"
			if findings {
				name += "+findings"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(in.p)))
				b.ReportAllocs()
				for b.Loop() {
					m, _ := New(Options{Findings: findings})
					chunks(m.Feed)
					m.End()
					if findings {
						_ = m.Findings()
					}
				}
			})
		}
		b.Run(in.name+"/x-vt", func(b *testing.B) {
			b.SetBytes(int64(len(in.p)))
			b.ReportAllocs()
			for b.Loop() {
				e := vt.NewEmulator(80, 24)
				done := make(chan struct{})
				go func() { io.Copy(io.Discard, e); close(done) }() // x/vt blocks on query replies nobody reads
				chunks(func(p []byte) { e.Write(p) })
				e.Close()
				<-done
			}
		})
	}
}
