package capture

import (
	"encoding/binary"
	"io"
	"time"
)

// ttyrecHeaderLen is the size of a ttyrec frame header in bytes: sec, usec
// and len, each a little-endian uint32.
const ttyrecHeaderLen = 12

// ttyrecSniffFrames is how many frames sniffTTYRec walks.
const ttyrecSniffFrames = 16

type ttyrecHeader struct {
	sec, usec, n uint32
}

func readTTYRecHeader(r io.ReaderAt, off int64) (ttyrecHeader, error) {
	var b [ttyrecHeaderLen]byte
	if n, err := r.ReadAt(b[:], off); n < len(b) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return ttyrecHeader{}, err
	}
	return ttyrecHeader{
		sec:  binary.LittleEndian.Uint32(b[0:]),
		usec: binary.LittleEndian.Uint32(b[4:]),
		n:    binary.LittleEndian.Uint32(b[8:]),
	}, nil
}

// sniffTTYRec reports whether r looks like a ttyrec recording. ttyrec has no
// magic number, so it walks up to ttyrecSniffFrames frames: every header
// must have usec < 1e6 and seconds that do not go back by more than one or
// jump ahead by more than two years, and the first frame must be non-empty
// and fit in the file. A later frame may be cut short by the end of the
// file. Text almost never passes, since usec < 1e6 needs a NUL byte at
// offset 7.
func sniffTTYRec(r io.ReaderAt, size int64) bool {
	var off int64
	var prev int64
	for i := 0; i < ttyrecSniffFrames && off < size; i++ {
		if size-off < ttyrecHeaderLen {
			return i > 0
		}
		h, err := readTTYRecHeader(r, off)
		if err != nil || h.usec >= 1e6 {
			return false
		}
		if i == 0 && h.n == 0 {
			return false
		}
		if sec := int64(h.sec); i > 0 && (sec+1 < prev || sec-prev > 2*365*24*3600) {
			return false
		}
		if int64(h.n) > size-off-ttyrecHeaderLen {
			return i > 0
		}
		prev = int64(h.sec)
		off += ttyrecHeaderLen + int64(h.n)
	}
	return true
}

// loadTTYRec loads a ttyrec recording. The output stream is the
// concatenation of the frame payloads, read from the source; each frame is
// an EventFrame whose time is its timestamp minus the first frame's.
//
// Damage is reported, not fatal: a usec field ≥ 1e6 is clamped to 999999; a
// timestamp earlier than the previous one is clamped to it; a frame cut
// short by the end of the file keeps the bytes present; a length over
// MaxFrame is taken as corruption and the rest of the file becomes one
// unframed chunk; fewer than 12 trailing bytes are ignored.
func (l *loader) loadTTYRec() error {
	l.c.Format = FormatTTYRec
	l.c.Timed = true
	out := l.stream(StreamOutput)
	maxSegs := 4 * l.maxEvents
	var base, prev int64 // microseconds
	var badUsec, backwards repeated
	var off int64
	for first := true; off < l.size; first = false {
		if rest := l.size - off; rest < ttyrecHeaderLen {
			l.warnf(0, off, "%d trailing bytes are too short for a frame header; ignored", rest)
			break
		}
		if out.segs.Runs() >= maxSegs {
			l.c.Truncated = true
			l.warnf(0, off, "more than %d frames; the rest of the recording is not loaded", maxSegs)
			break
		}
		h, err := readTTYRecHeader(l.r, off)
		if err != nil {
			return err
		}
		if h.usec >= 1e6 {
			badUsec.add(0, off)
			h.usec = 1e6 - 1
		}
		us := int64(h.sec)*1e6 + int64(h.usec)
		if first {
			base, prev = us, us
			l.c.Start = time.Unix(int64(h.sec), int64(h.usec)*1e3).UTC()
		}
		if us < prev {
			backwards.add(0, off)
			us = prev
		}
		prev = us
		n := int64(h.n)
		avail := l.size - off - ttyrecHeaderLen
		switch {
		case n > MaxFrame:
			l.warnf(0, off, "frame length %d exceeds the %d-byte limit; the remaining %d bytes are kept as one unframed chunk", n, MaxFrame, avail)
			n = avail
		case n > avail:
			l.warnf(0, off, "frame truncated: header says %d bytes, %d present; partial frame kept", n, avail)
			n = avail
		}
		l.event(out, Event{Kind: EventFrame, Off: out.n, Len: n, Time: time.Duration(us-base) * time.Microsecond})
		l.addSource(out, off+ttyrecHeaderLen, n)
		off += ttyrecHeaderLen + n
	}
	badUsec.flush(l, "capture", "usec field of 1000000 or more clamped to 999999")
	backwards.flush(l, "capture", "frame timestamp goes backwards; clamped to the previous frame's")
	return nil
}
