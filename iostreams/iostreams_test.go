package iostreams

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/render"
	"github.com/creack/pty"
)

func TestDataWriterModes(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if NewDataWriter(f).LineMode() {
		t.Error("a regular file gets line flushing; want blocks")
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if !NewDataWriter(w).LineMode() {
		t.Error("a pipe gets blocks; want line flushing")
	}
	var buf bytes.Buffer
	d := NewDataWriter(&buf)
	d.Write([]byte("partial"))
	d.EndChunk()
	if buf.Len() != 0 {
		t.Errorf("flushed %q before a line ended", buf.String())
	}
	d.Write([]byte(" line\nnext"))
	d.EndChunk()
	if buf.String() != "partial line\nnext" {
		t.Errorf("after a line end: %q", buf.String())
	}
}

// flushLog records what reached it at each EndChunk of CopyChunks.
type flushLog struct {
	buf  bytes.Buffer
	seen []string
}

func (f *flushLog) Write(p []byte) (int, error) { return f.buf.Write(p) }

func TestCopyChunks(t *testing.T) {
	var sink flushLog
	d := NewDataWriter(&sink)
	r := io.MultiReader(strings.NewReader("a\nb"), strings.NewReader("c"), strings.NewReader("d\n"))
	rec := writerFunc(func(p []byte) (int, error) {
		n, err := d.Write(p)
		sink.seen = append(sink.seen, sink.buf.String())
		return n, err
	})
	if err := CopyChunks(rec, r, d); err != nil {
		t.Fatal(err)
	}
	// Each piece is written before the previous one's line was flushed:
	// "a\n" is out when "c" comes, "bcd\n" only after the last piece.
	if want := []string{"", "a\nb", "a\nb"}; strings.Join(sink.seen, "|") != strings.Join(want, "|") {
		t.Errorf("seen before each write %q, want %q", sink.seen, want)
	}
	if sink.buf.String() != "a\nbcd\n" {
		t.Errorf("out %q", sink.buf.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestRegularSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	f, _ := os.Open(p)
	defer f.Close()
	f.Seek(4, io.SeekStart)
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	for _, tc := range []struct {
		name string
		f    any
		want int64
	}{{"file at 4", f, 6}, {"pipe", r, -1}, {"buffer", &bytes.Buffer{}, -1}} {
		if got := RegularSize(tc.f); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSizeText(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 12 << 20: "12.0 MiB", 5 << 40: "5120.0 GiB"} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestProgressNeverOnNonTerminal: a pipe, a file or a buffer is no
// terminal, so there is no Progress at all and nothing is drawn.
func TestProgressNeverOnNonTerminal(t *testing.T) {
	defer func(d time.Duration) { ProgressDelay = d }(ProgressDelay)
	ProgressDelay = 0
	r, w, _ := os.Pipe()
	defer r.Close()
	f, _ := os.Create(filepath.Join(t.TempDir(), "f"))
	defer f.Close()
	for _, out := range []io.Writer{w, f, &bytes.Buffer{}} {
		if tty := Terminal(out); tty != nil {
			t.Fatalf("%T is a terminal", out)
		}
		p := NewProgress(Terminal(out), render.Sprintf("x"), 100)
		p.Add(50)
		p.Finish()
		if p != nil {
			t.Errorf("a progress for %T", out)
		}
		if _, fn := RunProgress(Terminal(out), "sh"); fn != nil {
			t.Errorf("a run progress for %T", out)
		}
	}
	w.Close()
	if b, _ := io.ReadAll(r); len(b) != 0 {
		t.Errorf("drawn on a pipe: %q", b)
	}
}

// TestProgressOnTerminal draws a bar and a spinner on a pseudo-terminal:
// plain text and CR only, the label escaped, the line cleared at the end.
func TestProgressOnTerminal(t *testing.T) {
	defer func(d time.Duration) { ProgressDelay = d }(ProgressDelay)
	ProgressDelay = 0
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(ptm); got <- b }()
	tty := Terminal(pts)
	if tty == nil {
		t.Fatal("a pseudo-terminal is no terminal")
	}
	p := NewProgress(tty, render.Sprintf("cleaning %s", "evil\x1b]0;t\x07"), 1000)
	r := p.Reader(strings.NewReader(strings.Repeat("x", 1000)))
	for range 10 {
		r.Read(make([]byte, 100))
		time.Sleep(time.Millisecond)
	}
	p.Finish()
	sp, fn := RunProgress(tty, "sh")
	fn(3<<20, 1536)
	sp.Finish()
	pts.Close()
	drawn := <-got
	for _, want := range []string{"cleaning evil", "%", "running sh: stdout 3.0 MiB, stderr 1.5 KiB"} {
		if !bytes.Contains(drawn, []byte(want)) {
			t.Errorf("no %q in %q", want, drawn)
		}
	}
	if i := bytes.IndexFunc(drawn, func(r rune) bool { return r < 0x20 && r != '\r' && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
		t.Errorf("drew control %q at %d: %q", drawn[i], i, drawn)
	}
	if len(drawn) == 0 || drawn[len(drawn)-1] != '\r' {
		t.Errorf("the line is not cleared at the end: %q", drawn[max(0, len(drawn)-40):])
	}
}

func TestRegularSection(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("abcdef")
	f.Seek(2, io.SeekStart)
	sr := RegularSection(f)
	if sr == nil {
		t.Fatal("RegularSection(regular file) = nil")
	}
	b := make([]byte, 8)
	n, _ := sr.ReadAt(b, 0)
	if sr.Size() != 4 || string(b[:n]) != "cdef" || RegularSize(f) != 4 {
		t.Errorf("section of size %d reads %q, RegularSize %d; want 4, \"cdef\", 4", sr.Size(), b[:n], RegularSize(f))
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if RegularSection(pr) != nil || RegularSection(strings.NewReader("x")) != nil || RegularSize(pr) != -1 {
		t.Error("RegularSection of a pipe or a strings.Reader is not nil")
	}
}

func TestUntilGone(t *testing.T) {
	src := strings.NewReader("x")
	if UntilGone(src, io.Discard) != io.Reader(src) {
		t.Error("UntilGone wraps a reader for an output that is not a pipe")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	u := UntilGone(zeros{}, pw)
	pr.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := u.Read(make([]byte, 1))
		if errors.Is(err, ErrOutputGone) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("read error %v after the pipe's reader closed; want ErrOutputGone", err)
		}
		runtime.Gosched()
	}
}

// zeros reads endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
