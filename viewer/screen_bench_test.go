package viewer

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/screen"
)

// repeated is an io.ReaderAt of n bytes that repeats p.
type repeated struct {
	p []byte
	n int64
}

func (r repeated) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) && off+int64(n) < r.n {
		n += copy(b[n:], r.p[(off+int64(n))%int64(len(r.p)):])
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// BenchmarkScreenJump measures the screen pane's first screen at the
// cursor after a jump on a 1 GiB capture (the real recordings of package
// screen, repeated): the background pass has taken its checkpoints under
// the memory budget; a jump copies the nearest one and replays up to one
// step. "far" jumps to a spread of offsets, "worst" to the byte before a
// checkpoint. Not under -short: the pass reads the whole GiB first.
func BenchmarkScreenJump(b *testing.B) {
	if testing.Short() {
		b.Skip("reads 1 GiB")
	}
	var rec []byte
	files, _ := filepath.Glob("../screen/testdata/recordings/*.typescript")
	for _, f := range files {
		p, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		rec = append(rec, p...)
	}
	st := &capture.Stream{Name: capture.StreamOutput, Data: repeated{rec, 1 << 30}, Len: 1 << 30}
	c, err := newScreenCache(nil, st)
	if err != nil {
		b.Fatal(err)
	}
	// The pass as the viewer runs it, with findings off: the checkpoints
	// are the same, and a GiB of redraws holds tens of millions of
	// findings the benchmark does not measure.
	c.pass, _ = screen.New(screen.Options{NewlineCRLF: c.set.NewlineCRLF})
	for !c.done {
		if msg := c.passStep(0)().(screenMsg); msg.err != nil {
			b.Fatal(msg.err)
		}
	}
	b.Logf("%d checkpoints %d bytes apart, %d MiB", len(c.cps), c.step, c.cpBytes>>20)
	for _, worst := range []bool{false, true} {
		name := "far"
		if worst {
			name = "worst"
		}
		b.Run(name, func(b *testing.B) {
			i := int64(0)
			for b.Loop() {
				i++
				off := (i * 7919 * c.step / 3) % st.Len
				if worst {
					off = (i*7919%int64(len(c.cps)-1)+1)*c.step - 1
				}
				c.cur = nil // a jump from far away
				m, err := c.modelAt(off)
				if err != nil {
					b.Fatal(err)
				}
				var line []byte
				_, rows := m.Size()
				for y := range rows {
					line = m.AppendLine(line[:0], y)
				}
			}
		})
	}
}
