package viewer

import (
	"errors"
	"fmt"
	"io"
)

// ErrChanged reports that the bytes behind a capture changed while it was
// open: a read came back short (the file shrank) or the Check function of
// Options found the file's size different from when it was opened.
var ErrChanged = errors.New("capture changed while open")

// source reads one stream's bytes by offset. It never holds more than the
// caller asks for: the file stays on disk and the operating system's page
// cache does the caching.
type source struct {
	r io.ReaderAt
	n int64
}

// read returns the bytes in [off, off+n), clamped to the stream. A read
// that comes back short of the stream's length means the file changed.
func (s source) read(off, n int64) ([]byte, error) {
	return s.readInto(nil, off, n)
}

// readInto is read into buf's storage when it is large enough (the
// result then aliases buf), else into a new buffer.
func (s source) readInto(buf []byte, off, n int64) ([]byte, error) {
	off = max(0, min(off, s.n))
	n = max(0, min(n, s.n-off))
	if int64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	got, err := s.r.ReadAt(buf, off)
	if int64(got) == n {
		return buf, nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("%w: reading %d bytes at offset %d gave %d; the capture is shorter than the %d bytes it had when opened", ErrChanged, n, off, got, s.n)
	}
	return nil, fmt.Errorf("read capture at offset %d: %w", off, err)
}
