package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/bytelens/bytelens/screen"
)

// ScreenInfo says how a screen model was set up and what it was fed, for
// WriteScreen and NewScreenDisplay.
type ScreenInfo struct {
	// SizeSource says where the size came from ("capture header",
	// "--size", "default").
	SizeSource string
	// NewlineCRLF is true when LF was taken as CR LF (captures of pipes
	// and files).
	NewlineCRLF bool
	// Stream names the stream; End is the number of bytes of it fed to
	// the model, Len its length in bytes.
	Stream   string
	End, Len int64
	// Timed is true for a recording with frame times; FrameTime is then
	// the time of the last frame fed (WriteScreen).
	Timed     bool
	FrameTime time.Duration
}

// newline states how LF was taken.
func (in *ScreenInfo) newline() string {
	if in.NewlineCRLF {
		return "LF as CR LF (pipe or file capture)"
	}
	return "LF as LF (pseudo-terminal recording)"
}

// WriteScreen writes a header line stating the model's size and its
// source, the newline mode, the stream and how much of it was fed, the
// screen shown (main or alternate), the cursor (1-based), the frame and
// the unknown sequences ignored; then each row of the screen shown,
// escaped (render.Line). It returns the first error from w.
func WriteScreen(w *Writer, m *screen.Model, in ScreenInfo) error {
	which := "main screen"
	if m.Alternate() {
		which = "alternate screen"
	}
	x, y := m.Cursor()
	cols, rows := m.Size()
	w.Printf("screen %dx%d (%s), %s, stream %s after %d of %d bytes, %s, cursor at column %d row %d",
		cols, rows, in.SizeSource, in.newline(), in.Stream, in.End, in.Len, which, x+1, y+1)
	if n := m.Stats().Frames; n > 0 {
		w.Printf(", frame %d", n)
		if in.Timed {
			w.Printf(" at %s", in.FrameTime)
		}
	}
	if u := m.Stats().Unknown; u > 0 {
		w.Printf(", %d unknown sequences ignored", u)
	}
	w.Println()
	var line []byte
	for r := range rows {
		line = m.AppendSeen(line[:0], r)
		w.Println(Line(line))
	}
	return w.Err()
}

// Hidden-text modes of NewScreenDisplay: how findings show hidden text.
const (
	HiddenNone    = "none"    // not at all
	HiddenPreview = "preview" // escaped and cut to PreviewRunes runes
	HiddenFull    = "full"    // escaped, whole, read again from the stream
)

// PreviewRunes is how much hidden text a preview shows: enough to
// recognise it, too little to hand anyone a whole injected instruction.
const PreviewRunes = 24

// ScreenDisplay is the "display" object of report --screen: the model,
// its setup, counts per cause and the findings, highest rank first. Every
// string from the capture in it is escaped.
type ScreenDisplay struct {
	Model          string           `json:"model"`
	Cols           int              `json:"cols"`
	Rows           int              `json:"rows"`
	SizeSource     string           `json:"size_source"`
	Newline        string           `json:"newline"`
	Timing         string           `json:"timing"`
	Unknown        int64            `json:"unknown_sequences"`
	HiddenText     string           `json:"hidden_text"`
	Threshold      int              `json:"deception_rank"`
	AboveThreshold int              `json:"findings_at_deception_rank"`
	Counts         map[string]int   `json:"counts"`
	Findings       []DisplayFinding `json:"findings"`
	// Omitted counts the findings of lowest rank left out past
	// screen.MaxFindings; Counts includes them.
	Omitted int `json:"findings_omitted"`
}

// DisplayFinding is one finding of a ScreenDisplay, its hidden text and
// replacement escaped.
type DisplayFinding struct {
	screen.Finding
	Cause      string `json:"cause"`
	Text       string `json:"text,omitempty"`
	ReplacedBy string `json:"replaced_by,omitempty"`
	text, repl Safe
}

