package sanitize

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/charmbracelet/x/ansi"
)

// benchInputs are generated inputs of about 1 MiB each (the hostile shapes
// have the sizes their names give).
func benchInputs() []struct {
	name string
	data []byte
} {
	r := rand.New(rand.NewPCG(21, 22))
	fill := func(line func(i int) string) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < 1<<20; i++ {
			b.WriteString(line(i))
		}
		return b.Bytes()
	}
	words := []string{"request", "served", "in", "ms", "ошибка", "соединения", "終了", "处理", "नमस्ते", "naïve", "café", "status=200", "path=/api/v1/items"}
	plain := fill(func(i int) string {
		var s strings.Builder
		fmt.Fprintf(&s, "2026-11-29T12:%02d:%02d.%03dZ INFO ", i/60%60, i%60, i%1000)
		for j := 0; j < 8; j++ {
			s.WriteString(words[r.IntN(len(words))])
			s.WriteByte(' ')
		}
		s.WriteByte('\n')
		return s.String()
	})
	build := fill(func(i int) string {
		switch i % 6 {
		case 0:
			return fmt.Sprintf("\x1b[1;32m   Compiling\x1b[0m crate-%d v0.%d.0\n", i, i%9)
		case 1:
			return fmt.Sprintf("\r\x1b[K[%3d%%] \x1b[36m####\x1b[0m building", i%100)
		case 2:
			return fmt.Sprintf("\r\x1b[2K\x1b[33mwarning\x1b[0m: see \x1b]8;;https://docs.example/w%d\x1b\\docs\x1b]8;;\x1b\\ for details\n", i)
		case 3:
			return "\x1b[31merror[E0308]\x1b[0m\x1b[1m: mismatched types\x1b[0m\n"
		default:
			return fmt.Sprintf("  --> src/main.rs:%d:%d ordinary build output text\n", i, i%80)
		}
	})
	dense := fill(func(i int) string {
		return [...]string{"\x1b[38;5;208m", "x", "\x1b]0;t\x07", "\x1b(B", "\x1b[?25l", "\x9b1m", "\xc2\x9b0m", "\x1bP$qm\x1b\\",
			"\x1b_Ga=T\x1b\\", "\x1b^pm\x1b\\", "\x1b7", "\r", "\b", "\x00", "\u202e", "é"}[i%16]
	})
	weighted := make([]byte, 1<<20)
	alpha := []byte("\x1b\x1b[]\x07\x9b\x9c\x9d;0123456789mab\n")
	for i := range weighted {
		weighted[i] = alpha[r.IntN(len(alpha))]
	}
	uniform := make([]byte, 1<<20)
	for i := range uniform {
		uniform[i] = byte(r.IntN(256))
	}
	inputs := []struct {
		name string
		data []byte
	}{
		{"plain", plain},
		{"buildlog", build},
		{"dense", dense},
		{"unterminated-osc-1MiB", append([]byte("\x1b]0;"), bytes.Repeat([]byte("A"), 1<<20)...)},
		{"unterminated-osc-2MiB", append([]byte("\x1b]0;"), bytes.Repeat([]byte("A"), 2<<20)...)},
		{"csi-100000", append(append([]byte("\x1b["), bytes.Repeat([]byte("1;"), 50000)...), 'm')},
		{"csi-200000", append(append([]byte("\x1b["), bytes.Repeat([]byte("1;"), 100000)...), 'm')},
		{"weighted-random", weighted},
		{"weighted-random-2MiB", append(bytes.Clone(weighted), weighted...)},
		{"uniform-random", uniform},
		{"apt-progress", fill(aptLine)},
	}
	// Real coloured outputs, recorded (testdata/bench/README.md), repeated
	// to about 1 MiB.
	for _, name := range []string{"git-log-oneline", "git-log-stat", "git-log-patch", "grep-rn", "ls-laR"} {
		rec, err := os.ReadFile(filepath.Join("testdata", "bench", name+".ansi"))
		if err != nil {
			panic(err)
		}
		inputs = append(inputs, struct {
			name string
			data []byte
		}{name, bytes.Repeat(rec, (1<<20+len(rec)-1)/len(rec))})
	}
	return inputs
}

// aptLine returns line i of an apt-get style log: download lines, the
// dpkg steps, and the progress bar apt draws on the last row (a scroll
// region, the cursor saved and restored, colours, a CR-redrawn percent).
func aptLine(i int) string {
	pkg := fmt.Sprintf("lib%c%c-dev", 'a'+i%26, 'a'+i/26%26)
	pct := i % 100
	bar := strings.Repeat("#", pct/5) + strings.Repeat(".", 20-pct/5)
	switch i % 4 {
	case 0:
		return fmt.Sprintf("Get:%d http://deb.debian.org/debian trixie/main amd64 %s amd64 1.%d.%d-1 [%d kB]\n", i, pkg, i%7, i%13, 10+i%900)
	case 1:
		return fmt.Sprintf("\r%d%% [%d %s %d kB/%d kB %d%%]\x1b[K", pct, i, pkg, i%500, 900, pct)
	case 2:
		return fmt.Sprintf("Setting up %s (1.%d.%d-1) ...\n", pkg, i%7, i%13)
	}
	return fmt.Sprintf("\x1b7\x1b[0;24r\x1b8\x1b[1A\x1b7\x1b[25;0f\x1b[42m\x1b[30mProgress: [%3d%%]\x1b[49m\x1b[39m [%s] \x1b8", pct, bar)
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
