package capture

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// castLossyReason explains why asciicast captures are lossy.
const castLossyReason = "asciicast stores output as JSON strings: the recorder replaced invalid UTF-8 with U+FFFD, so the original bytes are lost"

// castHeader is the asciicast header object (v2, v3) or whole document (v1).
// Numbers are float64 so that "80.0" loads; strings are untrusted.
type castHeader struct {
	Version   float64           `json:"version"`
	Width     float64           `json:"width"`
	Height    float64           `json:"height"`
	Timestamp float64           `json:"timestamp"`
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Env       map[string]string `json:"env"`
	Term      struct {
		Cols float64 `json:"cols"`
		Rows float64 `json:"rows"`
		Type string  `json:"type"`
	} `json:"term"`
	Stdout []json.RawMessage `json:"stdout"` // v1 only
}

// decodeJSON unmarshals b into v and reports whether b was well-formed
// JSON. A value of the wrong type for a field leaves that field unset but
// is not a failure (encoding/json goes on decoding the other fields).
func decodeJSON(b []byte, v any) bool {
	err := json.Unmarshal(b, v)
	var te *json.UnmarshalTypeError
	return err == nil || errors.As(err, &te)
}

var castV1Version = regexp.MustCompile(`^\{\s*(?:"[^"]*"\s*:\s*(?:"[^"]*"|[-0-9.]+|\{[^{}]*\})\s*,\s*)*"version"\s*:\s*1\s*[,}]`)

