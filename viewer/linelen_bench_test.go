package viewer

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/sanitize"
)

// lineCapture returns size bytes of coloured log text broken into lines
// of lineLen bytes (writeLines).
func lineCapture(size, lineLen int) []byte {
	var b bytes.Buffer
	_ = writeLines(&b, int64(size), int64(lineLen)) // a bytes.Buffer never fails
	return b.Bytes()
}

// writeLines writes about size bytes of coloured log text broken into
// lines of lineLen bytes (CR LF included; lineLen >= size makes one
// line), the needle "needle at the end", its colour changing inside the
// word, in the last 64 bytes.
func writeLines(w io.Writer, size, lineLen int64) error {
	const word = "\x1b[36mquick\x1b[0m brown fox τὸ σῶμα "
	buf := make([]byte, 0, 1<<20)
	var n, col int64
	for n < size-64 {
		if col+int64(len(word))+2 > lineLen && lineLen > 2 {
			buf = append(buf, strings.Repeat(".", int(max(0, lineLen-2-col)))...)
			buf = append(buf, "\r\n"...)
			n += max(0, lineLen-2-col) + 2
			col = 0
		} else {
			buf = append(buf, word...)
			col += int64(len(word))
			n += int64(len(word))
		}
		if len(buf) > 1<<20-256 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, " \x1b[1mneedle at the e\x1b[31mnd\x1b[0m tail"...)
	_, err := w.Write(buf)
	return err
}

// openModel writes data to a file in dir and opens it in a 160×45 model.
func openModel(tb testing.TB, dir string, data []byte) (*model, *capture.Capture) {
	path := filepath.Join(dir, "cap.bin")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	c, err := capture.Open(path, capture.OpenOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	m := newModel(c, Options{Name: "cap"}, testStyles(termenv.ANSI256, true))
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	_ = m.View()
	return m, c
}

// indexAll runs both chains of m's background pass to their end.
func indexAll(m *model) {
	x := m.sv().idx
	for !x.decodeDone {
		x.decodeStep()
	}
	for !x.reportDone {
		x.reportStep()
	}
}

// BenchmarkLineLength measures what a long line must not make slower: the
// background pass, a jump to a random offset (Update and View), and the
// text search for a needle at the end, over the same 16 MiB of coloured
// text broken into lines of 80 bytes to one line of 16 MiB. Every row
// should cost the same per byte, or per operation, whatever the line
// length.
func BenchmarkLineLength(b *testing.B) {
	const size = 16 << 20
	for _, l := range []int{80, 64 << 10, 1 << 20, size} {
		data := lineCapture(size, l)
		name := fmt.Sprintf("line=%d", l)
		b.Run(name+"/index", func(b *testing.B) {
			m, c := openModel(b, b.TempDir(), data)
			defer c.Close()
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for range b.N {
				sv := m.sv()
				sv.idx = newIndex(0, sv.src, sv.idx.opts, nil)
				drive(sv.idx.start(), func(msg tea.Msg) tea.Cmd {
					if msg == nil {
						return nil
					}
					_, next := m.Update(msg)
					return next
				})
			}
		})
		b.Run(name+"/jump", func(b *testing.B) {
			m, c := openModel(b, b.TempDir(), data)
			defer c.Close()
			indexAll(m)
			r := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			cpu := processCPU()
			for range b.N {
				jumpTime(m, r.Int64N(int64(len(data))))
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
		b.Run(name+"/search", func(b *testing.B) {
			m, c := openModel(b, b.TempDir(), data)
			defer c.Close()
			indexAll(m)
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for range b.N {
				j := newTextSearch(m.sv().idx, "needle at the end", false, sanitize.Options{}, 0)
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

// BenchmarkFirstFrame measures opening a 256 MiB capture of line feeds
// only and drawing its first frame (open, first Update and View), the
// index not started: a run of identical rows as long as the capture.
func BenchmarkFirstFrame(b *testing.B) {
	dir := b.TempDir()
	data := bytes.Repeat([]byte("\n"), 256<<20)
	path := filepath.Join(dir, "lf.bin")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for range b.N {
		c, err := capture.Open(path, capture.OpenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		m := newModel(c, Options{Name: "lf"}, testStyles(termenv.ANSI256, true))
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
		_ = m.View()
		c.Close()
	}
}
