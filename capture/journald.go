package capture

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// The systemd journal's text forms (systemd.journal-fields(7),
// journalctl(1) --output): each entry's MESSAGE fields become frames of
// one output stream, followed by an LF (the journal stores messages
// without their line end), timed by __REALTIME_TIMESTAMP (microseconds
// since the Unix epoch). Other fields are metadata of the entry and are
// not loaded.

const (
	journalMessage  = "MESSAGE"
	journalRealtime = "__REALTIME_TIMESTAMP"
	journalCursor   = "__CURSOR"
)

// journalTime parses a __REALTIME_TIMESTAMP value.
func journalTime(v []byte) (time.Time, bool) {
	us, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || us < 0 || us > maxSeconds*1e6*2 {
		return time.Time{}, false
	}
	return time.UnixMicro(us).UTC(), true
}

// sniffJournalJSON reports whether the first line of b is a JSON object
// with a __CURSOR or __REALTIME_TIMESTAMP member, as journalctl -o json
// writes every entry.
func sniffJournalJSON(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	var e map[string]json.RawMessage
	if decodeObject(line, &e, false) != nil {
		return false
	}
	_, cursor := e[journalCursor]
	_, realtime := e[journalRealtime]
	return cursor || realtime
}

// Errors of journalValues and loadJournalJSON; their texts hold nothing from the capture.
var (
	errJournalByte  = errors.New("MESSAGE byte array holds a value that is not an integer from 0 to 255")
	errJournalValue = errors.New("MESSAGE is not a string, a byte array, null or an array of these")
	errJournalTime  = errors.New(journalRealtime + " is not a count of microseconds")
)

// journalValues decodes a MESSAGE member of journalctl -o json: a string
// (valid UTF-8 and printable), an array of byte values 0–255 (anything
// else), null (a value over 4096 bytes that journalctl left out without
// --all), or an array of these when the field occurs more than once. It
// returns the values and how many were null.
func journalValues(raw json.RawMessage, nested bool) (vals [][]byte, nulls int, err error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case bytes.Equal(raw, []byte("null")):
		return nil, 1, nil
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, 0, errJournalValue
		}
		return [][]byte{[]byte(s)}, 0, nil
	case len(raw) == 0 || raw[0] != '[':
		return nil, 0, errJournalValue
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil || len(elems) == 0 {
		return nil, 0, errJournalValue
	}
	if first := bytes.TrimSpace(elems[0]); len(first) > 0 && (first[0] == '-' || '0' <= first[0] && first[0] <= '9') {
		b := make([]byte, len(elems))
		for i, e := range elems {
			v, err := strconv.ParseUint(string(bytes.TrimSpace(e)), 10, 8)
			if err != nil {
				return nil, 0, errJournalByte
			}
			b[i] = byte(v)
		}
		return [][]byte{b}, 0, nil
	}
	if nested {
		return nil, 0, errJournalValue
	}
	for _, e := range elems {
		v, n, err := journalValues(e, true)
		if err != nil {
			return nil, 0, err
		}
		vals, nulls = append(vals, v...), nulls+n
	}
	return vals, nulls, nil
}

// loadJournalJSON loads journalctl -o json output. A line that is not a
// JSON object, or whose MESSAGE or __REALTIME_TIMESTAMP is malformed (a
// byte value out of range included), refuses the log with a *LineError
// naming it, whether the format was sniffed or asked for. MESSAGE values
// that journalctl left out (null) make the capture lossy.
func (l *loader) loadJournalJSON() error {
	c := l.c
	c.Format = FormatJournalJSON
	out := l.memStream(StreamOutput)
	lr := newLineReader(io.NewSectionReader(l.r, 0, l.size))
	nulls := 0
	defer func() {
		if nulls > 0 {
			c.Lossy = true
			c.LossyReason = fmt.Sprintf("journalctl left out MESSAGE values over 4096 bytes (%d null in the file); journalctl --all keeps them", nulls)
		}
	}()
	return l.readLines(lr, func(line []byte) error {
		var e map[string]json.RawMessage
		if err := decodeObject(line, &e, false); err != nil {
			return fmt.Errorf("not a journal entry (%w)", err)
		}
		var t time.Time
		if raw, ok := e[journalRealtime]; ok {
			var s string
			ok = json.Unmarshal(raw, &s) == nil
			if ok {
				t, ok = journalTime([]byte(s))
			}
			if !ok {
				return errJournalTime
			}
		}
		raw, ok := e[journalMessage]
		if !ok {
			return nil
		}
		vals, n, err := journalValues(raw, false)
		if err != nil {
			return err
		}
		nulls += n
		for _, v := range vals {
			off := out.n
			ok := l.appendMem(out, v, lr.line) && l.appendMem(out, []byte{'\n'}, lr.line)
			l.frameAt(out, off, out.n-off, t)
			if !ok {
				return errStopLines
			}
		}
		return nil
	})
}