// sniffCast recognises an asciicast from its first bytes: a first line that
// is a JSON object with "version" 2 or 3, or a JSON object whose "version"
// member (among the first members) is 1.
func sniffCast(b []byte) (Format, bool) {
	if len(b) == 0 || b[0] != '{' {
		return 0, false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	var h struct {
		Version float64 `json:"version"`
	}
	if decodeJSON(line, &h) {
		switch h.Version {
		case 2:
			return FormatAsciicastV2, true
		case 3:
			return FormatAsciicastV3, true
		case 1:
			return FormatAsciicastV1, true
		}
		return 0, false
	}
	if castV1Version.Match(b) {
		return FormatAsciicastV1, true
	}
	return 0, false
}

// loadCast loads an asciicast. want is the sniffed or requested format; the
// header's version decides between v2 and v3, and a header that is not a
// one-line JSON object is tried as a v1 document.
//
// A sniffed v1 document that does not decode is loaded as raw with a
// warning, since the sniffer only looked at its first bytes.
func (l *loader) loadCast(want Format, sniffed bool) error {
	l.c.Format = want
	l.c.Lossy, l.c.LossyReason = true, castLossyReason
	l.c.Timed = true
	if want == FormatAsciicastV1 {
		ok, err := l.loadCastV1(!sniffed)
		if ok || err != nil {
			return err
		}
		if sniffed {
			l.c.Lossy, l.c.LossyReason, l.c.Timed = false, "", false
			l.warnf(0, -1, "looks like an asciicast v1 document but does not decode as one; loaded as raw")
			l.loadRaw()
			return nil
		}
	}
	lr := newLineReader(io.NewSectionReader(l.r, 0, l.size))
	line, _, long, err := lr.next()
	if err == io.EOF {
		l.memStream(StreamOutput)
		return nil
	}
	if err != nil {
		return err
	}
	var h castHeader
	version := 2.0
	if want == FormatAsciicastV3 {
		version = 3
	}
	if !long && decodeJSON(trimBOM(line), &h) && h.Version != 0 {
		version = h.Version
	} else {
		if want != FormatAsciicastV1 {
			// Perhaps a pretty-printed v1 document, or one cut short
			// (the sniffer takes a v1 document as FormatAsciicastV1:
			// here the format was asked for).
			if ok, err := l.loadCastV1(!sniffed); ok || err != nil {
				return err
			}
		}
		l.warnf(1, 0, "header is not a one-line JSON object with a version; reading events as asciicast v%v", version)
	}
	switch version {
	case 1:
		if ok, err := l.loadCastV1(false); ok || err != nil {
			return err
		}
		l.warnf(1, 0, "asciicast v1 document is not valid JSON; reading lines as asciicast v2 events")
		version = 2
	case 2, 3:
	default:
		l.warnf(1, 0, "unknown asciicast version %v; reading events as v2", version)
		version = 2
	}
	if version == 3 {
		l.c.Format = FormatAsciicastV3
	} else {
		l.c.Format = FormatAsciicastV2
	}
	l.castHeader(&h, 1)
	return l.castEvents(lr, version == 3)
}

// castHeader takes the size, start time and metadata from a header.
func (l *loader) castHeader(h *castHeader, line int) {
	cols, rows := h.Width, h.Height
	if h.Term.Cols != 0 || h.Term.Rows != 0 {
		cols, rows = h.Term.Cols, h.Term.Rows
	}
	if cols != 0 || rows != 0 {
		l.setSize(floatInt(cols), floatInt(rows), line)
	}
	if ts := h.Timestamp; ts > 0 && ts < 1<<33 {
		sec, frac := math.Modf(ts)
		l.c.Start = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	}
	if h.Title != "" {
		l.meta("title", h.Title)
	}
	if h.Command != "" {
		l.meta("command", h.Command)
	}
	if t := h.Term.Type; t != "" {
		l.meta("term", t)
	} else if t := h.Env["TERM"]; t != "" {
		l.meta("term", t)
	}
}

// floatInt converts an untrusted JSON number to an int64, saturating.
func floatInt(f float64) int64 {
	switch {
	case f != f:
		return 0
	case f > 1<<40:
		return 1 << 40
	case f < -1<<40:
		return -1 << 40
	}
	return int64(f)
}

// castEvents reads [time, code, data] event lines. v3 times are intervals
// since the previous event and "#" lines are comments; v2 times are
// absolute and are clamped so that they never go backwards.
func (l *loader) castEvents(lr *lineReader, v3 bool) error {
	out := l.memStream(StreamOutput)
	var in *streamBuilder
	var t time.Duration
	var backwards, badTime, malformed, badResize, badExit repeated
	unknown := 0
	firstUnknown := 0
lines:
	for {
		line, off, long, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if long {
			l.warnf(lr.line, off, "line longer than %d bytes skipped", lr.maxLine)
			continue
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '#' {
			if !v3 {
				malformed.add(lr.line, off)
			}
			continue
		}
		var ev []json.RawMessage
		var sec float64
		var code, data string
		if json.Unmarshal(line, &ev) != nil || len(ev) < 3 ||
			json.Unmarshal(ev[0], &sec) != nil ||
			json.Unmarshal(ev[1], &code) != nil ||
			json.Unmarshal(ev[2], &data) != nil {
			malformed.add(lr.line, off)
			continue
		}
		d, ok := seconds(sec)
		if !ok {
			badTime.add(lr.line, off)
		}
		if v3 {
			t = addTime(t, d)
		} else {
			if d < t {
				backwards.add(lr.line, off)
				d = t
			}
			t = d
		}
		switch code {
		case "o", "i":
			s := out
			if code == "i" {
				if in == nil {
					in = l.memStream(StreamInput)
				}
				s = in
			}
			start := s.n
			full := l.appendMem(s, []byte(data), lr.line)
			l.event(s, Event{Kind: EventFrame, Off: start, Len: s.n - start, Time: t})
			if !full {
				break lines
			}
		case "r":
			c, r, ok := parseCastSize(data)
			if !ok {
				badResize.add(lr.line, off)
				continue
			}
			cols, ok1 := termSize(c)
			rows, ok2 := termSize(r)
			if !ok1 || !ok2 {
				l.warnf(lr.line, off, "resize clamped to %dx%d", cols, rows)
			}
			l.event(out, Event{Kind: EventResize, Off: out.n, Time: t, Cols: cols, Rows: rows})
		case "m":
			l.event(out, Event{Kind: EventMarker, Off: out.n, Time: t, Label: label(data)})
		case "x":
			status, err := strconv.Atoi(strings.TrimSpace(data))
			if err != nil {
				badExit.add(lr.line, off)
				continue
			}
			l.c.ExitCode, l.c.ExitKnown = status, true
			l.event(out, Event{Kind: EventExit, Off: out.n, Time: t, Code: status})
		default:
			if unknown == 0 {
				firstUnknown = lr.line
			}
			unknown++
		}
	}
	malformed.flush(l, "capture", "malformed event line skipped (want a JSON array [time, code, data])")
	badTime.flush(l, "capture", "negative or out-of-range event time clamped")
	backwards.flush(l, "capture", "event time goes backwards; clamped to the previous time")
	badResize.flush(l, "capture", `malformed "r" event skipped (want "COLSxROWS")`)
	badExit.flush(l, "capture", `malformed "x" event skipped (want an integer status)`)
	if unknown > 0 {
		l.warnf(firstUnknown, -1, "%d events with unknown codes skipped (first here)", unknown)
	}
	return nil
}

// parseCastSize parses an "r" event's "COLSxROWS".
func parseCastSize(s string) (cols, rows int64, ok bool) {
	a, b, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	c, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 32)
	r, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 32)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return c, r, true
}

