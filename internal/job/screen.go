package job

import (
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
)

// play models stream st of c up to end (capture.ModelScreen, with o) and
// states how, for render.WriteScreen and render.NewScreenDisplay.
func play(c *capture.Capture, st *capture.Stream, end int64, o capture.ScreenOptions) (*screen.Model, render.ScreenInfo, error) {
	m, set, err := capture.ModelScreen(c, st, end, o)
	if err != nil {
		return nil, render.ScreenInfo{}, err
	}
	return m, render.ScreenInfo{SizeSource: set.SizeSource, NewlineCRLF: set.NewlineCRLF, Stream: st.Name, End: end, Len: st.Len,
		Timed: c.Timed, FrameTime: capture.FrameTime(st, m.Stats().Frames)}, nil
}

// isScreenStream reports whether st is terminal output, which a screen
// shows (not typed input).
func isScreenStream(st *capture.Stream) bool { return st.Name != capture.StreamInput }

// Report returns the removal report of each stream of in that stream
// picks (Clean into io.Discard) and, when sf.On, the display of the
// screen model of each output stream in its Display, its findings under
// the report's own policy, hidden text as sf.HiddenText says. With sf.On,
// in must have been opened whole (capture.ArgOptions.Whole), as the model
// reads the stream again.
func (e Env) Report(in *capture.Input, stream string, opts sanitize.Options, sf *command.Screen) ([]capture.StreamReport, error) {
	sts, reps, err := e.Clean(in, stream, io.Discard, opts)
	if err != nil || !sf.On {
		return reps, err
	}
	for i, st := range sts {
		if !isScreenStream(st) {
			continue
		}
		o, err := sf.Options(opts, true)
		if err != nil {
			return nil, err
		}
		m, info, err := play(in.Capture, st, st.Len, o)
		if err != nil {
			return nil, err
		}
		if reps[i].Display, err = render.NewScreenDisplay(m, info, sf.HiddenText, st.Data); err != nil {
			return nil, err
		}
	}
	return reps, nil
}

// Screens writes to w the screen of each output stream of in's capture
// that stream picks (render.WriteScreen), a blank line between them:
// after the first at bytes of the stream when at is not negative (sf's
// Where), after frame sf.Frame when it is not 0, else at the end; the model under policy and
// sf's size. The capture's notes go first to e.Notes. A stream name the
// capture lacks is capture.Select's error; an offset or frame past the
// stream and a bad size are usage errors.
func (e Env) Screens(w *render.Writer, in *capture.Input, stream string, sf *command.Screen, policy sanitize.Options, at int64) error {
	c := in.Capture
	WriteNotes(e.Notes, c)
	sts, err := c.Select(stream)
	if err != nil {
		return err
	}
	for i, st := range sts {
		if !isScreenStream(st) {
			continue
		}
		end, err := capture.ScreenEnd(st, at, sf.Frame)
		switch {
		case err != nil && at >= 0:
			return command.Usagef("--at %s is %v", sf.AtText(at), err)
		case err != nil:
			return command.UsageError{Err: err}
		}
		o, err := sf.Options(policy, false)
		if err != nil {
			return err
		}
		m, info, err := play(c, st, end, o)
		if err != nil {
			return err
		}
		if i > 0 {
			w.Println()
		}
		render.WriteScreen(w, m, info)
	}
	return w.Err()
}
