package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// dockerLossyReason explains why docker json-file logs are lossy.
const dockerLossyReason = "docker's json-file driver stores each message as a JSON string: invalid UTF-8 was replaced with U+FFFD, so the original bytes are lost"

// dockerEntry is one line of a json-file log, as moby's
// daemon/logger/jsonfilelog writes it (jsonlog.JSONLogs): "log" is the
// message with its LF (none for a partial message of over 16 KiB, which
// the next entry continues), omitted when empty; "attrs" holds the
// driver's --log-opt labels.
type dockerEntry struct {
	Log    string          `json:"log"`
	Stream string          `json:"stream"`
	Time   string          `json:"time"`
	Attrs  json.RawMessage `json:"attrs"`
}

// errDockerStream refuses a docker json-file entry whose stream is neither
// stdout nor stderr.
var errDockerStream = errors.New("docker json-file entry names a stream other than stdout and stderr")

// sniffDocker reports whether the first line of b is a json-file entry:
// a JSON object with only the members log, stream, time and attrs, a
// stream and a time among them.
func sniffDocker(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	var e struct {
		dockerEntry
		Stream *string `json:"stream"`
		Time   *string `json:"time"`
	}
	return decodeObject(line, &e, true) == nil && e.Stream != nil && e.Time != nil
}

// loadDocker loads a docker json-file log. Each entry's message, decoded
// from its JSON string, is appended to the stream it names (StreamStdout
// or StreamStderr) as a frame timed by the entry's "time". A line that is
// not such an entry — malformed or truncated JSON, an unknown member or
// stream — refuses the log with a *LineError naming it, whether the
// format was sniffed or asked for; an entry with a bad time is timed like
// the entry before it, with a warning.
func (l *loader) loadDocker() error {
	c := l.c
	c.Format = FormatDockerJSON
	c.Lossy, c.LossyReason = true, dockerLossyReason
	var badTime repeated
	defer badTime.flush(l, "capture", "entry time is not RFC 3339; timed like the entry before it")
	lr := newLineReader(io.NewSectionReader(l.r, 0, l.size))
	return l.readLines(lr, func(line []byte) error {
		var e dockerEntry
		if err := decodeObject(line, &e, true); err != nil {
			return fmt.Errorf("not a docker json-file entry (%w)", err)
		}
		if e.Stream != StreamStdout && e.Stream != StreamStderr {
			return errDockerStream
		}
		t, err := time.Parse(time.RFC3339Nano, e.Time)
		if err != nil {
			badTime.add(lr.line, -1)
			t = time.Time{}
		}
		s := l.memStream(e.Stream)
		off := s.n
		ok := l.appendMem(s, []byte(e.Log), lr.line)
		l.frameAt(s, off, s.n-off, t)
		if !ok {
			return errStopLines
		}
		return nil
	})
}
