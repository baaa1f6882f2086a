package iostreams

import (
	"io"
	"os"
	"strconv"
	"time"

	"github.com/bytelens/bytelens/render"
	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// ProgressDelay is how long work goes on before a progress bar appears:
// shorter work finishes without one. Tests set it to 0.
var ProgressDelay = time.Second

// Terminal returns w when it is a terminal (an *os.File that isatty
// says is one), else nil: progress is drawn only for a person watching,
// never into a pipe or file.
func Terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return f
	}
	return nil
}

// Progress counts the bytes of one piece of work and, once the work has
// gone on for ProgressDelay, draws a bar for it on a terminal
// (github.com/schollz/progressbar): a bar with a percentage when the
// total is known, else a spinner with the bytes so far. It is plain text
// — brackets, '=', the spinner's | / - \ and the label, redrawn after CR,
// at most ten times a second — without colour or other escape sequences;
// its label is render's safe text. A nil *Progress does nothing, so
// callers need not check.
type Progress struct {
	tty   io.Writer
	label render.Safe
	total int64 // -1: unknown
	done  int64
	start time.Time
	bar   *progressbar.ProgressBar
}

// NewProgress starts counting work of total bytes (-1 if unknown) to be
// shown on tty, or returns nil when tty is nil (see Terminal) or total is
// 0 or less than -1.
func NewProgress(tty io.Writer, label render.Safe, total int64) *Progress {
	if tty == nil || total == 0 || total < -1 {
		return nil
	}
	return &Progress{tty: tty, label: label, total: total, start: time.Now()}
}

// Add counts n more bytes done.
func (p *Progress) Add(n int) {
	if p != nil && n > 0 {
		p.Set(p.done+int64(n), p.label)
	}
}

// Set records done bytes in all and a new label; the bar shows them at
// its next redraw.
func (p *Progress) Set(done int64, label render.Safe) {
	if p == nil {
		return
	}
	p.done = done
	switch {
	case p.bar != nil:
		if label != p.label {
			p.label = label
			p.bar.Describe(label.String())
		}
		p.bar.Set64(done)
	case time.Since(p.start) >= ProgressDelay:
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

// Finish removes the bar, if one was drawn.
func (p *Progress) Finish() {
	if p != nil && p.bar != nil {
		p.bar.Finish()
	}
}

// Reader returns r counting what is read through it, or r itself when p
// is nil.
func (p *Progress) Reader(r io.Reader) io.Reader {
	if p == nil {
		return r
	}
	return progressReader{r, p}
}

// ReaderAt returns r counting what is read through it, or r itself when
// p is nil.
func (p *Progress) ReaderAt(r io.ReaderAt) io.ReaderAt {
	if p == nil {
		return r
	}
	return progressReaderAt{r, p}
}

type progressReader struct {
	r io.Reader
	p *Progress
}

func (r progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.p.Add(n)
	return n, err
}

type progressReaderAt struct {
	r io.ReaderAt
	p *Progress
}

func (r progressReaderAt) ReadAt(b []byte, off int64) (int, error) {
	n, err := r.r.ReadAt(b, off)
	r.p.Add(n)
	return n, err
}

// RunProgress returns a spinner for a collected command named name
// (capture.Run), and the function for capture.RunOptions.Progress that
// shows the bytes read so far from each of its streams ("running sh:
// stdout 1.5 MiB, stderr 0 B"); both are nil when tty is nil.
func RunProgress(tty io.Writer, name string) (*Progress, func(stdout, stderr int64)) {
	p := NewProgress(tty, render.Sprintf("running %s", name), -1)
	if p == nil {
		return nil, nil
	}
	return p, func(stdout, stderr int64) {
		p.Set(stdout+stderr, render.Sprintf("running %s: stdout %s, stderr %s", name, SizeText(stdout), SizeText(stderr)))
	}
}

// SizeText writes n bytes for people in binary units: "812 B", "1.5 KiB",
// "12.0 MiB", "3.2 GiB".
func SizeText(n int64) string {
	if n < 1<<10 {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, unit := float64(n)/(1<<10), 0
	for ; f >= 1<<10 && unit < 2; unit++ {
		f /= 1 << 10
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + [...]string{"KiB", "MiB", "GiB"}[unit]
}
