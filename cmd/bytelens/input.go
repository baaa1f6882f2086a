package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

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

// readStdin reads stdin whole (capture.ReadInput, at most
// capture.MaxInput bytes) for a loader that needs random access; raw
// stdin is streamed instead, in constant memory.
func readStdin(r io.Reader) ([]byte, error) {
	b, err := capture.ReadInput(r, 0)
	if errors.Is(err, capture.ErrInputTooLarge) {
		return nil, hintError{render.Errorf("stdin: %w", err), "save it to a file and pass the file"}
	}
	return b, err
}

// openCapture loads the FILE argument ("-" or none is stdin) as a capture.
// Raw stdin is not loaded: it returns a nil capture and the reader, so
// that it can be streamed in constant memory.
func openCapture(s *streams, args []string, cf *captureFlags) (*capture.Capture, io.Reader, string, error) {
	if len(args) == 0 || args[0] == "-" {
		if cf.format == "" || cf.format == "raw" {
			return nil, s.stdin, "stdin", rawStdinFlags(cf)
		}
		c, err := loadStdin(s.stdin, capture.OpenOptions{Format: cf.format, Timing: cf.timing})
		return c, nil, "stdin", err
	}
	name := args[0]
	if strings.HasPrefix(name, store.RefPrefix) {
		c, err := openRef(name)
		return c, nil, name, err
	}
	if st, err := os.Stat(name); err != nil {
		return nil, nil, name, fileError(name, err)
	} else if st.IsDir() {
		return nil, nil, name, render.Errorf("%s is a directory, not a capture", name)
	}
	c, err := capture.Open(name, capture.OpenOptions{Format: cf.format, Timing: cf.timing})
	switch {
	case errors.Is(err, capture.ErrUnknownFormat):
		return nil, nil, name, usageError{err}
	case errors.Is(err, fs.ErrPermission):
		return nil, nil, name, hintError{err, "check the file's mode and owner"}
	case err != nil:
		return nil, nil, name, err // capture's error names the file at fault, capture or timing
	}
	return c, nil, name, nil
}

// loadInput is openCapture for a command that needs the bytes of raw
// stdin again (the screen model): it loads it whole as a raw capture.
func loadInput(s *streams, args []string, cf *captureFlags) (*capture.Capture, string, error) {
	c, raw, name, err := openCapture(s, args, cf)
	if err == nil && c == nil {
		c, err = loadStdin(raw, capture.OpenOptions{Format: "raw"})
	}
	return c, name, err
}

// loadStdin reads r whole (readStdin) and loads it as a capture with o.
func loadStdin(r io.Reader, o capture.OpenOptions) (*capture.Capture, error) {
	b, err := readStdin(r)
	if err != nil {
		return nil, err
	}
	return capture.Load(bytes.NewReader(b), int64(len(b)), o)
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

// openRef opens a "restricted:sha256:<hex>" reference from the default
// store. A malformed reference is a usage error.
func openRef(ref string) (*capture.Capture, error) {
	r, err := store.ParseRef(ref)
	if err != nil {
		return nil, usageError{err}
	}
	st, err := store.OpenDefault()
	if err != nil {
		return nil, err
	}
	if err := useKeys(st); err != nil {
		return nil, err
	}
	c, err := capture.OpenArtifact(st, r)
	return c, keyError(err)
}

// refuseLossySniff fails closed when a format that was sniffed, not asked
// for, made the loader skip or change input: a file whose first line looks
// like a recording must not choose what the rest of it cleans to.
func refuseLossySniff(c *capture.Capture, cf *captureFlags, name string) error {
	if cf.format != "" || c.Format == capture.FormatRaw || len(c.Warnings) == 0 {
		return nil
	}
	return hintError{
		render.Errorf("%s looks like %s, but loading it skipped or changed input (%s)", name, c.Format, c.Warnings[0]),
		fmt.Sprintf("--format raw cleans the file's bytes as they are; --format %s accepts the %s reading", c.Format, c.Format),
	}
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
