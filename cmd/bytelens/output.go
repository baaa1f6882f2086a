package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// dataWriter buffers a command's data on its way to stdout. When stdout is
// a regular file it writes 64 KiB blocks; otherwise (a pipe, a terminal, a
// socket) EndChunk flushes after each piece of input that completed a
// line, so that `tail -f log | bytelens clean` shows each line as it
// arrives while a fast producer still gets large writes.
type dataWriter struct {
	bw      *bufio.Writer
	lines   bool // flush at line ends
	pending bool // a line ended since the last flush
}

// newDataWriter returns a dataWriter on w, flushing at line ends unless w
// is a regular file.
func newDataWriter(w io.Writer) *dataWriter {
	d := &dataWriter{bw: bufio.NewWriterSize(w, 64<<10), lines: true}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			d.lines = false
		}
	}
	return d
}

// Write implements io.Writer.
func (d *dataWriter) Write(p []byte) (int, error) {
	if d.lines && !d.pending && bytes.IndexByte(p, '\n') >= 0 {
		d.pending = true
	}
	return d.bw.Write(p)
}

// EndChunk is called after each piece of input has been written: in line
// mode it flushes when a line ended in it.
func (d *dataWriter) EndChunk() error {
	if !d.pending {
		return nil
	}
	d.pending = false
	return d.bw.Flush()
}

// Flush writes what is buffered.
func (d *dataWriter) Flush() error {
	d.pending = false
	return d.bw.Flush()
}

// chunkEnder is a writer that wants to know where input pieces end.
type chunkEnder interface{ EndChunk() error }

// copyChunks copies r to dst (a sanitize.Writer) in pieces as r returns
// them, telling out after each piece when it is a chunkEnder.
func copyChunks(dst io.Writer, r io.Reader, out io.Writer) error {
	ce, _ := out.(chunkEnder)
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
			if ce != nil {
				if werr := ce.EndChunk(); werr != nil {
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
