// Package capture loads terminal captures: raw byte files, asciinema casts
// (asciicast v1, v2 and v3), ttyrec recordings, util-linux script(1)
// typescripts with or without a timing file, GitHub Actions and GitLab
// CI job logs, Jenkins console logs, docker json-file logs, logs with
// RFC 3339 line prefixes (kubectl and docker --timestamps), and journalctl
// JSON and export output.
//
// A loaded [Capture] holds one or more named [Stream]s. A stream is one
// contiguous byte sequence — what a terminal would have been sent — and the
// decoder keeps its state across the whole stream, so escape sequences that a
// recorder split across frames are parsed as one. [Event]s mark places in a
// stream by byte offset: where a frame starts and when it was written, a
// resize, a marker, the exit status, or a metadata region such as a script
// header line.
//
// Loaders deal in raw bytes and never interpret them as terminal input. Every
// byte, label and metadata value in a Capture comes from an untrusted file and
// must go through the sanitizer or renderer before display.
//
// Formats that keep raw bytes (raw files, ttyrec, script typescripts, CI logs)
// are served from the file itself through [io.ReaderAt], so captures far
// larger than memory can be viewed; formats that must be decoded (asciicast)
// are built in memory up to [OpenOptions.MaxDecoded] bytes.
package capture

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bytelens/bytelens/sanitize"
)

// Names of the streams that loaders create.
const (
	// StreamOutput is the terminal output: everything a recorder read from
	// the pseudo-terminal, or the whole file for raw captures.
	StreamOutput = "output"
	// StreamInput is what was typed: asciicast "i" events and script(1)
	// input chunks. It may hold secrets typed with echo off.
	StreamInput = "input"
	// StreamStdout and StreamStderr are the separate pipes that the
	// bytelens collector records (see package capture/store).
	StreamStdout = "stdout"
	StreamStderr = "stderr"
)

// Default limits used when the matching [OpenOptions] field is zero.
const (
	// DefaultMaxDecoded is the default cap, in bytes, on stream data that a
	// loader builds in memory (all decoded streams of one capture together),
	// and on how far CI-log loaders scan for events.
	DefaultMaxDecoded = 256 << 20
	// DefaultMaxEvents is the default cap on the number of events per stream.
	DefaultMaxEvents = 1 << 20
)

// Fixed limits applied to untrusted lengths and sizes.
const (
	// MaxTermSize is the largest terminal width or height, in cells, that a
	// capture reports; larger values from headers or resize events are
	// clamped to it and a warning is added.
	MaxTermSize = 1000
	// MaxLine is the longest line, in bytes, that the line-based parsers
	// accept; longer lines are never buffered whole. Asciicast and timing
	// files skip them with a warning; docker json-file and journalctl -o
	// json logs are refused with a *LineError.
	MaxLine = 16 << 20
	// MaxFrame is the largest ttyrec frame payload, in bytes, that is taken
	// at face value. A larger length field is treated as corruption: the
	// rest of the file is kept as one unframed chunk and a warning is added.
	MaxFrame = 64 << 20
	// MaxLabel is the longest event label or metadata value, in bytes;
	// longer ones are cut at a UTF-8 boundary.
	MaxLabel = 1024
	// MaxWarnings is the most warnings a capture keeps; one final warning
	// counts the rest.
	MaxWarnings = 100
)

// Capture is a loaded terminal capture: its streams, events, terminal size
// and provenance. Streams may read from the file the capture was opened
// from, so call Close when done; a Capture must not be used after Close.
type Capture struct {
	// Format is the format the capture was loaded as.
	Format Format
	// Path is the file the capture was opened from; empty for [Load].
	Path string
	// Streams are the capture's byte streams, StreamOutput first when
	// present. Every capture has at least one stream.
	Streams []Stream
	// Cols and Rows are the initial terminal size in cells, 0 when unknown,
	// at most MaxTermSize. Later sizes are EventResize events.
	Cols, Rows int
	// Start is the wall-clock time the recording started, from the file's
	// header or first timestamp; the zero Time when unknown.
	Start time.Time
	// ExitCode is the exit status of the recorded command; valid only when
	// ExitKnown is true.
	ExitCode  int
	ExitKnown bool
	// Timed reports whether event times are meaningful. When false every
	// Event.Time is zero.
	Timed bool
	// Lossy reports that the file does not hold the original terminal
	// bytes; LossyReason says why, in one sentence.
	Lossy       bool
	LossyReason string
	// Truncated reports that a limit (OpenOptions.MaxDecoded or a malformed
	// length) stopped loading before the end of the file; Warnings say
	// where.
	Truncated bool
	// Meta holds metadata from the file's header in file order (asciicast
	// title, command and TERM; script(1) header values). Values are
	// untrusted bytes, at most MaxLabel bytes each.
	Meta []Field
	// Warnings describe input that was skipped, clamped or did not match,
	// in the order found, at most MaxWarnings plus one summary.
	Warnings []Warning

	closer io.Closer
}