// NewScreenDisplay builds the display of a model fed a whole stream, whose
// bytes data holds (read again for hidden text HiddenFull). hidden is one
// of HiddenNone, HiddenPreview and HiddenFull. The error is from reading
// data.
func NewScreenDisplay(m *screen.Model, in ScreenInfo, hidden string, data io.ReaderAt) (*ScreenDisplay, error) {
	cols, rows := m.Size()
	d := &ScreenDisplay{
		Model: "bytelens screen model (xterm semantics)", Cols: cols, Rows: rows, SizeSource: in.SizeSource,
		Newline: in.newline(), Timing: "none: time visible is counted in bytes", Unknown: m.Stats().Unknown,
		HiddenText: hidden, Threshold: screen.Deception, Counts: map[string]int{}, Findings: []DisplayFinding{},
		Omitted: m.Omitted(),
	}
	if in.Timed {
		d.Timing = "frame times: time visible is counted in milliseconds"
	}
	counts := m.Counts()
	for _, c := range screen.Causes() {
		d.Counts[c.String()] = counts[c]
	}
	for _, f := range m.Findings() {
		if f.Rank >= screen.Deception {
			d.AboveThreshold++
		}
		df := DisplayFinding{Finding: f, Cause: f.Cause.String()}
		switch hidden {
		case HiddenPreview:
			from := screen.Differs(f.Text, f.ReplacedBy)
			if from == len(f.Text) {
				from = 0 // nothing differs: the text from its start
			}
			df.text, df.repl = preview(f.Text, from, f.TextCut), preview(f.ReplacedBy, from, false)
		case HiddenFull:
			b := make([]byte, f.Len)
			if _, err := data.ReadAt(b, f.Off); err != nil && err != io.EOF {
				return nil, fmt.Errorf("reading stream %s at offset %d: %w", in.Stream, f.Off, err)
			}
			df.text, df.repl = Line(b), Line([]byte(f.ReplacedBy))
		}
		df.Text, df.ReplacedBy = df.text.String(), df.repl.String()
		d.Findings = append(d.Findings, df)
	}
	return d, nil
}

// preview returns text from byte from on, escaped and cut to
// PreviewRunes runes, starting with "…" when from is past the start and
// ending in "…" when cut. From is where the hidden text starts to differ
// from its replacement (screen.Differs), so that a row redrawn with the same start shows
// what was hidden rather than what stayed on screen.
func preview(text string, from int, cut bool) Safe {
	r := []rune(text[from:])
	if len(r) > PreviewRunes {
		r, cut = r[:PreviewRunes], true
	}
	s := Line([]byte(string(r)))
	if from > 0 {
		s = Sprintf("…%s", s)
	}
	if cut {
		s = Sprintf("%s…", s)
	}
	return s
}

// WriteScreenDisplay writes a display for a person: the setup, the count
// of findings, the counts per cause and one line per finding. A nil d
// writes nothing. It returns the first error from w.
func WriteScreenDisplay(w *Writer, d *ScreenDisplay) error {
	if d == nil {
		return nil
	}
	w.Printf("screen: %dx%d (%s), %s, timing %s", d.Cols, d.Rows, d.SizeSource, d.Newline, d.Timing)
	if d.Unknown > 0 {
		w.Printf(", %d unknown sequences ignored", d.Unknown)
	}
	w.Printf("\nhidden text: %d findings, %d at or above the deception rank %d", len(d.Findings)+d.Omitted, d.AboveThreshold, d.Threshold)
	if d.Omitted > 0 {
		w.Printf(", %d of lowest rank not listed", d.Omitted)
	}
	w.Printf("\n")
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
		if d.HiddenText != HiddenNone {
			w.Printf(": \"%s\"", f.text)
			if !f.repl.IsZero() {
				w.Printf(" replaced by \"%s\"", f.repl)
			}
		}
		w.Printf(" (%s)\n", strings.Join(f.Reasons, ", "))
	}
	return w.Err()
}
