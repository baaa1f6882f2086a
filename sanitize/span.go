package sanitize

import (
	"bytes"
	"io"
)

// CleanSpan returns the cleaned text that the bytes [start, end) of
// stream produce when the whole stream is cleaned from its beginning
// under opts, so the parser is in the right state at start: a span inside
// a control string shows none of its payload. The bytes before start are
// streamed through the cleaner, not held; the error is the first from
// reading stream.
func CleanSpan(stream io.ReaderAt, start, end int64, opts Options) ([]byte, error) {
	var out bytes.Buffer
	sw := &switchWriter{}
	w := NewWriter(sw, opts)
	if _, err := io.Copy(w, io.NewSectionReader(stream, 0, start)); err != nil {
		return nil, err
	}
	sw.w = &out
	if _, err := io.Copy(w, io.NewSectionReader(stream, start, end-start)); err != nil {
		return nil, err
	}
	w.Close()
	return out.Bytes(), nil
}

// switchWriter discards until w is set.
type switchWriter struct{ w io.Writer }

func (s *switchWriter) Write(p []byte) (int, error) {
	if s.w == nil {
		return len(p), nil
	}
	return s.w.Write(p)
}
