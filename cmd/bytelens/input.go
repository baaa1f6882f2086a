package main

import (
	"errors"
	"io/fs"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
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
// (Input.Raw), so that it can be streamed in constant memory, once the
// flags are checked against it (rawStdinFlags).
func openInput(s *streams, args []string, cf *captureFlags, specials bool) (*capture.Input, error) {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	in, err := capture.OpenArg(arg, capture.ArgOptions{OpenOptions: cf.open(), Stdin: s.stdin, Store: refStore, Specials: specials})
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fileError(arg, err)
	case errors.Is(err, fs.ErrPermission):
		return nil, hintError{err, "check the file's mode and owner"}
	case err != nil:
		return nil, err
	case in.Capture == nil:
		if err := rawStdinFlags(cf); err != nil {
			in.Close()
			return nil, err
		}
	}
	return in, nil
}

// loadInput is openInput for a command that needs the bytes of raw stdin
// again (the screen model): it loads it whole as a raw capture.
func loadInput(s *streams, args []string, cf *captureFlags) (*capture.Input, error) {
	in, err := openInput(s, args, cf, false)
	if err == nil && in.Capture == nil {
		if err = in.LoadWhole(in.Raw, capture.OpenOptions{Format: "raw"}); err != nil {
			return nil, err
		}
	}
	return in, err
}

// rawStdinFlags returns a usage error for the capture flags that do not
// apply to stdin read as raw bytes: --timing, and a --stream naming
// another stream than the one it has.
func rawStdinFlags(cf *captureFlags) error {
	switch {
	case cf.timing != "":
		return hintError{usagef("--timing applies to a script(1) typescript, and stdin is read as raw bytes"), "give --format script to read stdin as a typescript"}
	case cf.stream != "" && cf.stream != capture.StreamOutput:
		return hintError{usagef("raw stdin has one stream, %s; --stream %s names none", capture.StreamOutput, cf.stream), "give --format to read stdin as a recording with several streams"}
	}
	return nil
}

// refStore opens the default store for a "restricted:" reference, with
// the key flags' sealer.
func refStore() (*store.Store, error) {
	st, err := store.OpenDefault()
	if err != nil {
		return nil, err
	}
	if err := useKeys(st); err != nil {
		return nil, err
	}
	return st, nil
}

// pickStreams returns the streams a command works on: the one --stream
// names, or all of them (capture.Select); a name that is none of them is
// a usage error.
func pickStreams(c *capture.Capture, name string) ([]*capture.Stream, error) {
	sts, err := c.Select(name)
	if err != nil {
		return nil, usageError{err}
	}
	return sts, nil
}

// warnCapture prints a capture's provenance notes and loader warnings on
// stderr. Warning texts are the loader's words, but they may quote a
// stream name or other field of the capture: they are escaped.
func warnCapture(w *render.Writer, c *capture.Capture) {
	if c.Lossy {
		w.Printf("bytelens: note: %s capture is lossy: %s\n", c.Format, c.LossyReason)
	}
	for _, wa := range c.Warnings {
		w.Printf("bytelens: warning: %s\n", wa)
	}
}

// fileError words an error opening name for a person.
func fileError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return render.Errorf("%s: no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return hintError{render.Errorf("%s: permission denied", name), "check the file's mode and owner"}
	}
	return err
}
