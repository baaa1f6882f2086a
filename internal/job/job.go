// Package job does the work of bytelens's input commands on an input
// opened with capture.OpenArg: cleaning it stream by stream, reporting on
// it, and modelling the screens it draws, with a progress bar on a
// terminal and notes for people. The commands parse flags, call one of
// these and turn the error into an exit code (package command).
package job

import (
	"fmt"
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// Env is where a job's messages go.
type Env struct {
	// Notes takes notes and warnings for people (stderr).
	Notes *render.Writer
	// TTY is stderr when it is a terminal (iostreams.Terminal), for
	// progress bars; nil draws none.
	TTY io.Writer
}

// WriteNotes prints a capture's provenance notes and loader warnings on
// w. Warning texts are the loader's words, but they may quote a stream
// name or other field of the capture: they are escaped.
func WriteNotes(w *render.Writer, c *capture.Capture) {
	writeNotes(w, c, c.Warnings)
}

// writeNotes is WriteNotes with the loader warnings to print.
func writeNotes(w *render.Writer, c *capture.Capture, warnings []capture.Warning) {
	if c.Lossy {
		w.Printf("bytelens: note: %s capture is lossy: %s\n", c.Format, c.LossyReason)
	}
	for _, wa := range warnings {
		w.Printf("bytelens: warning: %s\n", wa)
	}
}

// Clean writes the cleaned text of in to w under opts and returns one
// report per stream cleaned, with the streams of a capture (nil for raw
// stdin). Raw stdin (in.Raw) is one stream, capture.StreamOutput, cleaned
// in constant memory and flushed as iostreams.CopyChunks says. A capture
// is cleaned stream by stream, those that stream picks (all for ""),
// after its notes (WriteNotes) and its sniff check (a *capture.SniffError
// refuses it, and names the first warning, which the notes then leave
// out); when there are several and w is not io.Discard, a note
// names each before its text. A stream name that the capture lacks is
// capture.Select's error. Work of more than iostreams.ProgressDelay shows a progress
// bar on e.TTY.
func (e Env) Clean(in *capture.Input, stream string, w io.Writer, opts sanitize.Options) ([]*capture.Stream, []capture.StreamReport, error) {
	c := in.Capture
	if c == nil {
		sw := sanitize.NewWriter(w, opts)
		p := iostreams.NewProgress(e.TTY, render.Sprintf("cleaning %s", in.Name), max(iostreams.RegularSize(in.Raw), 0))
		defer p.Finish()
		if err := iostreams.CopyChunks(sw, p.Reader(in.Raw), w); err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", in.Name, err)
		}
		if err := sw.Close(); err != nil {
			return nil, nil, fmt.Errorf("writing cleaned text: %w", err)
		}
		return nil, []capture.StreamReport{{Stream: render.LineString(capture.StreamOutput), Report: sw.Report()}}, nil
	}
	if err := in.CheckSniff(); err != nil {
		// The refusal names the first warning; it is not printed twice.
		writeNotes(e.Notes, c, c.Warnings[1:])
		return nil, nil, err
	}
	WriteNotes(e.Notes, c)
	sts, err := c.Select(stream)
	if err != nil {
		return nil, nil, err
	}
	reps := make([]capture.StreamReport, 0, len(sts))
	for _, st := range sts {
		if len(sts) > 1 && w != io.Discard {
			e.Notes.Printf("bytelens: cleaning stream %s (%d bytes)\n", st.Name, st.Len)
		}
		p := iostreams.NewProgress(e.TTY, render.Sprintf("cleaning %s", st.Name), st.Len)
		rep, err := capture.Clean(w, st.Through(p.ReaderAt), opts)
		p.Finish()
		if err != nil {
			return nil, nil, err
		}
		reps = append(reps, capture.StreamReport{Stream: render.LineString(st.Name), Report: rep, LoaderRemoved: st.Removed, LoaderAnomalies: st.Anomalies, Format: c.Format})
	}
	return sts, reps, nil
}

// CleanText writes the cleaned text of in to stdout (Clean) as data: on
// a pipe or terminal each line as it is cleaned, into a regular file in
// blocks (iostreams.DataWriter). Then it warns on e.Notes of the bytes
// each stream's open control string swallowed at its end
// (render.WriteSwallowed), and returns the reports.
func (e Env) CleanText(stdout io.Writer, in *capture.Input, stream string, opts sanitize.Options) ([]capture.StreamReport, error) {
	out := iostreams.NewDataWriter(stdout)
	_, reps, err := e.Clean(in, stream, out, opts)
	if err != nil {
		return nil, err
	}
	if err := out.Flush(); err != nil {
		return nil, fmt.Errorf("writing cleaned text: %w", err)
	}
	for _, r := range reps {
		render.WriteSwallowed(e.Notes, r.Stream, &r.Report)
	}
	return reps, nil
}

// WriteReports prints reps, the reports of the input called name, for
// people (render.WriteSummary, then the display of report --screen),
// a blank line between streams. Each is labelled with the name, the
// format when it is not raw, and the stream when there are several. It
// returns w.Err().
func WriteReports(w *render.Writer, name string, reps []capture.StreamReport) error {
	for i, r := range reps {
		if i > 0 {
			w.Println()
		}
		label := render.Sprintf("%s", name)
		if r.Format != capture.FormatRaw {
			label = render.Sprintf("%s (%s)", label, r.Format)
		}
		if len(reps) > 1 {
			label = render.Sprintf("%s [%s]", label, r.Stream)
		}
		render.WriteSummary(w, label, &r.Report, r.LoaderRemoved, r.LoaderAnomalies)
		d, _ := r.Display.(*render.ScreenDisplay)
		render.WriteScreenDisplay(w, d)
	}
	return w.Err()
}
