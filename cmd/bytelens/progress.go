package main

import (
	"io"
	"os"
	"time"

	"github.com/bytelens/bytelens/render"
	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long work goes on before a progress bar appears:
// shorter work finishes without one.
var progressDelay = time.Second

// terminal returns w when it is a terminal, else nil: progress is drawn
// only for a person watching, never into a pipe or file.
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return f
	}
	return nil
}

// progress counts the bytes of one piece of work and, when stderr is a
// terminal and the work has gone on for progressDelay, draws a bar for it
// there (github.com/schollz/progressbar). The bar is plain text — brackets,
// '=' and the label, redrawn after CR — without colour or other escape
// sequences; its label goes through render. A nil *progress does nothing.
type progress struct {
	tty   io.Writer
	label render.Safe
	total int64
	done  int64
	start time.Time
	bar   *progressbar.ProgressBar
}

// newProgress starts counting work of total bytes, or returns nil when
// stderr is not a terminal or the total is unknown.
func (s *streams) newProgress(label render.Safe, total int64) *progress {
	if s.tty == nil || total <= 0 {
		return nil
	}
	return &progress{tty: s.tty, label: label, total: total, start: time.Now()}
}

// add counts n more bytes done.
func (p *progress) add(n int) {
	if p == nil || n <= 0 {
		return
	}
	p.done += int64(n)
	switch {
	case p.bar != nil:
		p.bar.Add(n)
	case time.Since(p.start) >= progressDelay:
		p.bar = progressbar.NewOptions64(p.total,
			progressbar.OptionSetWriter(p.tty),
			progressbar.OptionSetDescription(p.label.String()),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		p.bar.Set64(p.done)
	}
}

// finish removes the bar, if one was drawn.
func (p *progress) finish() {
	if p != nil && p.bar != nil {
		p.bar.Finish()
	}
}

// progressReaderAt counts what is read through it.
type progressReaderAt struct {
	r io.ReaderAt
	p *progress
}

func (r progressReaderAt) ReadAt(b []byte, off int64) (int, error) {
	n, err := r.r.ReadAt(b, off)
	r.p.add(n)
	return n, err
}

// progressReader counts what is read through it.
type progressReader struct {
	r io.Reader
	p *progress
}

func (r progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.p.add(n)
	return n, err
}

// regularSize returns the bytes left to read in r when it is a regular
// file, else 0.
func regularSize(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	return fi.Size() - pos
}
