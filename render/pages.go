package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// pageSource yields the consecutive pages of a byte stream to the dump
// writers, and serves the reads the glyph writer makes around the page it
// decodes: back to the start of the token still open, and a few bytes
// ahead.
type pageSource interface {
	io.ReaderAt
	// next returns the next page, at most n bytes (empty at the end of
	// the stream), and whether it is the stream's last. The page is valid
	// until the next call.
	next(n int) (p []byte, last bool, err error)
	// done says that no byte before stream offset off will be read again.
	done(off int64) error
}

// sizedPages is a pageSource over the first size bytes of an io.ReaderAt.
type sizedPages struct {
	r    io.ReaderAt
	size int64
	off  int64
	buf  []byte
}

func (s *sizedPages) ReadAt(p []byte, off int64) (int, error) { return s.r.ReadAt(p, off) }

func (s *sizedPages) next(n int) ([]byte, bool, error) {
	n = int(min(int64(n), s.size-s.off))
	if n <= 0 {
		return nil, true, nil
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	p := s.buf[:n]
	if k, err := s.r.ReadAt(p, s.off); k < n {
		return nil, false, readErr(s.off, k, err)
	}
	s.off += int64(n)
	return p, s.off >= s.size, nil
}

func (s *sizedPages) done(int64) error { return nil }

// holdLimits bound what a streamPages keeps of the token still open, in
// bytes: up to max, then only its first head and its last tail bytes,
// which is all that drawing the token reads again without payloads; when
// payloads are shown, which are read again whole, up to maxPayloads.
type holdLimits struct{ max, head, tail, maxPayloads int }

// defaultHold are the limits of the exported stream functions.
var defaultHold = holdLimits{max: 1 << 20, head: 64 << 10, tail: 64 << 10, maxPayloads: 64 << 20}

// errNotHeld is the error of a read of stream bytes that are no longer
// kept.
var errNotHeld = errors.New("bytes no longer held")

// streamPages is a pageSource over an io.Reader of unknown length: it
// keeps the bytes of the token still open (bounded: see maxHeld), not the
// stream, so memory stays bounded whatever the stream's length.
type streamPages struct {
	br      *bufio.Reader
	keepAll bool // keep the whole open token, up to lim.maxPayloads
	lim     holdLimits
	next0   int64 // stream offset of the next byte not yet read from br
	hold    []byte
	holdOff int64 // hold is the bytes [holdOff, next0)
	head    []byte
	headOff int64 // with headSet, head is the first bytes of the open token
	headSet bool
	// full makes every page but the last a whole n bytes (hex rows are
	// classed by page; see HexDumpReader).
	full bool
}

func newStreamPages(r io.Reader, keepAll bool, lim holdLimits) *streamPages {
	return &streamPages{br: bufio.NewReaderSize(r, 2*pageSize), keepAll: keepAll, lim: lim}
}

func (s *streamPages) next(n int) ([]byte, bool, error) {
	l := len(s.hold)
	if cap(s.hold)-l < n {
		grown := make([]byte, l, 2*cap(s.hold)+n)
		copy(grown, s.hold)
		s.hold = grown
	}
	// A page is what one read gives, not a full n bytes: a pipe's line
	// is decoded (and flushed) when it arrives, not when more follows.
	// The end is the read that returns EOF, with what it read.
	k, err := s.br.Read(s.hold[l : l+n])
	for k == 0 && err == nil {
		k, err = s.br.Read(s.hold[l : l+n])
	}
	if s.full && k < n && err == nil {
		var m int
		m, err = io.ReadFull(s.br, s.hold[l+k:l+n])
		k += m
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
	}
	s.hold = s.hold[:l+k]
	s.next0 += int64(k)
	switch {
	case err == io.EOF:
		return s.hold[l:], true, nil
	case err != nil:
		return nil, false, err
	}
	return s.hold[l:], false, nil
}

func (s *streamPages) done(open int64) error {
	if s.headSet && s.headOff != open {
		s.headSet = false
	}
	if open > s.holdOff {
		drop := min(open-s.holdOff, int64(len(s.hold)))
		s.hold = s.hold[:copy(s.hold, s.hold[drop:])]
		s.holdOff += drop
	}
	switch {
	case s.keepAll && len(s.hold) > s.lim.maxPayloads:
		return fmt.Errorf("a control string longer than %d bytes cannot be shown with its payload from a stream; read it from a file", s.lim.maxPayloads)
	case s.keepAll || len(s.hold) <= s.lim.max:
		return nil
	}
	if !s.headSet {
		s.head = append(s.head[:0], s.hold[:s.lim.head]...)
		s.headOff, s.headSet = s.holdOff, true
	}
	drop := len(s.hold) - s.lim.tail
	s.hold = s.hold[:copy(s.hold, s.hold[drop:])]
	s.holdOff += int64(drop)
	return nil
}

// ReadAt reads kept bytes and bytes ahead of the page being decoded; at
// the end of the stream it returns fewer bytes and io.EOF.
func (s *streamPages) ReadAt(p []byte, off int64) (int, error) {
	if s.headSet && off >= s.headOff && off+int64(len(p)) <= s.headOff+int64(len(s.head)) {
		return copy(p, s.head[off-s.headOff:]), nil
	}
	n := 0
	if off < s.next0 {
		if off < s.holdOff {
			return 0, fmt.Errorf("stream offset %d: %w (%d bytes of an open sequence are kept); read it from a file", off, errNotHeld, s.lim.max)
		}
		n = copy(p, s.hold[off-s.holdOff:])
		if n == len(p) {
			return n, nil
		}
	}
	ahead := int(off + int64(n) - s.next0)
	b, err := s.br.Peek(ahead + len(p) - n)
	if len(b) > ahead {
		n += copy(p[n:], b[ahead:])
	}
	if n < len(p) {
		if err == nil || err == bufio.ErrBufferFull {
			err = io.EOF
		}
		return n, err
	}
	return n, nil
}

// HexDumpReader is HexDump for a stream of unknown length, such as a
// pipe: it reads r to its end in pages and flushes w after each page, so
// that rows appear as input arrives, a page (64 KiB) at a time: a row
// at the end of a shorter piece would be classed without the bytes after
// it. Memory stays bounded whatever the
// stream's length; nothing is spooled.
func HexDumpReader(w io.Writer, r io.Reader, o HexOptions) error {
	src := newStreamPages(r, false, defaultHold)
	src.full = true
	return hexDump(w, src, decoderFor(o.Policy), o, true)
}

// WriteGlyphsReader is WriteGlyphs for a stream of unknown length: it
// reads r to its end and flushes w after each page. It keeps the bytes of
// the sequence still open, bounded (1 MiB, then its first and last 64 KiB,
// all that drawing it reads without payloads); with o.Payloads it keeps a
// control string whole and fails on one over 64 MiB.
func WriteGlyphsReader(w io.Writer, r io.Reader, o StreamOptions) error {
	return writeGlyphs(w, newStreamPages(r, o.Payloads, defaultHold), math.MaxInt64, o, true)
}

// WriteDescriptionsReader is WriteDescriptions for a stream of unknown
// length: it reads r to its end and flushes w after each page.
func WriteDescriptionsReader(w io.Writer, r io.Reader, o StreamOptions) error {
	return writeDescriptions(w, newStreamPages(r, false, defaultHold), o, true)
}

// DescriptionsReader is Descriptions for a stream read as it arrives (a
// pipe, a terminal), in bounded memory.
func DescriptionsReader(r io.Reader, o StreamOptions, fn func(d *Description) error) error {
	return eachDescription(newStreamPages(r, false, defaultHold), o, fn, nil)
}