// Stream is one contiguous byte sequence of a capture.
type Stream struct {
	// Name is StreamOutput, StreamInput, StreamStdout or StreamStderr.
	Name string
	// Data reads the stream's bytes. Offsets are bytes from the start of
	// the stream; reads at or past Len return io.EOF. Data is safe for
	// concurrent use and may read from the capture's file.
	Data io.ReaderAt
	// Len is the stream length in bytes.
	Len int64
	// Events are the stream's events, sorted by Off (ties keep the order
	// in which the recording produced them). Each event lies within the
	// stream: 0 ≤ Off and Off+Len ≤ the stream's Len.
	Events []Event
	// Removed counts what the loader took out of the file's bytes for
	// this stream because the recorder, not the program, wrote it there:
	// Jenkins ConsoleNotes, timestamp prefixes. Those bytes are not in
	// Data; one entry per class, in the order first met.
	Removed []Removal
	// Anomalies counts the recorder annotations the loader found
	// malformed and kept in Data as text, with a warning: Jenkins
	// ConsoleNote preambles without a well-formed note. One entry per
	// class.
	Anomalies []Anomaly
}

// Through returns a copy of st whose Data reads through wrap(st.Data),
// such as a progress meter's counting reader; st is not changed.
func (st *Stream) Through(wrap func(io.ReaderAt) io.ReaderAt) *Stream {
	c := *st
	c.Data = wrap(st.Data)
	return &c
}

// Removal counts one class of recorder annotations that a loader removed
// from a stream (sanitize.LoaderRemoval, so that render can print it).
type Removal = sanitize.LoaderRemoval

// Anomaly counts one class of malformed recorder annotations that a
// loader kept in a stream as text (sanitize.LoaderAnomaly, so that a CI
// gate can fail on it).
type Anomaly = sanitize.LoaderAnomaly

// Classes of [Removal].
const (
	// RemovedJenkinsNote: a Jenkins ConsoleNote, "ESC [8m ha:" + base64 of
	// a serialized, gzipped Java object + "ESC [0m" (hudson.console.ConsoleNote).
	RemovedJenkinsNote = "jenkins_note"
	// RemovedTimestamp: an RFC 3339 timestamp and the space after it at the
	// start of a line (kubectl logs --timestamps, docker logs --timestamps).
	RemovedTimestamp = "timestamp"
)

// Reader returns a reader over the whole stream.
func (s *Stream) Reader() *io.SectionReader { return io.NewSectionReader(s.Data, 0, s.Len) }

// Stream returns the stream with the given name, or nil if there is none.
func (c *Capture) Stream(name string) *Stream {
	for i := range c.Streams {
		if c.Streams[i].Name == name {
			return &c.Streams[i]
		}
	}
	return nil
}

// ErrNoStream is wrapped by every *NoStreamError.
var ErrNoStream = errors.New("no such stream")

// NoStreamError is returned by Select for a name that is none of the
// capture's streams; it wraps ErrNoStream.
type NoStreamError struct {
	// Name is the name asked for; Have the names of the capture's streams.
	Name string
	Have []string
}

func (e *NoStreamError) Error() string {
	return fmt.Sprintf("capture has no stream %q (it has %s)", e.Name, strings.Join(e.Have, ", "))
}

func (e *NoStreamError) Unwrap() error { return ErrNoStream }

