package main

import (
	"io"
	"os"
	"strconv"
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
// there (github.com/schollz/progressbar): a bar with a percentage when
// the total is known, else a spinner with the bytes so far. It is plain
// text — brackets, '=', the spinner's | / - \ and the label, redrawn after CR — without
// colour or other escape sequences; its label goes through render. A nil
// *progress does nothing.
type progress struct {
	tty   io.Writer
	label render.Safe
	total int64 // -1: unknown
	done  int64
	start time.Time
	bar   *progressbar.ProgressBar
}

// newProgress starts counting work of total bytes (-1 if unknown), or
// returns nil when stderr is not a terminal or there is no work.
func (s *streams) newProgress(label render.Safe, total int64) *progress {
	if s.tty == nil || total == 0 || total < -1 {
		return nil
	}
	return &progress{tty: s.tty, label: label, total: total, start: time.Now()}
}

// add counts n more bytes done.
func (p *progress) add(n int) {
	if p != nil && n > 0 {
		p.set(p.done+int64(n), p.label)
	}
}

// set records done bytes in all and a new label; the bar shows them at
// its next redraw (at most ten a second).
func (p *progress) set(done int64, label render.Safe) {
	p.done = done
	switch {
	case p.bar != nil:
		if label != p.label {
			p.label = label
			p.bar.Describe(label.String())
		}
		p.bar.Set64(done)
	case time.Since(p.start) >= progressDelay:
		p.label = label
		p.bar = progressbar.NewOptions64(p.total,
			progressbar.OptionSetWriter(p.tty),
			progressbar.OptionSetDescription(label.String()),
			progressbar.OptionShowBytes(true),
			progressbar.OptionUseIECUnits(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionSpinnerType(9), // ASCII: | / - \
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		p.bar.Set64(done)
	}
}

// finish removes the bar, if one was drawn.
func (p *progress) finish() {
	if p != nil && p.bar != nil {
		p.bar.Finish()
	}
}

// runProgress returns a capture.RunOptions.Progress function that shows
// the bytes read from each stream of command name, or nil when stderr is
// not a terminal; finish removes what it drew.
func (s *streams) runProgress(name string) (*progress, func(stdout, stderr int64)) {
	p := s.newProgress(render.Sprintf("running %s", name), -1)
	if p == nil {
		return nil, nil
	}
	return p, func(stdout, stderr int64) {
		p.set(stdout+stderr, render.Sprintf("running %s: stdout %s, stderr %s", name, sizeText(stdout), sizeText(stderr)))
	}
}

// sizeText writes n bytes for people: "812 B", "1.5 KiB", "12.0 MiB".
func sizeText(n int64) string {
	if n < 1<<10 {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, unit := float64(n)/(1<<10), 0
	for ; f >= 1<<10 && unit < 2; unit++ {
		f /= 1 << 10
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + [...]string{"KiB", "MiB", "GiB"}[unit]
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
