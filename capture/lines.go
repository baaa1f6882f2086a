package capture

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// lineReader reads LF-terminated lines from an untrusted source without
// buffering more than maxLine bytes of any line.
type lineReader struct {
	br      *bufio.Reader
	maxLine int
	off     int64 // offset of the next line
	line    int   // number of the line last returned
	buf     []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), maxLine: MaxLine}
}

// next returns the next line without its LF (a trailing CR is kept), the
// offset of its first byte, and long=true (with a nil line) when the line
// exceeded maxLine bytes and was skipped. It returns io.EOF after the last
// line; a final line without LF is returned as a line.
func (lr *lineReader) next() (line []byte, off int64, long bool, err error) {
	off = lr.off
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		lr.off += int64(len(chunk))
		if !long {
			if len(lr.buf)+len(chunk) > lr.maxLine+1 {
				long = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if lr.off == off {
				return nil, off, false, io.EOF
			}
		case err != nil:
			return nil, off, false, err
		}
		break
	}
	lr.line++
	if long {
		return nil, off, true, nil
	}
	b := lr.buf
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	return b, off, false, nil
}

// repeated collects a warning that may apply to many places and reports it
// once, naming the first place and the count.
type repeated struct {
	count int
	line  int
	off   int64
}

func (r *repeated) add(line int, off int64) {
	if r.count == 0 {
		r.line, r.off = line, off
	}
	r.count++
}

// flush adds the collected warning, if any, to the loader.
func (r *repeated) flush(l *loader, source, msg string) {
	if r.count == 0 {
		return
	}
	if r.count > 1 {
		msg = fmt.Sprintf("%s (%d times; first here)", msg, r.count)
	}
	off := r.off
	if r.line > 0 {
		off = -1
	}
	l.warn(Warning{Source: source, Line: r.line, Off: off, Msg: msg})
}

// errStopLines, returned by a readLines callback, ends the walk early
// without an error.
var errStopLines = errors.New("capture: stop reading lines")

// A LineError refuses a line-oriented capture (docker json-file,
// journalctl -o json) at a line that does not load whole: malformed or
// truncated JSON, a member of the wrong shape, a byte value out of range,
// a line longer than MaxLine. Skipping the line would drop its bytes from
// what is cleaned and reported, so the capture is not loaded at all;
// format raw reads the same bytes as they are.
type LineError struct {
	Line int   // 1-based number of the refused line
	Err  error // what is wrong with it; its text quotes nothing from the capture
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns e.Err.
func (e *LineError) Unwrap() error { return e.Err }

// readLines calls f with each line of lr (lr.line numbers it) until the
// end of the input, an error of lr or f, or errStopLines from f, which
// ends the walk with no error. An error of f, and a line longer than
// lr.maxLine, are returned as a *LineError naming the line.
func (l *loader) readLines(lr *lineReader, f func(line []byte) error) error {
	for {
		line, _, long, err := lr.next()
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		case long:
			return &LineError{Line: lr.line, Err: fmt.Errorf("line longer than %d bytes", lr.maxLine)}
		}
		if err := f(line); err != nil {
			if err == errStopLines {
				return nil
			}
			return &LineError{Line: lr.line, Err: err}
		}
	}
}
