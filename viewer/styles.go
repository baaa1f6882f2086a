package viewer

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"

	"github.com/bytelens/bytelens/render"
)

// numClasses is the number of render cell classes.
const numClasses = int(render.ClassMuted) + 1

// cellState is how a cell stands to the cursor and to sequence
// boundaries.
type cellState uint8

const (
	stNormal cellState = iota // any other cell
	stStart                   // the first byte of a control, sequence or string
	stToken                   // a byte of the token under the cursor
	stCursor                  // the byte under the cursor
	numStates
)

// span is a style rendered once: the SGR text that goes before and after
// a cell. Styling a cell is then two string concatenations, not a
// lipgloss Render (48 times slower, research note §2.2).
type span struct{ pre, post string }

// newSpan renders st once around a marker and keeps what surrounds it.
func newSpan(st lipgloss.Style) span {
	pre, post, _ := strings.Cut(st.Render("X"), "X")
	return span{pre, post}
}

// add appends s wrapped in the span to b.
func (sp span) add(b *strings.Builder, s render.Safe) {
	b.WriteString(sp.pre)
	b.WriteString(s.String())
	b.WriteString(sp.post)
}

// wrap returns s wrapped in the span.
func (sp span) wrap(s render.Safe) string { return sp.pre + s.String() + sp.post }

// classColors pins one 256-colour palette entry per class: mid-luminance
// colours that read on dark and light backgrounds alike, so no terminal
// query is needed (no AdaptiveColor).
var classColors = [numClasses]lipgloss.Color{
	render.ClassText:       "252",
	render.ClassSpace:      "245",
	render.ClassWhitespace: "37",
	render.ClassNUL:        "243",
	render.ClassC0:         "208",
	render.ClassESC:        "203",
	render.ClassDEL:        "166",
	render.ClassC1:         "201",
	render.ClassUTF8Lead:   "75",
	render.ClassUTF8Cont:   "67",
	render.ClassInvalid:    "196",
	render.ClassFormat:     "199",
	render.ClassSequence:   "141",
	render.ClassPayload:    "179",
	render.ClassOffset:     "244",
	render.ClassMuted:      "240",
}

// removalColors colour the removal markers by class.
var removalColors = [render.NumRemovals]lipgloss.Color{
	render.RemovalStyle:     "240",
	render.RemovalInvisible: "199",
	render.RemovalCursor:    "208",
	render.RemovalString:    "179",
	render.RemovalQuery:     "196",
}

// monoMarked are the classes drawn underlined without colour: every
// glyph that stands for a control, a payload or an undrawn byte, so that
// the ASCII glyphs ('.', '<', '$', '^', '!') stand apart from the same
// characters in text.
var monoMarked = func() (m [numClasses]bool) {
	for _, c := range []render.Class{render.ClassNUL, render.ClassC0, render.ClassESC, render.ClassDEL, render.ClassC1,
		render.ClassInvalid, render.ClassFormat, render.ClassSequence, render.ClassPayload, render.ClassWhitespace} {
		m[c] = true
	}
	return m
}()

// Colours of the chrome.
const (
	colorBorder  = lipgloss.Color("240")
	colorFocus   = lipgloss.Color("75")
	colorBar     = lipgloss.Color("236")
	colorBarText = lipgloss.Color("252")
	colorKey     = lipgloss.Color("75")
	colorDesc    = lipgloss.Color("246")
	colorWarn    = lipgloss.Color("208")
	colorInk     = lipgloss.Color("16")
	colorCursor  = lipgloss.Color("231")
	colorDiffer  = lipgloss.Color("203")
)

