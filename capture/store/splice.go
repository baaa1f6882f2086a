package store

import (
	"errors"
	"io"
	"sort"
)

// A Splice is an [io.ReaderAt] that joins runs of a source's bytes into
// one stream: stream offsets [0, Len) map, run by run, to offsets in Src.
// Set Src and Add runs; the zero value with Src set is an empty stream.
type Splice struct {
	// Src holds the bytes the runs point into.
	Src  io.ReaderAt
	runs []span
	n    int64
}

// span maps stream bytes [off, off+n) to source bytes [src, src+n).
type span struct{ off, src, n int64 }

var errNegativeOffset = errors.New("negative offset")

// Add appends n bytes of Src starting at offset src to the stream,
// merging them into the last run when they follow it in Src.
func (s *Splice) Add(src, n int64) {
	if k := len(s.runs); k > 0 && s.runs[k-1].src+s.runs[k-1].n == src {
		s.runs[k-1].n += n
	} else {
		s.runs = append(s.runs, span{off: s.n, src: src, n: n})
	}
	s.n += n
}

// Len returns the stream's length in bytes.
func (s *Splice) Len() int64 { return s.n }

// Runs returns the number of runs, adjacent ones merged.
func (s *Splice) Runs() int { return len(s.runs) }

// Each calls f for each run in stream order: stream offset off, source
// offset src, length n, in bytes.
func (s *Splice) Each(f func(off, src, n int64)) {
	for _, g := range s.runs {
		f(g.off, g.src, g.n)
	}
}

// ReadAt implements [io.ReaderAt] over the stream, reading from Src. A
// read cut short by Src ends in [io.ErrUnexpectedEOF] or Src's error.
func (s *Splice) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errNegativeOffset
	}
	if off >= s.n {
		return 0, io.EOF
	}
	i := sort.Search(len(s.runs), func(i int) bool { return s.runs[i].off+s.runs[i].n > off })
	n := 0
	for n < len(p) && i < len(s.runs) {
		g := s.runs[i]
		within := off - g.off
		m := int(min(int64(len(p)-n), g.n-within))
		k, err := s.Src.ReadAt(p[n:n+m], g.src+within)
		n += k
		off += int64(k)
		if k < m {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
		i++
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
