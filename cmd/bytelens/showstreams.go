package main

import (
	"errors"
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
)

// streamFuncs show one stream: at from an io.ReaderAt of known size (a
// file, a capture's stream, named), stream from a pipe read as it arrives
// (stdin, the output stream). noHeadings leaves out the heading line
// before each of several streams (for JSON Lines, which name the stream).
type streamFuncs struct {
	at         func(name string, r io.ReaderAt, size int64) error
	stream     func(r io.Reader) error
	noHeadings bool
}

// withStreams calls fn with the bytes of each stream of the FILE argument
// ("-" or none is stdin), loaded as clean and report load it (openInput):
// a recording gives the terminal bytes it holds, not the file's own bytes
// (JSON text, frame headers), and --format raw gives the file as it is.
// When several streams are shown, each is preceded by a heading line
// "‹stream NAME, N bytes›", which the capture's text cannot imitate (render
// escapes ‹ and › in text). Raw stdin, and a FIFO or device named as FILE,
// are read as stdin is (withStdin); with --format they are loaded like
// stdin too.
func withStreams(s *streams, args []string, cf *captureFlags, fn streamFuncs) error {
	in, err := openInput(s, args, cf, true)
	if err != nil {
		return err
	}
	defer in.Close()
	if in.Capture == nil {
		return withStdin(in.Raw, s.stdout, fn)
	}
	warnCapture(s.stderr, in.Capture)
	sts, err := pickStreams(in.Capture, cf.stream)
	if err != nil {
		return err
	}
	for i, st := range sts {
		if len(sts) > 1 && !fn.noHeadings {
			if i > 0 {
				s.out.Println()
			}
			if err := s.out.Printf("‹stream %s, %d bytes›\n", st.Name, st.Len); err != nil {
				return err
			}
		}
		if err := fn.at(st.Name, st.Data, st.Len); err != nil {
			return err
		}
	}
	return nil
}

// withStdin shows r: a regular file by its size, anything else (a pipe, a
// terminal, a FIFO) as a stream, read as it arrives and not spooled, so
// the first rows come out at once and nothing is kept on disk. Reading
// stops when stdout is a pipe that nobody reads any more (iostreams.OutputGone).
func withStdin(r io.Reader, stdout io.Writer, fn streamFuncs) error {
	if sr := iostreams.RegularSection(r); sr != nil {
		return fn.at(capture.StreamOutput, sr, sr.Size())
	}
	err := fn.stream(iostreams.UntilGone(r, stdout))
	switch {
	case errors.Is(err, iostreams.ErrOutputGone):
		return exitError{exitFailure} // as quiet as SIGPIPE
	case err != nil:
		return render.Errorf("reading stdin: %w", err)
	}
	return nil
}
