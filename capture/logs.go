package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"time"
)

// Helpers shared by the loaders of line-oriented service logs (docker,
// kubectl, journald, Jenkins).

// frameAt adds an EventFrame for the n stream bytes at off that were logged
// at wall-clock time t (the zero Time when the entry had none). The first
// timed entry sets Capture.Start; event times are the time since then,
// clamped so that they never go back along the stream.
func (l *loader) frameAt(s *streamBuilder, off, n int64, t time.Time) {
	c := l.c
	if !t.IsZero() {
		if c.Start.IsZero() {
			c.Start, c.Timed = t, true
		}
		d := t.Sub(c.Start)
		switch {
		case d > maxSeconds*time.Second:
			d = maxSeconds * time.Second
		case d < s.last:
			d = s.last
		}
		s.last = d
	}
	l.event(s, Event{Kind: EventFrame, Off: off, Len: n, Time: s.last})
}

// remove counts n bytes of class that the loader took out of stream s.
func (s *streamBuilder) remove(class string, n int64) {
	for i := range s.removed {
		if s.removed[i].Class == class {
			s.removed[i].Count++
			s.removed[i].Bytes += n
			return
		}
	}
	s.removed = append(s.removed, Removal{Class: class, Count: 1, Bytes: n})
}

// lineHead is how many leading bytes of each line eachLine passes on.
const lineHead = 256

// eachLine calls fn for each line in the first limit bytes of the source:
// off is the line's offset, n its length including the LF (a last line
// may have none), head its first lineHead bytes at most. Lines of any
// length are read without buffering them.
func (l *loader) eachLine(limit int64, fn func(off, n int64, head []byte)) error {
	br := bufio.NewReaderSize(io.NewSectionReader(l.r, 0, limit), 64<<10)
	head := make([]byte, 0, lineHead)
	var off, start int64
	for {
		chunk, err := br.ReadSlice('\n')
		if off == start {
			head = append(head[:0], chunk[:min(len(chunk), lineHead)]...)
		}
		off += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		if off > start {
			fn(start, off-start, head)
		}
		start = off
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
}

// rfc3339PrefixLen returns the length of an RFC 3339 timestamp and the
// space after it at the start of b — "2026-11-29T11:47:47.1004444Z " or
// "2026-11-29T12:47:47+01:00 ", with 0 to 9 fractional digits — and the
// time it names. It returns 0 when b does not start with one.
func rfc3339PrefixLen(b []byte) (int, time.Time) {
	const pattern = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(pattern)+2 {
		return 0, time.Time{}
	}
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == 'd' {
			if b[i] < '0' || b[i] > '9' {
				return 0, time.Time{}
			}
		} else if b[i] != pattern[i] {
			return 0, time.Time{}
		}
	}
	i := len(pattern)
	if b[i] == '.' {
		j := i + 1
		for j < len(b) && j-i <= 9 && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		if j == i+1 {
			return 0, time.Time{}
		}
		i = j
	}
	switch {
	case i < len(b) && b[i] == 'Z':
		i++
	case i+6 <= len(b) && (b[i] == '+' || b[i] == '-') && b[i+3] == ':':
		i += 6
	default:
		return 0, time.Time{}
	}
	if i >= len(b) || b[i] != ' ' {
		return 0, time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b[:i]))
	if err != nil {
		return 0, time.Time{}
	}
	return i + 1, t.UTC()
}

// errJSONShape means a JSON line is well-formed but not an object of the
// expected shape (an unknown member, a member of the wrong type, data after
// the object).
var errJSONShape = errors.New("not the expected JSON object")

// decodeObject decodes line, which must hold exactly one JSON object, into
// v. With strict set, members that v has no field for are an error. The
// error never quotes the line (encoding/json's messages can name members):
// it is errJSONShape or a *json.SyntaxError's offset in words.
func decodeObject(line []byte, v any, strict bool) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return errJSONShape
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errJSONSyntax
		}
		return errJSONShape
	}
	if dec.InputOffset() != int64(len(line)) {
		return errJSONShape
	}
	return nil
}

// errJSONSyntax means a line is not well-formed JSON (a syntax error or
// a line cut short).
var errJSONSyntax = errors.New("malformed or truncated JSON")
