package capture

import (
	"fmt"
	"io"
	"time"

	"github.com/bytelens/bytelens/screen"
)

// ScreenSetup is how a capture's screen is to be modelled, each choice with
// where it came from, so that a report can state it.
type ScreenSetup struct {
	// Cols and Rows are the initial size in cells; SizeSource says where
	// it came from: "capture header", "--size" (the caller's) or
	// "default".
	Cols, Rows int
	SizeSource string
	// NewlineCRLF is true for captures of pipes and files (raw bytes, CI
	// logs, collector streams), where the tty's ONLCR never turned LF into
	// CR LF; false for pseudo-terminal recordings (asciicast, ttyrec,
	// script), which hold the CR.
	NewlineCRLF bool
}

// SetupScreen chooses the screen size and newline mode for stream st of c:
// the capture's own size, else cols×rows when both are given (--size),
// else screen.DefaultCols×screen.DefaultRows.
func SetupScreen(c *Capture, st *Stream, cols, rows int) ScreenSetup {
	s := ScreenSetup{Cols: screen.DefaultCols, Rows: screen.DefaultRows, SizeSource: "default"}
	switch {
	case c != nil && c.Cols > 0 && c.Rows > 0:
		s.Cols, s.Rows, s.SizeSource = c.Cols, c.Rows, "capture header"
	case cols > 0 && rows > 0:
		s.Cols, s.Rows, s.SizeSource = cols, rows, "--size"
	}
	switch {
	case c == nil, st != nil && (st.Name == StreamStdout || st.Name == StreamStderr):
		s.NewlineCRLF = true
	default:
		switch c.Format {
		case FormatRaw, FormatGitHubActions, FormatGitLabCI, FormatArtifact:
			s.NewlineCRLF = true
		}
	}
	return s
}

// PlayScreen feeds m the bytes of st from m.Offset() up to end (at most
// st.Len), applying the stream's events on the way: each EventFrame starts
// a frame (screen.Model.Frame with its time), each EventResize resizes
// the screen (a zero dimension keeps the current one, as XTWINOPS does),
// and recorder header and footer regions are decoded without being
// executed. It can be called again to go on from where it stopped.
// The error is from reading st, or a resize the model refuses.
func PlayScreen(m *screen.Model, st *Stream, end int64) error {
	end = min(end, st.Len)
	buf := make([]byte, 64<<10)
	evs := st.Events
	for off := m.Offset(); off < end; {
		for len(evs) > 0 && evs[0].Off < off {
			evs = evs[1:]
		}
		skip := false
		next := end
		for len(evs) > 0 && evs[0].Off == off {
			e := evs[0]
			switch e.Kind {
			case EventFrame:
				m.Frame(e.Time)
			case EventResize:
				// A zero dimension states no size (a loader clamps a
				// negative one to 0; XTWINOPS 0 means "unchanged"):
				// it keeps the one in effect.
				cols, rows := m.Size()
				if e.Cols > 0 {
					cols = e.Cols
				}
				if e.Rows > 0 {
					rows = e.Rows
				}
				if err := m.Resize(cols, rows); err != nil {
					return err
				}
			case EventHeader, EventFooter:
				if e.Len > 0 {
					skip, next = true, min(end, off+e.Len)
				}
			}
			evs = evs[1:]
		}
		if !skip && len(evs) > 0 {
			next = min(next, evs[0].Off)
		}
		for off < next {
			n, err := st.Data.ReadAt(buf[:min(int64(len(buf)), next-off)], off)
			if skip {
				m.Skip(buf[:n])
			} else {
				m.Feed(buf[:n])
			}
			off += int64(n)
			if err != nil && (err != io.EOF || off < next) {
				return fmt.Errorf("reading stream %s at offset %d: %w", st.Name, off, err)
			}
		}
	}
	return nil
}

// FrameEnd returns the offset just past the n-th frame (1-based) of st, and
// false when st has fewer frames.
func FrameEnd(st *Stream, n int) (int64, bool) {
	e := frameEvent(st, n)
	if e == nil {
		return 0, false
	}
	return e.Off + e.Len, true
}

// FrameTime returns the time of the n-th frame (1-based) of st since the
// start of the recording; 0 when st has fewer frames.
func FrameTime(st *Stream, n int) time.Duration {
	if e := frameEvent(st, n); e != nil {
		return e.Time
	}
	return 0
}

// frameEvent returns the n-th frame event (1-based) of st, or nil.
func frameEvent(st *Stream, n int) *Event {
	for i := range st.Events {
		if e := &st.Events[i]; e.Kind == EventFrame {
			if n--; n == 0 {
				return e
			}
		}
	}
	return nil
}
