package capture

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture/store"
)

// loader holds the state shared by the built-in loaders: the source, the
// limits, the capture being built and its streams.
type loader struct {
	r    io.ReaderAt
	size int64

	maxDecoded int64
	maxEvents  int

	c          *Capture
	streams    []*streamBuilder
	decoded    int64 // bytes held in memory by all streams
	usesSource bool  // some stream reads from r
	suppressed int   // warnings beyond MaxWarnings
}

func newLoader(r io.ReaderAt, size int64, opts OpenOptions) *loader {
	l := &loader{r: r, size: size, maxDecoded: opts.MaxDecoded, maxEvents: opts.MaxEvents, c: &Capture{}}
	if l.maxDecoded <= 0 {
		l.maxDecoded = DefaultMaxDecoded
	}
	if l.maxEvents <= 0 {
		l.maxEvents = DefaultMaxEvents
	}
	return l
}

// streamBuilder accumulates one stream: either bytes in memory or segments
// of the source, plus its events.
type streamBuilder struct {
	name      string
	mem       []byte
	inMem     bool
	segs      store.Splice
	n         int64 // stream length so far
	events    []Event
	dropped   int // events over the limit
	removed   []Removal
	anomalies []Anomaly
	last      time.Duration // time of the last frame, for frameAt
}

// stream returns the builder for name, creating it; StreamOutput sorts first.
func (l *loader) stream(name string) *streamBuilder {
	for _, s := range l.streams {
		if s.name == name {
			return s
		}
	}
	s := &streamBuilder{name: name}
	if name == StreamOutput {
		l.streams = append([]*streamBuilder{s}, l.streams...)
	} else {
		l.streams = append(l.streams, s)
	}
	return s
}

// memStream returns the builder for name, backed by memory.
func (l *loader) memStream(name string) *streamBuilder {
	s := l.stream(name)
	s.inMem = true
	return s
}

// addSource appends n source bytes starting at src to a segment-backed
// stream, merging with the previous segment when contiguous.
func (l *loader) addSource(s *streamBuilder, src, n int64) {
	if n <= 0 {
		return
	}
	l.usesSource = true
	s.segs.Add(src, n)
	s.n += n
}

// appendMem appends decoded bytes to a memory-backed stream. It reports
// false, keeping what fits, when the MaxDecoded limit is reached; the caller
// should then stop.
func (l *loader) appendMem(s *streamBuilder, p []byte, line int) bool {
	room := l.maxDecoded - l.decoded
	if int64(len(p)) > room {
		p = p[:max(room, 0)]
		s.mem = append(s.mem, p...)
		s.n += int64(len(p))
		l.decoded += int64(len(p))
		l.c.Truncated = true
		l.warnf(line, -1, "decoded data exceeds %d bytes; the rest of the capture is not loaded", l.maxDecoded)
		return false
	}
	s.mem = append(s.mem, p...)
	s.n += int64(len(p))
	l.decoded += int64(len(p))
	return true
}

// event appends e to s unless s already holds MaxEvents events.
func (l *loader) event(s *streamBuilder, e Event) {
	if len(s.events) >= l.maxEvents {
		s.dropped++
		return
	}
	s.events = append(s.events, e)
}

// warnf adds a warning about the capture file.
func (l *loader) warnf(line int, off int64, format string, args ...any) {
	l.warn(Warning{Source: "capture", Line: line, Off: off, Msg: fmt.Sprintf(format, args...)})
}

// warn adds a warning, counting those beyond MaxWarnings.
func (l *loader) warn(w Warning) {
	if len(l.c.Warnings) >= MaxWarnings {
		l.suppressed++
		return
	}
	l.c.Warnings = append(l.c.Warnings, w)
}

