package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// LoadInput reads r with ReadInput (capped at opts.MaxDecoded, or
// MaxInput) and loads the bytes as Load does. It returns the bytes too,
// for a caller that reads them again; the capture's streams may refer to
// them.
func LoadInput(r io.Reader, opts OpenOptions) (*Capture, []byte, error) {
	b, err := ReadInput(r, opts.MaxDecoded)
	if err != nil {
		return nil, nil, err
	}
	c, err := Load(bytes.NewReader(b), int64(len(b)), opts)
	return c, b, err
}
