package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func init() { subcommands = append(subcommands, newScreenCmd) }

// screenFlags are the flags of the screen model shared by screen and
// report --screen.
type screenFlags struct {
	on         bool // report --screen
	size       string
	hiddenText string
	c1         string
	apcBEL     bool
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

// previewRunes is how much hidden text a preview shows: enough to
// recognise it, too little to hand anyone a whole injected instruction.
const previewRunes = 24

// options returns the model options for stream st of capture c.
func (sf *screenFlags) options(c *capture.Capture, st *capture.Stream, findings bool) (screen.Options, capture.ScreenSetup, error) {
	cols, rows := 0, 0
	if sf.size != "" {
		var err error
		if cols, rows, err = screen.ParseSize(sf.size); err != nil {
			return screen.Options{}, capture.ScreenSetup{}, usagef("--size: %v", err)
		}
	}
	set := capture.SetupScreen(c, st, cols, rows)
	o := screen.Options{Cols: set.Cols, Rows: set.Rows, NewlineCRLF: set.NewlineCRLF, Findings: findings,
		Timed: c != nil && c.Timed, LoneC1: sf.c1 == "lone", APCBEL: sf.apcBEL}
	return o, set, nil
}

// play models stream st of c up to end.
func (sf *screenFlags) play(c *capture.Capture, st *capture.Stream, end int64, findings bool) (*screen.Model, capture.ScreenSetup, error) {
	o, set, err := sf.options(c, st, findings)
	if err != nil {
		return nil, set, err
	}
	m, err := screen.New(o)
	if err != nil {
		return nil, set, err
	}
	if err := capture.PlayScreen(m, st, end); err != nil {
		return nil, set, err
	}
	if end >= st.Len {
		m.End()
	}
	return m, set, nil
}

// loadInput opens the FILE argument as a capture; raw stdin is read (up to
// maxStdinCapture bytes) and loaded as a raw capture, since the model
// needs the bytes again for the hidden text.
func loadInput(s *streams, args []string, cf *captureFlags) (*capture.Capture, error) {
	c, raw, _, err := openCapture(s, args, cf)
	if err != nil || c != nil {
		return c, err
	}
	b, err := io.ReadAll(io.LimitReader(raw, maxStdinCapture+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(b) > maxStdinCapture {
		return nil, hintError{fmt.Errorf("stdin holds more than %d bytes", maxStdinCapture), "save it to a file and pass the file"}
	}
	return capture.Load(bytes.NewReader(b), int64(len(b)), capture.OpenOptions{Format: "raw"})
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
	cmd.Flags().StringVar(&sf.c1, "c1", "introducers", "raw 8-bit C1 bytes: introducers or lone")
	cmd.Flags().BoolVar(&sf.apcBEL, "apc-bel", false, "BEL ends APC strings")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		var atOff int64 = -1
		if at != "" {
			v, err := strconv.ParseInt(at, 0, 64)
			if err != nil || v < 0 {
				return usagef("--at wants a byte offset, such as 4096 or 0x1000, not %q", at)
			}
			atOff = v
		}
		if at != "" && frame != 0 {
			return usagef("--at and --frame are two ways to say where: give one")
		}
		if frame < 0 {
			return usagef("--frame wants a frame number from 1, not %d", frame)
		}
		c, err := loadInput(s, args, cf)
		if err != nil {
			return err
		}
		defer c.Close()
		warnCapture(s.stderr, c)
		sts, err := pickStreams(c, cf.stream)
		if err != nil {
			return err
		}
		for i, st := range sts {
			if !isScreenStream(st) {
				continue
			}
			end := st.Len
			switch {
			case atOff > st.Len:
				return usagef("--at %d is past the end of stream %s (%d bytes)", atOff, st.Name, st.Len)
			case atOff >= 0:
				end = atOff
			case frame > 0:
				var ok bool
				if end, ok = capture.FrameEnd(st, frame); !ok {
					return usagef("stream %s has fewer than %d frames", st.Name, frame)
				}
			}
			m, set, err := sf.play(c, st, end, false)
			if err != nil {
				return err
			}
			if i > 0 {
				s.out.Println()
			}
			writeScreen(s.out, m, set, st, end, c.Timed)
		}
		return s.out.Err()
	}
	return cmd
}

// writeScreen prints the header line and the rows of m.
func writeScreen(w *render.Writer, m *screen.Model, set capture.ScreenSetup, st *capture.Stream, end int64, timed bool) {
	which := "main screen"
	if m.Alternate() {
		which = "alternate screen"
	}
	x, y := m.Cursor()
	cols, rows := m.Size()
	w.Printf("screen %dx%d (%s), %s, stream %s after %d of %d bytes, %s, cursor at column %d row %d",
		cols, rows, set.SizeSource, newlineMode(set), st.Name, end, st.Len, which, x+1, y+1)
	if n := m.Stats().Frames; n > 0 {
		w.Printf(", frame %d", n)
		if timed {
			w.Printf(" at %s", frameTime(st, n))
		}
	}
	if u := m.Stats().Unknown; u > 0 {
		w.Printf(", %d unknown sequences ignored", u)
	}
	w.Println()
	var line []byte
	for r := range rows {
		line = m.AppendSeen(line[:0], r)
		w.Println(render.Line(line))
	}
}

// newlineMode states how LF was taken.
func newlineMode(set capture.ScreenSetup) string {
	if set.NewlineCRLF {
		return "LF as CR LF (pipe or file capture)"
	}
	return "LF as LF (pseudo-terminal recording)"
}

// frameTime returns the time of the n-th frame of st.
func frameTime(st *capture.Stream, n int) time.Duration {
	for _, e := range st.Events {
		if e.Kind == capture.EventFrame {
			if n--; n == 0 {
				return e.Time
			}
		}
	}
	return 0
}

// screenDisplay is the "display" object report --screen adds: the model,
// its setup, counts per cause and the findings, highest rank first.
// Every string from the capture in it is escaped by render.
type screenDisplay struct {
	Model          string         `json:"model"`
	Cols           int            `json:"cols"`
	Rows           int            `json:"rows"`
	SizeSource     string         `json:"size_source"`
	Newline        string         `json:"newline"`
	Timing         string         `json:"timing"`
	Unknown        int64          `json:"unknown_sequences"`
	HiddenText     string         `json:"hidden_text"`
	Threshold      int            `json:"deception_rank"`
	AboveThreshold int            `json:"findings_at_deception_rank"`
	Counts         map[string]int `json:"counts"`
	Findings       []displayFind  `json:"findings"`
}

// displayFind is one finding as report --screen gives it.
type displayFind struct {
	screen.Finding
	Cause      string `json:"cause"`
	Text       string `json:"text,omitempty"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	text, repl render.Safe
}

// reportInput is cleanInput for report, with the screen model's display
// of each output stream when --screen is set (nil entries otherwise).
func reportInput(s *streams, args []string, cf *captureFlags, opts sanitize.Options, sf *screenFlags) ([]streamReport, []*screenDisplay, error) {
	switch sf.hiddenText {
	case "none", "preview", "full":
	default:
		return nil, nil, usagef("--hidden-text must be none, preview or full, not %q", sf.hiddenText)
	}
	var stdin []byte
	if sf.on && (len(args) == 0 || args[0] == "-") {
		// The model reads the bytes again: keep stdin.
		b, err := io.ReadAll(io.LimitReader(s.stdin, maxStdinCapture+1))
		if err != nil {
			return nil, nil, fmt.Errorf("reading stdin: %w", err)
		}
		if len(b) > maxStdinCapture {
			return nil, nil, hintError{fmt.Errorf("stdin holds more than %d bytes", maxStdinCapture), "save it to a file and pass the file"}
		}
		stdin = b
		s = &streams{stdin: bytes.NewReader(b), stdout: s.stdout, stderr: s.stderr}
	}
	reps, err := cleanInput(s, args, cf, io.Discard, opts)
	if err != nil || !sf.on {
		return reps, make([]*screenDisplay, len(reps)), err
	}
	if stdin != nil {
		s.stdin = bytes.NewReader(stdin)
	}
	if opts.C1 == sanitize.C1Lone {
		sf.c1 = "lone"
	}
	sf.apcBEL = opts.APCBEL
	c, err := loadInput(s, args, cf)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	sts, err := pickStreams(c, cf.stream)
	if err != nil {
		return nil, nil, err
	}
	disp := make([]*screenDisplay, len(reps))
	for i, st := range sts {
		if i >= len(reps) || !isScreenStream(st) {
			continue
		}
		m, set, err := sf.play(c, st, st.Len, true)
		if err != nil {
			return nil, nil, err
		}
		if disp[i], err = sf.display(m, set, st, c.Timed); err != nil {
			return nil, nil, err
		}
	}
	return reps, disp, nil
}

// display builds the display object of a model fed a whole stream.
func (sf *screenFlags) display(m *screen.Model, set capture.ScreenSetup, st *capture.Stream, timed bool) (*screenDisplay, error) {
	cols, rows := m.Size()
	d := &screenDisplay{
		Model: "bytelens screen model (xterm semantics)", Cols: cols, Rows: rows, SizeSource: set.SizeSource,
		Newline: newlineMode(set), Timing: "none: visible for is in bytes", Unknown: m.Stats().Unknown,
		HiddenText: sf.hiddenText, Threshold: screen.Deception, Counts: map[string]int{}, Findings: []displayFind{},
	}
	if timed {
		d.Timing = "frame times: visible for is in milliseconds"
	}
	counts := m.Counts()
	for _, c := range screen.Causes() {
		d.Counts[c.String()] = counts[c]
	}
	for _, f := range m.Findings() {
		if f.Rank >= screen.Deception {
			d.AboveThreshold++
		}
		df := displayFind{Finding: f, Cause: f.Cause.String()}
		switch sf.hiddenText {
		case "preview":
			df.text, df.repl = preview(f.Text, f.TextCut), preview(f.ReplacedBy, false)
		case "full":
			b := make([]byte, f.Len)
			if _, err := st.Data.ReadAt(b, f.Off); err != nil && err != io.EOF {
				return nil, fmt.Errorf("reading stream %s at offset %d: %w", st.Name, f.Off, err)
			}
			df.text, df.repl = render.Line(b), render.Line([]byte(f.ReplacedBy))
		}
		df.Text, df.ReplacedBy = df.text.String(), df.repl.String()
		d.Findings = append(d.Findings, df)
	}
	return d, nil
}

// preview returns text escaped and cut to previewRunes runes, ending in
// "…" when cut.
func preview(text string, cut bool) render.Safe {
	r := []rune(text)
	if len(r) > previewRunes {
		r, cut = r[:previewRunes], true
	}
	s := render.Line([]byte(string(r)))
	if cut {
		s = render.Sprintf("%s…", s)
	}
	return s
}

// reportJSON is the JSON value of report: the report itself, with its
// display when --screen made one.
func reportJSON(reps []streamReport, disp []*screenDisplay) any {
	type withDisplay struct {
		sanitize.Report
		Display *screenDisplay `json:"display,omitempty"`
	}
	type streamWithDisplay struct {
		streamReport
		Display *screenDisplay `json:"display,omitempty"`
	}
	if len(reps) == 1 {
		if disp[0] == nil {
			return reps[0].Report
		}
		return withDisplay{reps[0].Report, disp[0]}
	}
	out := make([]streamWithDisplay, len(reps))
	for i := range reps {
		out[i] = streamWithDisplay{reps[i], disp[i]}
	}
	return out
}

// writeDisplay prints a display for a person after the removal report.
func writeDisplay(w *render.Writer, d *screenDisplay) {
	if d == nil {
		return
	}
	w.Printf("screen: %dx%d (%s), %s, timing %s", d.Cols, d.Rows, d.SizeSource, d.Newline, d.Timing)
	if d.Unknown > 0 {
		w.Printf(", %d unknown sequences ignored", d.Unknown)
	}
	w.Printf("\nhidden text: %d findings, %d at or above the deception rank %d\n", len(d.Findings), d.AboveThreshold, d.Threshold)
	var counts []string
	for _, c := range screen.Causes() {
		if n := d.Counts[c.String()]; n > 0 {
			counts = append(counts, c.String()+" "+strconv.Itoa(n))
		}
	}
	if len(counts) > 0 {
		w.Printf("  %s\n", strings.Join(counts, ", "))
	}
	for _, f := range d.Findings {
		w.Printf("  rank %3d  0x%08x  %d bytes  %s by %s", f.Rank, f.Off, f.Len, f.Cause, f.By.Name)
		if f.Via != "" {
			w.Printf(" via %s", f.Via)
		}
		if f.Finding.Cause < screen.CauseConcealed {
			w.Printf(", visible %s", f.VisibleFor())
		}
		if d.HiddenText != "none" {
			w.Printf(": \"%s\"", f.text)
			if !f.repl.IsZero() {
				w.Printf(" replaced by \"%s\"", f.repl)
			}
		}
		w.Printf(" (%s)\n", strings.Join(f.Reasons, ", "))
	}
}
