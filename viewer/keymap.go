package viewer

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/bytelens/bytelens/render"
)

// keyMap holds every key binding of the viewer. It is the help.KeyMap the
// help bar shows; setContext enables the bindings that apply.
type keyMap struct {
	Up, Down, Left, Right    key.Binding
	PageUp, PageDown         key.Binding
	Home, End                key.Binding
	Goto                     key.Binding
	NextSeq, PrevSeq         key.Binding
	NextClass, PrevClass     key.Binding
	NextHazard, PrevHazard   key.Binding
	SearchText, SearchHex    key.Binding
	SearchRaw                key.Binding
	Mark, JumpMark           key.Binding
	Focus, FocusBack         key.Binding
	NextFrame, PrevFrame     key.Binding
	NextDiff, PrevDiff       key.Binding
	NextStream               key.Binding
	Detail                   key.Binding
	Screen                   key.Binding
	NextFinding, PrevFinding key.Binding
	NextRanked, PrevRanked   key.Binding
	Help                     key.Binding
	Quit                     key.Binding
	Confirm, Cancel          key.Binding
	ReportUp, ReportDown     key.Binding
	// Legend entries, not keys: what the panes' markers mean. Their
	// "keys" are the markers themselves, which no command matches.
	LegendRemoved [render.NumRemovals]key.Binding
	LegendC1      key.Binding
	// Compare mode's line marks (diffMark, seqMark).
	LegendDiff, LegendSame key.Binding
}

// newKeyMap returns the viewer's bindings, all enabled; the legend shows
// the ASCII markers when ascii is set.
func newKeyMap(ascii bool) keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := keyMap{
		Up:          b("↑/k", "up a row", "up", "k"),
		Down:        b("↓/j", "down a row", "down", "j"),
		Left:        b("←/h", "back a byte", "left", "h"),
		Right:       b("→/l", "on a byte", "right", "l"),
		PageUp:      b("pgup", "page up", "pgup"),
		PageDown:    b("pgdn", "page down", "pgdown"),
		Home:        b("home", "first byte", "home"),
		End:         b("end", "last byte", "end"),
		Goto:        b("g", "go to offset", "g"),
		NextSeq:     b("n", "next sequence", "n"),
		PrevSeq:     b("N", "previous sequence", "N"),
		NextHazard:  b("w", "next hazard", "w"),
		PrevHazard:  b("W", "previous hazard", "W"),
		NextClass:   b("]", "next of class", "]"),
		PrevClass:   b("[", "previous of class", "["),
		SearchText:  b("/", "search cleaned text", "/"),
		SearchHex:   b("x", "search raw bytes (hex)", "x"),
		SearchRaw:   b("X", "search raw bytes as text", "X"),
		Mark:        b("m", "set mark", "m"),
		JumpMark:    b("'", "go to mark", "'"),
		Focus:       b("tab", "next pane", "tab"),
		FocusBack:   b("shift+tab", "previous pane", "shift+tab"),
		NextFrame:   b(">", "next frame", ">"),
		PrevFrame:   b("<", "previous frame", "<"),
		NextDiff:    b("d", "next difference", "d"),
		PrevDiff:    b("D", "previous difference", "D"),
		NextStream:  b("s", "next stream", "s"),
		Detail:      b("i", "detail pane", "i"),
		Screen:      b("S", "screen pane", "S"),
		NextFinding: b("f", "next hidden-text finding", "f"),
		PrevFinding: b("F", "previous hidden-text finding", "F"),
		NextRanked:  b("r", "next finding by rank", "r"),
		PrevRanked:  b("R", "previous finding by rank", "R"),
		Help:        b("?", "more keys", "?"),
		Quit:        b("q", "quit", "q", "ctrl+c"),
		Confirm:     b("enter", "confirm", "enter"),
		Cancel:      b("esc", "cancel", "esc"),
		ReportUp:    b("↑/k", "previous class", "up", "k"),
		ReportDown:  b("↓/j", "next class", "down", "j"),
	}
	c1 := "⋄"
	if ascii {
		c1 = "!"
	}
	k.LegendC1 = b(c1, "glyphs: raw C1 byte", c1)
	k.LegendDiff = b(diffMark.String(), "compare: the line's text differs", diffMark.String())
	k.LegendSame = b(seqMark.String(), "compare: same text, different bytes", seqMark.String())
	for r := range k.LegendRemoved {
		g := render.Removal(r).Mark(ascii).String()
		k.LegendRemoved[r] = b(g, "removed: "+render.Removal(r).String(), g)
	}
	return k
}