// Select returns the streams a command works on: the one named, or all of
// them when name is "". A name that is none of them is a *NoStreamError.
func (c *Capture) Select(name string) ([]*Stream, error) {
	if name == "" {
		out := make([]*Stream, len(c.Streams))
		for i := range c.Streams {
			out[i] = &c.Streams[i]
		}
		return out, nil
	}
	if st := c.Stream(name); st != nil {
		return []*Stream{st}, nil
	}
	names := make([]string, len(c.Streams))
	for i, st := range c.Streams {
		names[i] = st.Name
	}
	return nil, &NoStreamError{name, names}
}

// Close releases the file behind the capture's streams. It is safe to call
// more than once; later calls return nil.
func (c *Capture) Close() error {
	if c == nil || c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}

// EventKind says what an [Event] marks.
type EventKind uint8

// Event kinds.
const (
	// EventFrame marks the start of a frame, chunk or write: Len bytes of
	// the stream starting at Off were recorded at Time.
	EventFrame EventKind = iota + 1
	// EventResize marks a terminal size change to Cols×Rows cells at Off.
	EventResize
	// EventMarker is a named point at Off: an asciicast "m" marker, a
	// script(1) signal other than SIGWINCH (Label "SIGTERM"), a CI error or
	// warning line (Label "error", "warning").
	EventMarker
	// EventExit records the exit status Code of the recorded command.
	EventExit
	// EventHeader marks Len bytes at Off that the recorder wrote as a
	// header, not terminal output: the script(1) "Script started on …" line.
	EventHeader
	// EventFooter marks a recorder footer region: the script(1)
	// "\nScript done on …" line.
	EventFooter
	// EventTimestamp marks a timestamp prefix of Len bytes at Off that a
	// CI runner put before a log line; Time is that timestamp.
	EventTimestamp
	// EventSectionStart and EventSectionEnd mark a CI log section marker of
	// Len bytes at Off (GitLab section_start/section_end, GitHub
	// ##[group]/##[endgroup]); Label is the section name or title.
	EventSectionStart
	EventSectionEnd
)

var eventKindNames = [...]string{
	EventFrame:        "frame",
	EventResize:       "resize",
	EventMarker:       "marker",
	EventExit:         "exit",
	EventHeader:       "header",
	EventFooter:       "footer",
	EventTimestamp:    "timestamp",
	EventSectionStart: "section-start",
	EventSectionEnd:   "section-end",
}

// String returns the kind's lower-case name, such as "frame".
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return "EventKind(" + strconv.Itoa(int(k)) + ")"
}

// Event is something that happened at a byte offset of a stream.
type Event struct {
	Kind EventKind
	// Off is the byte offset in the stream where the event applies or its
	// region starts.
	Off int64
	// Len is the number of bytes the event covers: the payload of a frame,
	// the size of a header, footer, timestamp or section-marker region.
	// It is 0 for point events (resize, marker, exit).
	Len int64
	// Time is the time since the start of the recording, never negative
	// and non-decreasing along a stream's frames. It is zero when the
	// capture is not Timed.
	Time time.Duration
	// Cols and Rows are the new terminal size of an EventResize, in cells,
	// at most MaxTermSize.
	Cols, Rows int
	// Code is the exit status of an EventExit.
	Code int
	// Label names a marker, signal or section. It is untrusted, at most
	// MaxLabel bytes.
	Label string
}

// Field is one metadata key and value from a capture's header. Keys are
// chosen by the loader ("title", "command", "term", "START_TIME", …);
// values are untrusted.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Warning describes input a loader skipped, clamped or could not match.
// Messages are written by the loader and hold no bytes from the capture.
type Warning struct {
	// Source is "capture" for the capture file or "timing" for a script
	// timing file.
	Source string
	// Line is the 1-based line number in Source, or 0 when the warning is
	// not about a line.
	Line int
	// Off is the byte offset in Source, or -1 when unknown.
	Off int64
	// Msg is the warning text.
	Msg string
}

// String formats the warning as "timing line 3: msg" or
// "capture offset 176: msg".
func (w Warning) String() string {
	switch {
	case w.Line > 0:
		return fmt.Sprintf("%s line %d: %s", w.Source, w.Line, w.Msg)
	case w.Off >= 0:
		return fmt.Sprintf("%s offset %d: %s", w.Source, w.Off, w.Msg)
	}
	return w.Source + ": " + w.Msg
}