// sniffJournalExport reports whether b starts as journalctl -o export
// output does: a __CURSOR or __REALTIME_TIMESTAMP field.
func sniffJournalExport(b []byte) bool {
	return bytes.HasPrefix(b, []byte(journalCursor+"=")) || bytes.HasPrefix(b, []byte(journalRealtime+"="))
}

// journalFieldName reports whether b is a journal field name: A–Z, 0–9
// and '_', not starting with a digit, at most 64 bytes.
func journalFieldName(b []byte) bool {
	if len(b) == 0 || len(b) > 64 || '0' <= b[0] && b[0] <= '9' {
		return false
	}
	for _, c := range b {
		if !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// loadJournalExport loads the journal export format as one output stream
// read from the source: MESSAGE values, text or binary, are frames, each
// with the LF that ends it in the file. A line that is not a field is
// skipped with a warning; a binary field whose length runs past the end of
// the file, or that is not followed by an LF, ends loading with a warning.
// Warnings give byte offsets: binary values make line numbers meaningless.
func (l *loader) loadJournalExport() error {
	c := l.c
	c.Format = FormatJournalExport
	out := l.stream(StreamOutput)
	br := bufio.NewReaderSize(io.NewSectionReader(l.r, 0, l.size), 64<<10)
	var pos int64
	type value struct{ off, n int64 }
	var msgs []value // MESSAGE values of the current entry
	var t time.Time
	endEntry := func() {
		for _, m := range msgs {
			at := out.n
			l.addSource(out, m.off, m.n)
			l.frameAt(out, at, m.n, t)
		}
		msgs, t = msgs[:0], time.Time{}
	}
	head := make([]byte, 0, lineHead)
	for {
		// One line: its first lineHead bytes, its length and whether it
		// ends in LF.
		start := pos
		head = head[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if pos == start {
				head = append(head, chunk[:min(len(chunk), lineHead)]...)
			}
			pos += int64(len(chunk))
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if pos == start {
			endEntry()
			if err == io.EOF {
				return nil
			}
			return err
		}
		if pos-start == 1 && err == nil {
			endEntry()
			continue
		}
		key, _, text := bytes.Cut(bytes.TrimSuffix(head, []byte("\n")), []byte("="))
		if !journalFieldName(key) {
			l.warnf(0, start, "not a journal export field; line skipped")
			continue
		}
		if text {
			voff := start + int64(len(key)) + 1
			switch string(key) {
			case journalMessage:
				msgs = append(msgs, value{voff, pos - voff})
			case journalRealtime:
				if v, ok := journalTime(bytes.TrimSuffix(head[len(key)+1:], []byte("\n"))); ok {
					t = v
				} else {
					l.warnf(0, start, "%s is not a count of microseconds", journalRealtime)
				}
			}
			continue
		}
		// A binary field: the name line, a little-endian uint64 length,
		// the data, an LF.
		var size [8]byte
		if _, err := io.ReadFull(br, size[:]); err != nil {
			l.warnf(0, start, "binary field cut short by the end of the file; the rest is not loaded")
			endEntry()
			return nil
		}
		n := binary.LittleEndian.Uint64(size[:])
		voff := pos + 8
		if n >= uint64(l.size-voff) {
			l.warnf(0, start, "binary field of %d bytes runs past the end of the file; the rest is not loaded", n)
			endEntry()
			return nil
		}
		if _, err := br.Discard(int(n)); err != nil {
			return err
		}
		pos = voff + int64(n)
		if b, err := br.ReadByte(); err != nil || b != '\n' {
			l.warnf(0, start, "binary field not followed by a line feed; the rest is not loaded")
			endEntry()
			return nil
		}
		pos++
		if string(key) == journalMessage {
			msgs = append(msgs, value{voff, int64(n) + 1})
		}
	}
}
