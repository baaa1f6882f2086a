package sanitize

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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
	return []struct {
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
	}
}

// BenchmarkClean measures bytelens against the peers named in issue 2, in
// one run: charmbracelet/x/ansi Strip, a bytes.IndexByte(ESC) scan-and-copy
// loop and a utf8.Valid-plus-copy loop (the least work a sanitizer that
// keeps UTF-8 intact must do). The decode-only row is the decoder with an
// empty callback: the grammar's share of the sanitizer's time.
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
		var dec decode.Decoder
		run("decode-only", func() { dec.Feed(in.data, func(*decode.Token) {}) }) // the grammar without the policy
		w := NewWriter(discard{}, Options{})
		run("bytelens", func() { w.Write(in.data) }) // one long stream: steady state
		run("bytelens-bytes", func() { Bytes(in.data, Options{}) })
		run("ansi.Strip", func() { _ = ansi.Strip(string(in.data)) })
		run("indexbyte-esc", func() {
			dst = dst[:0]
			p := in.data
			for {
				i := bytes.IndexByte(p, 0x1b)
				if i < 0 {
					dst = append(dst, p...)
					break
				}
				dst = append(dst, p[:i]...)
				p = p[i+1:]
			}
		})
		run("utf8valid-copy", func() {
			dst = dst[:0]
			if utf8.Valid(in.data) {
				dst = append(dst, in.data...)
			}
		})
		run("class-switch", func() { dst = classSwitch(dst[:0], in.data, &counts) })
	}
}

// byteClass sorts bytes into the five classes classSwitch tells apart:
// printable ASCII, C0 and DEL, raw C1, bytes that can only be invalid,
// UTF-8 lead bytes.
var byteClass = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b >= 0x20 && b < 0x7F:
			t[b] = 0
		case b < 0x80:
			t[b] = 1
		case b < 0xA0:
			t[b] = 2
		case b < 0xC2 || b > 0xF4:
			t[b] = 3
		default:
			t[b] = 4
		}
	}
	return t
}()

// counts receives classSwitch's counts, so the compiler keeps them.
var counts [5]int

// classSwitch is a reference row, not a sanitizer: one switch per byte
// over byteClass with no state and no report (text copied, controls
// counted, U+FFFD for an invalid byte, a lead byte taken with one
// continuation byte). It bounds what any byte-at-a-time parser that treats
// these classes differently can reach on input whose next class cannot be
// predicted.
func classSwitch(dst, p []byte, n *[5]int) []byte {
	for i := 0; i < len(p); i++ {
		c := p[i]
		k := byteClass[c]
		n[k]++
		switch k {
		case 0:
			dst = append(dst, c)
		case 3:
			dst = append(dst, "\uFFFD"...)
		case 4:
			if i+1 < len(p) && p[i+1]&0xC0 == 0x80 {
				dst = append(dst, c, p[i+1])
				i++
			} else {
				dst = append(dst, "\uFFFD"...)
			}
		}
	}
	return dst
}
