package iostreams

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
)

// blockSize is DataWriter's buffer, in bytes: the size of the writes to a
// regular file.
const blockSize = 64 << 10

// DataWriter buffers a command's data on its way to stdout. When stdout is
// a regular file it writes 64 KiB blocks; otherwise (a pipe, a terminal, a
// socket) EndChunk flushes after each piece of input that completed a
// line, so that `tail -f log | bytelens clean` shows each line as it
// arrives while a fast producer still gets large writes.
type DataWriter struct {
	bw      *bufio.Writer
	lines   bool // flush at line ends
	pending bool // a line ended since the last flush
}

// NewDataWriter returns a DataWriter on w, flushing at line ends unless w
// is a regular file.
func NewDataWriter(w io.Writer) *DataWriter {
	return &DataWriter{bw: bufio.NewWriterSize(w, blockSize), lines: RegularSize(w) < 0}
}

// LineMode reports whether d flushes at line ends (w is not a regular
// file).
func (d *DataWriter) LineMode() bool { return d.lines }

// Write implements io.Writer.
func (d *DataWriter) Write(p []byte) (int, error) {
	if d.lines && !d.pending && bytes.IndexByte(p, '\n') >= 0 {
		d.pending = true
	}
	return d.bw.Write(p)
}

// EndChunk is called after each piece of input has been written: in line
// mode it flushes when a line ended in it.
func (d *DataWriter) EndChunk() error {
	if !d.pending {
		return nil
	}
	d.pending = false
	return d.bw.Flush()
}

// Flush writes what is buffered.
func (d *DataWriter) Flush() error {
	d.pending = false
	return d.bw.Flush()
}

// CopyChunks copies r to dst (a sanitize.Writer, say, that writes into
// out) in pieces as r returns them, calling out.EndChunk after each piece
// when out is a *DataWriter, so that what a piece completed reaches a
// pipe before the next piece is read. Errors are r's or dst's.
func CopyChunks(dst io.Writer, r io.Reader, out io.Writer) error {
	d, _ := out.(*DataWriter)
	buf := make([]byte, blockSize)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
			if d != nil {
				if werr := d.EndChunk(); werr != nil {
					return werr
				}
			}
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
}

// RegularSize returns the bytes left to read in f when it is an *os.File
// open on a regular file (its size less the current offset), else -1.
func RegularSize(f any) int64 {
	if sr := RegularSection(f); sr != nil {
		return sr.Size()
	}
	return -1
}

// RegularSection returns the rest of f, from its current offset, when f
// is an *os.File open on a regular file, else nil: standard input
// redirected from a file can then be read at random like the file.
func RegularSection(f any) *io.SectionReader {
	file, ok := f.(*os.File)
	if !ok {
		return nil
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	pos, err := file.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	return io.NewSectionReader(file, pos, fi.Size()-pos)
}

// ErrOutputGone is the read error of an UntilGone reader once its output
// is gone.
var ErrOutputGone = errors.New("standard output was closed")

// UntilGone returns a reader of r that fails with ErrOutputGone once w is
// a pipe whose reading end is closed (OutputGone); r itself when w is not
// a pipe.
func UntilGone(r io.Reader, w io.Writer) io.Reader {
	gone := OutputGone(w)
	if gone == nil {
		return r
	}
	return &untilGone{r: r, gone: gone}
}

// untilGone reads r until gone is closed.
type untilGone struct {
	r    io.Reader
	gone <-chan struct{}
}

func (u *untilGone) Read(p []byte) (int, error) {
	select {
	case <-u.gone:
		return 0, ErrOutputGone
	default:
		return u.r.Read(p)
	}
}
