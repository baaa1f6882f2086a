// Package viewer is bytelens view: a bubbletea program that shows a
// terminal capture byte by byte — hex, escaped glyphs and cleaned text side
// by side, one cursor that every pane follows, sequence boundaries marked
// in every pane, and the removal report — and never writes a byte of the
// capture to the terminal.
//
// Everything the viewer draws from the capture is a render.Safe; the
// viewer adds only its own chrome and lipgloss styling (SGR). It reads
// captures of any size by pages through io.ReaderAt: only the visible rows
// are decoded, resumed from the nearest decoder checkpoint, while a
// background pass takes checkpoints and builds the removal report.
package viewer

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	_ "github.com/bytelens/bytelens/viewer/internal/noquery" // no terminal query at start-up
)

// Options configure the viewer.
type Options struct {
	// Name names the capture in the title bar (a file name, "stdin"). It
	// is shown escaped.
	Name string
	// Stream is the name of the stream to show first; "" is the first.
	Stream string
	// Sanitize is the policy the cleaned text, the report and the
	// decisions in the status line follow.
	Sanitize sanitize.Options
	// HidePayloads draws the payload bytes of control strings as ░ in the
	// glyph pane instead of escaping them.
	HidePayloads bool
	// ASCII draws glyphs from ASCII only, for fonts without Control
	// Pictures.
	ASCII bool
	// NoColor draws with attributes only (reverse video, bold,
	// underline), as NO_COLOR asks.
	NoColor bool
	// Check, if not nil, is called as the background pass reads the
	// capture; an error (wrap ErrChanged when the file changed) ends the
	// viewer and is returned by Run.
	Check func() error
	// Compare, if not nil, opens the viewer in compare mode: the cleaned
	// texts and the reports of two sides, A (the capture under Sanitize)
	// and B, side by side.
	Compare *Compare
	// Input and Output replace the terminal, for tests; nil means the
	// process's standard input and output.
	Input  io.Reader
	Output io.Writer
}

// Compare says what compare mode compares the capture with: another
// capture under the same policy, or the same capture under another
// policy. Either way one cursor drives both sides. Two captures of at
// most 8 MiB each are aligned token by token, and B shows where A's byte
// is in B; longer ones, and one capture under two policies, show the same
// offset on both sides (clamped to B's length).
type Compare struct {
	// Capture is B; nil compares the capture with itself under Sanitize.
	// B shows the stream named by Options.Stream when it has one, else
	// its first.
	Capture *capture.Capture
	// Name names B in titles: a file name, or the policy settings.
	Name string
	// Sanitize is B's policy.
	Sanitize sanitize.Options
	// Check is Options.Check for B's file.
	Check func() error
}

// Run shows c until the user quits. It returns an error when the program
// could not run or the capture changed while it was shown; the terminal
// is restored in every case.
func Run(c *capture.Capture, o Options) error {
	out := o.Output
	if out == nil {
		out = os.Stdout
	}
	r := lipgloss.NewRenderer(out)
	color := !o.NoColor && r.ColorProfile() != termenv.Ascii
	if o.NoColor && r.ColorProfile() == termenv.Ascii {
		// NO_COLOR forbids colour, not attributes: reverse video and
		// underline still mark the cursor and the sequences.
		r.SetColorProfile(termenv.ANSI)
	}
	m := newModel(c, o, NewStyles(r, color))
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion()}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	final, err := tea.NewProgram(m, opts...).Run()
	if err != nil {
		return err
	}
	if fm, ok := final.(*model); ok {
		return fm.err
	}
	return nil
}

// promptKind says what the prompt line is asking for.
type promptKind int

const (
	promptNone promptKind = iota
	promptGoto
	promptText
	promptHex
	promptRaw // raw bytes searched as text
)

// model is the root model. It owns the one source of truth — the stream
// shown, its cursor (a byte offset) and top row — and the panes draw from
// the frame that refresh computes after every change.
type model struct {
	c    *capture.Capture
	o    Options
	st   Styles
	keys keyMap
	help help.Model

	svs []*streamView
	cur int // index in svs of the stream shown

	cmp *compare // compare mode, or nil

	w, h  int
	lay   layout
	focus paneID
	sel   int // selected item of the report pane

	prompt  promptKind
	input   textinput.Model
	pending string // "m" or "'" waiting for a mark letter
	// foldCase makes the text searches ignore ASCII case whatever the
	// query; otherwise a query without upper case ignores it (smart
	// case). Ctrl+T toggles it in the prompt.
	foldCase bool

	msg  render.Safe // the status message
	warn bool        // msg is a warning

	job       job // the running search, or nil
	jobGen    int
	jobAt     int64 // the cursor where job started
	jobStream int   // the stream shown when job started
	lastQ     [numPrompts]string

	detail   bool // the detail pane is wanted (i toggles it)
	screenOn bool // the screen pane replaces the cleaned text (S toggles it)
	// findWait is a finding key pressed before the screen pass had found
	// anything: it is done when the pass ends, if the cursor has not moved.
	findWait  *findStep
	detailTop int // first row of the detail pane shown
	detailTok decode.Token

	f   frame
	err error // fatal: returned by Run

	helpKey  helpKey // what helpView was drawn for
	helpView string
}

