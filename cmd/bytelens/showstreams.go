package main

import (
	"errors"

	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/iostreams"
)

// withStreams writes each stream of the FILE argument ("-" or none is
// stdin) with d (dump.Streams), loaded as clean and report load it
// (openInput): a recording gives the terminal bytes it holds, not the
// file's own bytes (JSON text, frame headers), and --format raw gives the
// file as it is. Raw stdin, and a FIFO or device named as FILE, are read
// as they arrive (dump.Stdin); when stdout is a pipe that nobody reads any
// more, bytelens ends as quietly as SIGPIPE would, with exit code 1.
func withStreams(s *streams, args []string, cf *captureFlags, d dump.Dumper) error {
	in, err := openInput(s, args, cf, true)
	if err != nil {
		return err
	}
	defer in.Close()
	if in.Capture == nil {
		err := dump.Stdin(s.stdout, in.Raw, d)
		if errors.Is(err, iostreams.ErrOutputGone) {
			return exitError{exitFailure}
		}
		return err
	}
	warnCapture(s.stderr, in.Capture)
	sts, err := pickStreams(in.Capture, cf.stream)
	if err != nil {
		return err
	}
	return dump.Streams(s.stdout, sts, d)
}
