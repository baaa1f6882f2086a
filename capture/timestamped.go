package capture

import (
	"bytes"
)

// sniffTimestamped reports whether every complete line of b (and at least
// one) starts with an RFC 3339 timestamp and a space, as `kubectl logs
// --timestamps` (kubelet writes the time in Go's time.RFC3339Nano, trailing
// zeros trimmed) and `docker logs --timestamps` (nine fractional digits)
// print them.
func sniffTimestamped(b []byte) bool {
	n := 0
	for line := range bytes.Lines(b) {
		if line[len(line)-1] != '\n' {
			break // cut by the sniff window
		}
		if k, _ := rfc3339PrefixLen(line); k == 0 {
			return false
		}
		n++
	}
	return n > 0
}

// loadTimestamped loads a log whose lines start with RFC 3339 timestamps as
// one output stream read from the source, without the prefixes: each line
// becomes a frame timed by its timestamp, and the prefixes are counted as
// RemovedTimestamp. A line without a prefix is kept whole, timed like the
// line before it, with a warning.
func (l *loader) loadTimestamped() error {
	c := l.c
	c.Format = FormatTimestamped
	out := l.stream(StreamOutput)
	var bare repeated
	line := 0
	limit := l.scanLimit()
	err := l.eachLine(limit, func(off, n int64, head []byte) {
		line++
		k, t := rfc3339PrefixLen(head)
		if k == 0 {
			bare.add(line, -1)
		} else {
			out.remove(RemovedTimestamp, int64(k))
		}
		at := out.n
		l.addSource(out, off+int64(k), n-int64(k))
		l.frameAt(out, at, n-int64(k), t)
	})
	bare.flush(l, "capture", "line does not start with an RFC 3339 timestamp; kept whole")
	l.addSource(out, limit, l.size-limit)
	return err
}