// keyContext is what decides which bindings apply.
type keyContext struct {
	prompt  bool // a goto or search prompt is open
	report  bool // the report pane has the focus
	frames  bool // the stream has frames
	streams bool // the capture has more than one stream
	compare bool // compare mode
	help    bool // the full help is shown
}

// setContext enables the bindings that apply in c.
func (k *keyMap) setContext(c keyContext) {
	nav := !c.prompt
	for _, b := range []*key.Binding{
		&k.Left, &k.Right, &k.PageUp, &k.PageDown, &k.Home, &k.End,
		&k.Goto, &k.NextSeq, &k.PrevSeq, &k.SearchText, &k.SearchHex, &k.SearchRaw,
		&k.NextHazard, &k.PrevHazard,
		&k.Mark, &k.JumpMark, &k.Focus, &k.FocusBack, &k.Help, &k.Detail, &k.Screen,
	} {
		b.SetEnabled(nav)
	}
	k.Up.SetEnabled(nav && !c.report)
	k.Down.SetEnabled(nav && !c.report)
	k.ReportUp.SetEnabled(nav && c.report)
	k.ReportDown.SetEnabled(nav && c.report)
	k.NextClass.SetEnabled(nav && !c.compare)
	k.PrevClass.SetEnabled(nav && !c.compare)
	k.NextFrame.SetEnabled(nav && c.frames)
	k.PrevFrame.SetEnabled(nav && c.frames)
	k.NextStream.SetEnabled(nav && c.streams && !c.compare)
	k.NextDiff.SetEnabled(nav && c.compare)
	k.PrevDiff.SetEnabled(nav && c.compare)
	// The finding keys open the screen pane (its pass finds them), so
	// they apply wherever it can be shown: not in compare mode.
	for _, b := range []*key.Binding{&k.NextFinding, &k.PrevFinding, &k.NextRanked, &k.PrevRanked} {
		b.SetEnabled(nav && !c.compare)
	}
	row := "class"
	if c.compare {
		row = "row"
	}
	k.ReportUp.SetHelp("↑/k", "previous "+row)
	k.ReportDown.SetHelp("↓/j", "next "+row)
	for r := range k.LegendRemoved {
		k.LegendRemoved[r].SetEnabled(nav)
	}
	k.LegendC1.SetEnabled(nav && !c.compare)
	k.LegendDiff.SetEnabled(nav && c.compare)
	k.LegendSame.SetEnabled(nav && c.compare)
	k.Confirm.SetEnabled(c.prompt)
	k.Cancel.SetEnabled(c.prompt)
	if c.help { // Esc closes the full help too
		k.Help.SetKeys("?", "esc")
		k.Help.SetHelp("?", "close help (esc)")
	} else {
		k.Help.SetKeys("?")
		k.Help.SetHelp("?", "more keys")
	}
	k.Quit.SetEnabled(true)
	if c.prompt {
		k.Quit.SetKeys("ctrl+c")
		k.Quit.SetHelp("ctrl+c", "quit")
	} else {
		k.Quit.SetKeys("q", "ctrl+c")
		k.Quit.SetHelp("q", "quit")
	}
}

// ShortHelp implements help.KeyMap: the one-line help bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{
		k.Confirm, k.Cancel, k.Up, k.Down, k.ReportUp, k.ReportDown, k.NextDiff, k.PrevDiff,
		k.Goto, k.NextHazard, k.NextSeq, k.NextClass, k.SearchText, k.Focus, k.Help, k.Quit,
	}
}

// FullHelp implements help.KeyMap: every binding, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.ReportUp, k.ReportDown, k.Left, k.Right, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Goto, k.NextHazard, k.PrevHazard, k.NextSeq, k.PrevSeq, k.NextClass, k.PrevClass, k.NextDiff, k.PrevDiff, k.NextFrame, k.PrevFrame, k.NextStream},
		{k.SearchText, k.SearchRaw, k.SearchHex, k.Mark, k.JumpMark, k.Focus, k.FocusBack, k.Detail, k.Screen, k.NextFinding, k.PrevFinding, k.NextRanked, k.PrevRanked},
		append([]key.Binding{k.Confirm, k.Cancel, k.Help, k.Quit, k.LegendC1, k.LegendDiff, k.LegendSame}, k.LegendRemoved[:]...),
	}
}
