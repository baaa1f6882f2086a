package main

import (
	"io"
	"strconv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// screenFlags are the flags of the screen model shared by screen and
// report --screen.
type screenFlags struct {
	on         bool // report --screen
	size       string
	hiddenText string
	policy     *sanitize.Options // screen's --c1 and --apc-bel; report's policy flags
}

func addScreenSizeFlag(fs *pflag.FlagSet, sf *screenFlags) {
	fs.StringVar(&sf.size, "size", "", "screen size COLSxROWS when the capture states none (default 80x24; at most 1000x1000)")
}

// addScreenFlags registers report's --screen, --hidden-text and --size.
func addScreenFlags(fs *pflag.FlagSet) *screenFlags {
	sf := &screenFlags{}
	fs.BoolVar(&sf.on, "screen", false, "model the terminal screen and add the hidden-text findings (JSON: display)")
	fs.StringVar(&sf.hiddenText, "hidden-text", "preview", "how findings show hidden text: none, preview (escaped, cut short) or full (escaped)")
	addScreenSizeFlag(fs, sf)
	return sf
}

// play models stream st of c up to end (capture.ModelScreen) and states
// how.
func (sf *screenFlags) play(c *capture.Capture, st *capture.Stream, end int64, findings bool) (*screen.Model, render.ScreenInfo, error) {
	o := capture.ScreenOptions{Findings: findings, Policy: *sf.policy}
	if sf.size != "" {
		var err error
		if o.Cols, o.Rows, err = screen.ParseSize(sf.size); err != nil {
			return nil, render.ScreenInfo{}, usagef("--size: %v", err)
		}
	}
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

func newScreenCmd(s *streams) *cobra.Command {
	sf := &screenFlags{}
	var at string
	var frame int
	cmd := &cobra.Command{
		Use:   "screen [FILE|-]",
		Short: "Print the terminal screen as a person saw it, as safe text",
		Long: `screen plays a capture through bytelens' terminal screen model (xterm
semantics: main and alternate screens, scroll regions, erase, insert and
delete, DEC special graphics) and prints the screen shown, row by row,
escaped: text drawn concealed (SGR 8) or in invisible colours shows blank.
By default it is the screen at the end; --at OFFSET shows it after the
first OFFSET bytes of the stream (decimal or 0x hex), --frame N after the
N-th frame of a timed recording.

The first line states the model's size and where it came from (the
capture's header, else --size, else 80x24), whether LF was taken as CR LF
(captures of pipes and files, where the tty's ONLCR never ran) or as LF
(pseudo-terminal recordings), the screen shown and the cursor.`,
		Args: cobra.MaximumNArgs(1),
	}
	cf := addCaptureFlags(cmd.Flags())
	addScreenSizeFlag(cmd.Flags(), sf)
	cmd.Flags().StringVar(&at, "at", "", "show the screen after this many bytes of the stream (decimal or 0x hex)")
	cmd.Flags().IntVar(&frame, "frame", 0, "show the screen after this frame (1-based) of a recording")
	sf.policy = addPolicyFlags(cmd.Flags(), "c1", "apc-bel")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		atOff, err := int64(-1), error(nil)
		switch {
		case at != "" && frame != 0:
			return usagef("--at and --frame are two ways to say where: give one")
		case frame < 0:
			return usagef("--frame wants a frame number from 1, not %d", frame)
		case at != "":
			if atOff, err = strconv.ParseInt(at, 0, 64); err != nil || atOff < 0 {
				return usagef("--at wants a byte offset, such as 4096 or 0x1000, not %q", at)
			}
		}
		in, err := loadInput(s, args, cf)
		if err != nil {
			return err
		}
		defer in.Close()
		c := in.Capture
		warnCapture(s.stderr, c)
		sts, err := pickStreams(c, cf.stream)
		if err != nil {
			return err
		}
		for i, st := range sts {
			if !isScreenStream(st) {
				continue
			}
			end, err := capture.ScreenEnd(st, atOff, frame)
			switch {
			case err != nil && atOff >= 0:
				return usagef("--at %v", err)
			case err != nil:
				return usageError{err}
			}
			m, info, err := sf.play(c, st, end, false)
			if err != nil {
				return err
			}
			if i > 0 {
				s.out.Println()
			}
			render.WriteScreen(s.out, m, info)
		}
		return s.out.Err()
	}
	return cmd
}

// reportInput is cleanInput for report, with the screen model's display
// of each output stream when --screen is set (nil entries otherwise):
// the input is loaded once, raw stdin included, for the cleaner and the
// model.
func reportInput(s *streams, args []string, cf *captureFlags, opts sanitize.Options, sf *screenFlags) ([]capture.StreamReport, []*render.ScreenDisplay, error) {
	switch sf.hiddenText {
	case render.HiddenNone, render.HiddenPreview, render.HiddenFull:
	default:
		return nil, nil, usagef("--hidden-text must be none, preview or full, not %q", sf.hiddenText)
	}
	if !sf.on && (sf.size != "" || sf.hiddenText != "preview") {
		return nil, nil, usagef("--size and --hidden-text go with --screen")
	}
	if !sf.on {
		reps, err := cleanInput(s, args, cf, io.Discard, opts)
		return reps, make([]*render.ScreenDisplay, len(reps)), err
	}
	in, err := loadInput(s, args, cf)
	if err != nil {
		return nil, nil, err
	}
	defer in.Close()
	c := in.Capture
	sts, reps, err := cleanCapture(s, in, cf, io.Discard, opts)
	if err != nil {
		return nil, nil, err
	}
	sf.policy = &opts
	disp := make([]*render.ScreenDisplay, len(reps))
	for i, st := range sts {
		if !isScreenStream(st) {
			continue
		}
		m, info, err := sf.play(c, st, st.Len, true)
		if err != nil {
			return nil, nil, err
		}
		if disp[i], err = render.NewScreenDisplay(m, info, sf.hiddenText, st.Data); err != nil {
			return nil, nil, err
		}
	}
	return reps, disp, nil
}

// reportJSON is the JSON value of report: the report itself, with its
// display when --screen made one.
func reportJSON(reps []capture.StreamReport, disp []*render.ScreenDisplay) any {
	type withDisplay struct {
		capture.SoloReport
		Display *render.ScreenDisplay `json:"display,omitempty"`
	}
	type streamWithDisplay struct {
		capture.StreamReport
		Display *render.ScreenDisplay `json:"display,omitempty"`
	}
	if len(reps) == 1 {
		if disp[0] == nil {
			return reps[0].Solo()
		}
		return withDisplay{reps[0].Solo(), disp[0]}
	}
	out := make([]streamWithDisplay, len(reps))
	for i := range reps {
		out[i] = streamWithDisplay{reps[i], disp[i]}
	}
	return out
}
