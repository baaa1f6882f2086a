package viewer

import (
	"errors"
	"io"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
)

// Input is a capture opened by Open: the capture (the caller closes it),
// the name the viewer shows for it, and the Check of Options (or of
// Compare) for it, nil when there is nothing to check.
type Input struct {
	Capture *capture.Capture
	Name    string
	Check   func() error
}

// OpenOptions say how Open opens its argument.
type OpenOptions struct {
	// Stdin is read for "-": spooled to a temporary file of at most
	// StdinLimit bytes and loaded with Capture.
	Stdin      io.Reader
	StdinLimit int64
	Capture    capture.OpenOptions
	// File opens any other argument, a path or a restricted: reference,
	// as the other commands open it (capture.OpenArg); its errors are
	// returned as they are.
	File func(arg string) (*capture.Capture, error)
}

// DemoName is the Name of the demo capture.
const DemoName = "demo (bytelens view with no FILE)"

// Open opens what the viewer shows for arg: "" is the demo capture (Demo);
// "-" is o.Stdin spooled to a temporary file (capture.OpenSpooled), since
// the viewer reads at random and again, more of it than o.StdinLimit bytes
// an error "stdin: …" wrapping capture.ErrInputTooLarge; anything else is
// opened by o.File. A path that names a FIFO, device or socket is refused
// with an error wrapping capture.ErrNotRegular before it is opened (read
// it through stdin). A regular file gets a Check that fails with
// ErrChanged once its size differs from its size before it was opened: a
// log still being written, or truncated, under the viewer.
func Open(arg string, o OpenOptions) (*Input, error) {
	var c *capture.Capture
	var err error
	switch arg {
	case "":
		c, err = Demo()
		return result(&Input{Capture: c, Name: DemoName}, err)
	case "-":
		c, err = capture.OpenSpooled(o.Stdin, o.StdinLimit, o.Capture)
		if errors.Is(err, capture.ErrInputTooLarge) {
			err = render.Errorf("stdin: %w", err)
		}
		return result(&Input{Capture: c, Name: "stdin"}, err)
	}
	in := &Input{Name: arg}
	before, err := os.Stat(arg)
	switch {
	case err == nil && !before.IsDir() && !before.Mode().IsRegular():
		return nil, render.Errorf("%s is %w", arg, capture.ErrNotRegular)
	case err == nil && before.Mode().IsRegular():
		in.Check = func() error { return unchanged(arg, before.Size()) }
	}
	in.Capture, err = o.File(arg)
	return result(in, err)
}

// result is in, or nil with err.
func result(in *Input, err error) (*Input, error) {
	if err != nil {
		return nil, err
	}
	return in, nil
}

// unchanged returns nil when the file at path is still size bytes long,
// else an error wrapping ErrChanged that says what it became.
func unchanged(path string, size int64) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return render.Errorf("%w: %s was %d bytes when opened and is now gone", ErrChanged, path, size)
	case fi.Size() != size:
		return render.Errorf("%w: %s was %d bytes when opened and is now %d bytes", ErrChanged, path, size, fi.Size())
	}
	return nil
}
