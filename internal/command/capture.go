package command

import (
	"errors"
	"io"
	"io/fs"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/spf13/pflag"
)

// Capture holds the capture flags, which select how a FILE argument is
// loaded (--format, --timing, --stream), and where its "-" and
// restricted references are read from.
type Capture struct {
	Format, Timing, Stream string
	stdin                  io.Reader
	store                  func() (*store.Store, error)
}

// CaptureFlags registers the capture flags on fs; stdin is read for the
// FILE "-" or none, and st opens the store a REF is read from.
func CaptureFlags(fs *pflag.FlagSet, stdin io.Reader, st func() (*store.Store, error)) *Capture {
	c := &Capture{stdin: stdin, store: st}
	fs.StringVar(&c.Format, "format", "", "capture format instead of sniffing: "+capture.FormatNames())
	fs.StringVar(&c.Timing, "timing", "", "script(1) timing file for a typescript (classic or --log-timing form)")
	fs.StringVar(&c.Stream, "stream", "", "stream to use when the capture has several (output, input, stdout, stderr)")
	return c
}

// Options returns the capture.OpenOptions the flags set.
func (c *Capture) Options() capture.OpenOptions {
	return capture.OpenOptions{Format: c.Format, Timing: c.Timing}
}

// ArgOptions returns the capture.ArgOptions the flags set: their
// OpenOptions and stream, stdin and the store.
func (c *Capture) ArgOptions() capture.ArgOptions {
	return capture.ArgOptions{OpenOptions: c.Options(), Stdin: c.stdin, Store: c.store, Stream: c.Stream}
}

// OpenArg opens the FILE argument of args ("-" or none is stdin) with
// capture.OpenArg, the flags (ArgOptions) and o's Specials and Whole,
// and words the argument's own file errors for a person (render.FileError;
// a hint for a permission error). Another file's error, such as the
// --identity file the store opener reads, comes back as it is.
func (c *Capture) OpenArg(args []string, o capture.ArgOptions) (*capture.Input, error) {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	a := c.ArgOptions()
	a.Specials, a.Whole = o.Specials, o.Whole
	in, err := capture.OpenArg(arg, a)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, render.FileError(arg, err)
	case errors.Is(err, fs.ErrPermission):
		return nil, render.HintError{Err: err, Tip: "check the file's mode and owner"}
	}
	return in, err
}
