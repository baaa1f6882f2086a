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

// OpenArg opens the FILE argument of args ("-" or none is stdin) with
// capture.OpenArg, o and the flags, and words its file errors for a
// person (render.FileError; a hint for a permission error).
func (c *Capture) OpenArg(args []string, o capture.ArgOptions) (*capture.Input, error) {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	o.OpenOptions, o.Stdin, o.Store, o.Stream = c.Options(), c.stdin, c.store, c.Stream
	in, err := capture.OpenArg(arg, o)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, render.FileError(arg, err)
	case errors.Is(err, fs.ErrPermission):
		return nil, render.HintError{Err: err, Tip: "check the file's mode and owner"}
	}
	return in, err
}