// Styles is every style the viewer draws with, built in one place. With
// colour off (NO_COLOR, a monochrome terminal) it uses attributes only:
// the cursor's token is reverse video, sequence starts are bold and
// underlined, the focused pane has a thick border.
type Styles struct {
	// cells holds a span per cell class and state.
	cells [numClasses][numStates]span
	// Pane and Focused are the border boxes of panes; the viewer draws
	// their borders itself from these, so that the widths of capture text
	// are measured one way only (render.Safe.Width).
	Pane, Focused lipgloss.Style
	// border and borderFocused colour the borders; header and
	// headerFocused are pane titles.
	border, borderFocused span
	header, headerFocused span
	// bar is the title bar; status the status lines; warn a warning.
	bar, status, warn span
	// selected is the selected row of the report pane; zero a row whose
	// count is zero; heading a group heading.
	selected, zero, heading span
	// prompt is a goto or search prompt; promptCursor its cursor.
	prompt, promptCursor span
	// differ is the mark of a difference in compare mode; differPart the
	// part of a value that differs from the other side's, in reverse
	// video so that it shows without colour too.
	differ, differPart span
	// marks style the removal markers of the cleaned text by class and
	// state: a colour each, or underlined without colour, so that they
	// stand apart from text in ASCII too.
	marks [render.NumRemovals][numStates]span
	// Help styles the help bar.
	Help help.Styles
}

// NewStyles builds the styles from r, with colour or attributes only.
// Every style comes from r, so its colour profile alone decides which SGR
// the viewer writes, and two viewers (or two tests) with different
// profiles can run side by side; nothing reads lipgloss's global
// renderer.
func NewStyles(r *lipgloss.Renderer, color bool) Styles {
	var s Styles
	ns := r.NewStyle
	for c := range numClasses {
		base := ns()
		if color {
			base = base.Foreground(classColors[c])
		} else if monoMarked[c] {
			base = base.Underline(true)
		}
		start := base.Bold(true).Underline(true)
		token := base.Reverse(true)
		cursor := ns().Reverse(true).Bold(true).Underline(true)
		if color {
			token = ns().Foreground(colorInk).Background(classColors[c])
			cursor = ns().Foreground(colorInk).Background(colorCursor).Bold(true)
		}
		s.cells[c] = [numStates]span{newSpan(base), newSpan(start), newSpan(token), newSpan(cursor)}
	}
	for r := range render.NumRemovals {
		base := ns().Underline(true)
		token, cursor := base.Reverse(true), base.Reverse(true).Bold(true)
		if color {
			base = ns().Foreground(removalColors[r])
			token = ns().Foreground(colorInk).Background(removalColors[r])
			cursor = ns().Foreground(colorInk).Background(colorCursor).Bold(true)
		}
		s.marks[r] = [numStates]span{newSpan(base), newSpan(base), newSpan(token), newSpan(cursor)}
	}
	s.Pane = ns().Border(lipgloss.RoundedBorder())
	s.Focused = ns().Border(lipgloss.ThickBorder())
	head := ns().Bold(true)
	focusHead := ns().Bold(true).Reverse(true)
	bar := ns().Reverse(true)
	warn := ns().Bold(true)
	s.selected = newSpan(ns().Reverse(true))
	s.zero = newSpan(ns())
	s.heading = newSpan(ns().Bold(true))
	s.prompt = newSpan(ns().Bold(true))
	s.promptCursor = newSpan(ns().Reverse(true))
	differ := ns().Bold(true)
	keyStyle, descStyle := ns().Bold(true), ns()
	border, borderFocused := ns(), ns()
	if color {
		border, borderFocused = ns().Foreground(colorBorder), ns().Foreground(colorFocus)
		focusHead = ns().Bold(true).Foreground(colorFocus)
		bar = ns().Foreground(colorBarText).Background(colorBar)
		warn = ns().Bold(true).Foreground(colorWarn)
		s.zero = newSpan(ns().Foreground(classColors[render.ClassMuted]))
		differ = differ.Foreground(colorDiffer)
		keyStyle = ns().Foreground(colorKey)
		descStyle = ns().Foreground(colorDesc)
	}
	s.header, s.headerFocused = newSpan(head), newSpan(focusHead)
	s.border, s.borderFocused = newSpan(border), newSpan(borderFocused)
	s.bar, s.status, s.warn = newSpan(bar), newSpan(ns()), newSpan(warn)
	s.differ, s.differPart = newSpan(differ), newSpan(differ.Reverse(true))
	s.Help = help.Styles{
		Ellipsis:       descStyle,
		ShortKey:       keyStyle,
		ShortDesc:      descStyle,
		ShortSeparator: descStyle,
		FullKey:        keyStyle,
		FullDesc:       descStyle,
		FullSeparator:  descStyle,
	}
	return s
}

// cell returns the span of class c in state st.
func (s *Styles) cell(c render.Class, st cellState) span { return s.cells[c][st] }