// helpKey is what the help bar depends on.
type helpKey struct {
	width int
	all   bool
	ctx   keyContext
}

// numPrompts sizes per-prompt history.
const numPrompts = int(promptRaw) + 1

// newModel returns the model for c.
func newModel(c *capture.Capture, o Options, st Styles) *model {
	m := &model{c: c, o: o, st: st, keys: newKeyMap(o.ASCII), help: help.New(), detail: true}
	m.help.Styles = st.Help
	m.help.ShortSeparator = "  "
	m.help.FullSeparator = "   "
	m.help.Ellipsis = "..."
	for i := range c.Streams {
		s := &c.Streams[i]
		m.svs = append(m.svs, newStreamView(i, s, o))
		if s.Name == o.Stream {
			m.cur = i
		}
	}
	m.input = textinput.New()
	m.input.CharLimit = 256
	m.input.Prompt = ""
	if o.Compare != nil {
		m.cmp = newCompare(m.sv(), len(m.svs), o)
		m.focus = paneText
	}
	// What the loader skipped or changed is printed on stderr before the
	// viewer takes the screen; it must also be seen inside it, or a file
	// that only looks like a recording shows what its first line chose.
	if w := c.Warnings; len(w) > 0 {
		more := ""
		if len(w) > 1 {
			more = fmt.Sprintf(" (and %d more, on stderr when you quit)", len(w)-1)
		}
		m.setMsg(true, "loading as %s skipped or changed input (--format raw shows the file as it is): %s%s", c.Format, w[0], more)
	}
	var total int64
	for _, s := range c.Streams {
		total += s.Len
	}
	if total == 0 { // said instead of the loader's "empty file"
		m.setMsg(true, "the capture is empty: 0 bytes, nothing was recorded")
	}
	return m
}

// Init starts the background pass over the first stream shown, and over
// B in compare mode, where it also aligns two captures.
func (m *model) Init() tea.Cmd {
	if m.cmp != nil {
		return tea.Batch(m.sv().start(), m.cmp.sv.start(), m.cmp.alignCmd(m.cur, m.sv(), m.o.Sanitize))
	}
	return m.sv().start()
}

// sv returns the stream shown.
func (m *model) sv() *streamView { return m.svs[m.cur] }

// streamView returns the stream view whose index reports as id: a stream
// of the capture, or B in compare mode.
func (m *model) streamView(id int) *streamView {
	if id < len(m.svs) {
		return m.svs[id]
	}
	return m.cmp.sv
}

// setMsg sets the status message; it is escaped like capture text
// because it may quote what the user typed.
func (m *model) setMsg(warn bool, format string, a ...any) {
	m.msg, m.warn = render.Line([]byte(fmt.Sprintf(format, a...))), warn
}

// Update handles a message and recomputes the frame.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste && m.prompt == promptNone {
			// Keys typed faster than bubbletea reads arrive as one
			// message; each is a command of its own.
			var cmds []tea.Cmd
			for i, r := range msg.Runes {
				if m.prompt != promptNone { // the rest is the prompt's
					k := msg
					k.Runes = msg.Runes[i:]
					cmds = append(cmds, m.key(k))
					break
				}
				k := msg
				k.Runes = []rune{r}
				cmds = append(cmds, m.key(k))
			}
			cmd = tea.Batch(cmds...)
			m.stopMovedJob()
			break
		}
		cmd = m.key(msg)
		m.stopMovedJob()
	case tea.MouseMsg:
		m.mouse(msg)
		m.stopMovedJob()
	case indexMsg:
		cmd = m.indexed(msg)
	case jobMsg:
		cmd = m.jobDone(msg)
	case screenMsg:
		cmd = m.screenStepped(msg)
	case alignMsg:
		m.cmp.al, m.err = msg.al, msg.err
	}
	if m.err == nil {
		m.err = m.refresh()
	}
	if sc := m.startScreenPass(); sc != nil {
		cmd = tea.Batch(cmd, sc)
	}
	if m.err != nil {
		return m, tea.Quit
	}
	return m, cmd
}

// indexed handles a finished background step: it runs the next one.
func (m *model) indexed(msg indexMsg) tea.Cmd {
	if msg.err != nil {
		m.err = msg.err
		return nil
	}
	return m.streamView(msg.id).idx.next(msg)
}
