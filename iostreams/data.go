package iostreams

import (
	"bufio"
	"bytes"
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
	file, ok := f.(*os.File)
	if !ok {
		return -1
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	pos, err := file.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	return fi.Size() - pos
}
