package capture

import (
	"fmt"
	"io"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// Clean writes the cleaned text of st to w under opts and returns the
// removal report. It reads the stream in pieces of at most 64 KiB and
// marks each frame boundary (EventFrame) with sanitize.Writer.Frame, so
// the report counts sequences that a recorder split across frames.
// Memory stays constant whatever the stream's length. The error is from
// reading st or writing w.
func Clean(w io.Writer, st *Stream, opts sanitize.Options) (sanitize.Report, error) {
	sw := sanitize.NewWriter(w, opts)
	buf := make([]byte, 64<<10)
	frames := st.Events
	var off int64
	for off < st.Len {
		for len(frames) > 0 && (frames[0].Kind != EventFrame || frames[0].Off < off) {
			frames = frames[1:]
		}
		if len(frames) > 0 && frames[0].Off == off {
			if off > 0 {
				sw.Frame()
			}
			frames = frames[1:]
		}
		n := min(int64(len(buf)), st.Len-off)
		for _, e := range frames {
			if e.Kind == EventFrame && e.Off > off {
				n = min(n, e.Off-off)
				break
			}
		}
		got, err := st.Data.ReadAt(buf[:n], off)
		if got > 0 {
			if _, werr := sw.Write(buf[:got]); werr != nil {
				return sanitize.Report{}, werr
			}
			off += int64(got)
		}
		if err != nil && (err != io.EOF || off < st.Len) {
			return sanitize.Report{}, fmt.Errorf("reading stream %s at offset %d: %w", st.Name, off, err)
		}
	}
	if err := sw.Close(); err != nil {
		return sanitize.Report{}, err
	}
	return sw.Report(), nil
}

// StreamReport is the removal report of one stream of a capture, as
// report --json and clean --report write it for a capture of several
// streams (an array of them): the stream's name, the sanitizer's report
// (schema sanitize.Schema), and what the loader took out of the file
// before cleaning (recorder annotations such as Jenkins ConsoleNotes and
// timestamp prefixes, which are not terminal output), and the "display"
// of report --screen when there is one. No field holds payload.
type StreamReport struct {
	// Stream is the stream's name, escaped (render.Line): a raw
	// artifact's manifest may name its streams anything, and jq -r or an
	// agent decodes the JSON string back.
	Stream render.Safe `json:"stream"`
	sanitize.Report
	LoaderRemoved []Removal `json:"loader_removed,omitempty"`
	// LoaderAnomalies counts the malformed annotations the loader kept as
	// text (Stream.Anomalies).
	LoaderAnomalies []Anomaly `json:"loader_anomalies,omitempty"`
	// Display is the screen model's display of the stream (a
	// *render.ScreenDisplay, whose strings are escaped), or nil.
	Display any `json:"display,omitempty"`
	// Format is the capture's format, for summaries; not in the JSON form.
	Format Format `json:"-"`
}

// SoloReport is the JSON form of the report of a capture of one stream:
// the sanitize.Schema object, with loader_removed and display when there
// are any.
type SoloReport struct {
	sanitize.Report
	LoaderRemoved   []Removal `json:"loader_removed,omitempty"`
	LoaderAnomalies []Anomaly `json:"loader_anomalies,omitempty"`
	Display         any       `json:"display,omitempty"`
}

// Solo returns r without its stream name.
func (r StreamReport) Solo() SoloReport {
	return SoloReport{r.Report, r.LoaderRemoved, r.LoaderAnomalies, r.Display}
}

// ReportJSON returns the JSON value of the reports of a capture's streams,
// as report --json and clean --report write it: the SoloReport of a
// capture of one stream, else the array of reps.
func ReportJSON(reps []StreamReport) any {
	if len(reps) == 1 {
		return reps[0].Solo()
	}
	return reps
}
