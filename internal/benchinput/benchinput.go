// Package benchinput holds the inputs of the throughput benchmarks of
// decode and sanitize (BENCHMARKS.md), so that both measure the same
// bytes. Test files import it; nothing else does.
package benchinput

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Input is one benchmark input.
type Input struct {
	Name string
	Data []byte
}

// Inputs returns the generated inputs of about 1 MiB each (the hostile
// shapes have the sizes their names give), then the real coloured outputs
// recorded in dir (sanitize/testdata/bench, see its README.md), repeated
// to about 1 MiB. It panics if a recording cannot be read.
func Inputs(dir string) []Input {
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
	inputs := []Input{
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
		rec, err := os.ReadFile(filepath.Join(dir, name+".ansi"))
		if err != nil {
			panic(err)
		}
		inputs = append(inputs, Input{name, bytes.Repeat(rec, (1<<20+len(rec)-1)/len(rec))})
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