// finish turns the builders into the capture's streams.
func (l *loader) finish() *Capture {
	if len(l.streams) == 0 {
		l.memStream(StreamOutput)
	}
	for _, s := range l.streams {
		st := Stream{Name: s.name, Len: s.n, Events: s.events, Removed: s.removed, Anomalies: s.anomalies}
		switch {
		case s.inMem:
			st.Data = bytes.NewReader(s.mem)
		default:
			seg := s.segs
			seg.Src = l.r
			st.Data = &seg
		}
		if s.dropped > 0 {
			l.warnf(0, -1, "stream %s: %d events beyond the limit of %d were dropped", s.name, s.dropped, l.maxEvents)
		}
		l.c.Streams = append(l.c.Streams, st)
	}
	if l.suppressed > 0 {
		l.c.Warnings = append(l.c.Warnings, Warning{Source: "capture", Off: -1, Msg: fmt.Sprintf("%d more warnings not shown", l.suppressed)})
	}
	return l.c
}

// maxSeconds is the largest time, in seconds, that a capture reports
// (about 68 years); larger times are clamped.
const maxSeconds = math.MaxInt32

// seconds converts a time in seconds from an untrusted file into a
// Duration, rounded to the nanosecond. It reports false for a negative,
// NaN or huge value, which it clamps to 0 or maxSeconds.
func seconds(f float64) (time.Duration, bool) {
	switch {
	case f != f || f < 0:
		return 0, false
	case f > maxSeconds:
		return maxSeconds * time.Second, false
	}
	return time.Duration(math.Round(f * 1e9)), true
}

// addTime adds two non-negative durations, saturating at maxSeconds.
func addTime(a, b time.Duration) time.Duration {
	if s := a + b; s >= a && s <= maxSeconds*time.Second {
		return s
	}
	return maxSeconds * time.Second
}

// termSize clamps an untrusted terminal dimension to [0, MaxTermSize],
// reporting false when it had to.
func termSize(v int64) (int, bool) {
	switch {
	case v < 0:
		return 0, false
	case v > MaxTermSize:
		return MaxTermSize, false
	}
	return int(v), true
}

// setSize sets the capture's initial terminal size, warning when clamped.
func (l *loader) setSize(cols, rows int64, line int) {
	c, ok1 := termSize(cols)
	r, ok2 := termSize(rows)
	if !ok1 || !ok2 {
		l.warnf(line, -1, "terminal size clamped to %dx%d", c, r)
	}
	l.c.Cols, l.c.Rows = c, r
}

// label cuts an untrusted string to MaxLabel bytes at a UTF-8 boundary.
func label(s string) string {
	if len(s) <= MaxLabel {
		return s
	}
	s = s[:MaxLabel]
	for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// meta adds a metadata field, cutting the value to MaxLabel bytes.
func (l *loader) meta(key, value string) {
	l.c.Meta = append(l.c.Meta, Field{Key: key, Value: label(value)})
}

// loadRaw loads the whole source as one output stream. A leading
// "ESC [ 8 ; rows ; cols t" (asciinema 2.3+ --raw writes one) gives the
// terminal size and an EventResize at offset 0.
func (l *loader) loadRaw() {
	l.c.Format = FormatRaw
	s := l.stream(StreamOutput)
	l.addSource(s, 0, l.size)
	head := make([]byte, min(l.size, 32))
	if n, _ := l.r.ReadAt(head, 0); n == len(head) {
		if rows, cols, ok := resizePrefix(head); ok {
			l.setSize(cols, rows, 0)
			l.event(s, Event{Kind: EventResize, Cols: l.c.Cols, Rows: l.c.Rows})
		}
	}
}

// resizePrefix parses "ESC [ 8 ; rows ; cols t" at the start of b.
func resizePrefix(b []byte) (rows, cols int64, ok bool) {
	rest, found := bytes.CutPrefix(b, []byte("\x1b[8;"))
	if !found {
		return 0, 0, false
	}
	rows, rest, ok = cutUint(rest, ';')
	if !ok {
		return 0, 0, false
	}
	cols, _, ok = cutUint(rest, 't')
	return rows, cols, ok
}

// cutUint parses up to 18 decimal digits at the start of b followed by sep
// and returns the value and the bytes after sep.
func cutUint(b []byte, sep byte) (v int64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && i < 18 && '0' <= b[i] && b[i] <= '9' {
		v = v*10 + int64(b[i]-'0')
		i++
	}
	if i == 0 || i >= len(b) || b[i] != sep {
		return 0, nil, false
	}
	return v, b[i+1:], true
}
