package capture

import (
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