// loadCastV1 loads the whole source as an asciicast v1 document:
// {"version": 1, "width", "height", "stdout": [[delay, data], …]} with
// delays relative to the previous frame. It reports false, loading nothing,
// when the source is not such a document. With partial set, a JSON
// object cut short, in a frame or after one, whose members complete before
// the cut include "version" 1 (before "stdout" or after it: JSON does not
// order members) keeps the frames complete before the cut, with a warning
// that says where it ends.
func (l *loader) loadCastV1(partial bool) (bool, error) {
	if l.size > l.maxDecoded {
		return false, nil
	}
	buf := make([]byte, l.size)
	if n, err := l.r.ReadAt(buf, 0); n < len(buf) {
		return false, err
	}
	var h castHeader
	if doc := trimBOM(buf); !decodeJSON(doc, &h) || h.Version != 1 {
		cut, ok := int64(0), false
		if partial {
			cut, ok = castV1Prefix(doc, &h)
		}
		if !ok {
			return false, nil
		}
		l.warnf(0, cut+int64(len(buf)-len(doc)), "asciicast v1 document ends early: %d frames complete before this offset kept", len(h.Stdout))
	}
	buf = nil
	l.c.Format = FormatAsciicastV1
	l.castHeader(&h, 0)
	out := l.memStream(StreamOutput)
	var t time.Duration
	var bad, badTime repeated
	for i, raw := range h.Stdout {
		var frame []json.RawMessage
		var sec float64
		var data string
		if json.Unmarshal(raw, &frame) != nil || len(frame) < 2 ||
			json.Unmarshal(frame[0], &sec) != nil ||
			json.Unmarshal(frame[1], &data) != nil {
			bad.add(0, int64(i))
			continue
		}
		d, ok := seconds(sec)
		if !ok {
			badTime.add(0, int64(i))
		}
		t = addTime(t, d)
		start := out.n
		full := l.appendMem(out, []byte(data), 0)
		l.event(out, Event{Kind: EventFrame, Off: start, Len: out.n - start, Time: t})
		if !full {
			break
		}
	}
	if bad.count > 0 {
		l.warnf(0, -1, "%d malformed stdout frames skipped (first is frame %d)", bad.count, bad.off)
	}
	if badTime.count > 0 {
		l.warnf(0, -1, "%d negative or out-of-range frame delays clamped (first is frame %d)", badTime.count, badTime.off)
	}
	return true, nil
}

// castV1Prefix reads doc, an asciicast v1 document cut short, member by
// member into h: the members complete before the cut, and of "stdout" the
// frames complete before it. It returns the offset in doc where the last
// complete member or frame ends, and false when doc is not a JSON object
// or no "version" 1 was read.
func castV1Prefix(doc []byte, h *castHeader) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, false
	}
	members := map[string]json.RawMessage{}
	var frames []json.RawMessage
	cut := dec.InputOffset()
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			break
		}
		if key != "stdout" {
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				break
			}
			members[key], cut = v, dec.InputOffset()
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			break
		}
		frames = nil // of a member twice the last counts, as in json.Unmarshal
		for dec.More() {
			var f json.RawMessage
			if dec.Decode(&f) != nil {
				return castV1Frames(members, frames, h, cut)
			}
			frames, cut = append(frames, f), dec.InputOffset()
		}
		if _, err := dec.Token(); err != nil {
			break
		}
		cut = dec.InputOffset()
	}
	return castV1Frames(members, frames, h, cut)
}

// castV1Frames decodes the members castV1Prefix read into h, with frames
// as its stdout, and returns cut, and whether h is a v1 header.
func castV1Frames(members map[string]json.RawMessage, frames []json.RawMessage, h *castHeader, cut int64) (int64, bool) {
	b, err := json.Marshal(members)
	if err != nil || !decodeJSON(b, h) || h.Version != 1 {
		return cut, false
	}
	h.Stdout = frames
	return cut, true
}
