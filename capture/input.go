package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxInput is the default cap, in bytes, on what ReadInput reads into
// memory.
const MaxInput = 256 << 20

// ErrInputTooLarge means a stream held more than ReadInput's cap.
var ErrInputTooLarge = errors.New("input larger than the in-memory limit")

// ReadInput reads all of r — standard input, a pipe — into memory, at
// most max bytes (MaxInput when max ≤ 0), for a loader that needs random
// access. More than max bytes gives an error wrapping ErrInputTooLarge
// and naming the limit; a read error is wrapped.
func ReadInput(r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		max = MaxInput
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading input: %w", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrInputTooLarge, max)
	}
	return b, nil
}

// OpenSpooled copies r — standard input, a pipe — into a new temporary
// file of at most limit bytes and opens it as a capture with o, so that a
// large input is read from disk rather than held in memory. The file is
// removed once open (the open file stays readable until Close). More than
// limit bytes gives an error wrapping ErrInputTooLarge; other errors are
// wrapped.
func OpenSpooled(r io.Reader, limit int64, o OpenOptions) (*Capture, error) {
	f, err := os.CreateTemp("", "bytelens-spool-*.bin")
	if err != nil {
		return nil, fmt.Errorf("spooling: %w", err)
	}
	defer os.Remove(f.Name())
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("spooling: %w", err)
	case n > limit:
		return nil, fmt.Errorf("%w: more than %d bytes", ErrInputTooLarge, limit)
	}
	return Open(f.Name(), o)
}
