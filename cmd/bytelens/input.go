package main

import (
	"errors"
	"io/fs"

	"github.com/bytelens/bytelens/capture"
	"github.com/spf13/pflag"
)

// captureFlags select how a FILE argument is loaded.
type captureFlags struct {
	format, timing, stream string
}

func addCaptureFlags(fs *pflag.FlagSet) *captureFlags {
	c := &captureFlags{}
	fs.StringVar(&c.format, "format", "", "capture format instead of sniffing: "+capture.FormatNames())
	fs.StringVar(&c.timing, "timing", "", "script(1) timing file for a typescript (classic or --log-timing form)")
	fs.StringVar(&c.stream, "stream", "", "stream to use when the capture has several (output, input, stdout, stderr)")
	return c
}

// open returns the capture.OpenOptions the flags set.
func (c *captureFlags) open() capture.OpenOptions {
	return capture.OpenOptions{Format: c.format, Timing: c.timing}
}

// openInput opens the FILE argument ("-" or none is stdin) with
// capture.OpenArg as the capture flags say; with specials, a FIFO or
// device named as FILE is read as stdin is. Raw stdin is returned unread
// (Input.Raw), so that it can be streamed in constant memory.
func openInput(s *streams, args []string, cf *captureFlags, specials bool) (*capture.Input, error) {
	return cf.openArg(s, args, capture.ArgOptions{Specials: specials})
}

// openArg opens the FILE argument with o and the capture flags, and
// words its file errors for a person.
func (c *captureFlags) openArg(s *streams, args []string, o capture.ArgOptions) (*capture.Input, error) {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	o.OpenOptions, o.Stdin, o.Store, o.Stream = c.open(), s.stdin, openStore, c.stream
	in, err := capture.OpenArg(arg, o)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fileError(arg, err)
	case errors.Is(err, fs.ErrPermission):
		return nil, hintError{err, "check the file's mode and owner"}
	}
	return in, err
}
