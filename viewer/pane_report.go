package viewer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/render"
)

// reportPane is the report pane: the removal report's counts by group;
// the selected one is what ] and [ look for.
type reportPane struct{}

func (reportPane) title(m *model) string {
	if m.f.repDone {
		return "report"
	}
	_, rep, _ := m.sv().idx.status()
	return fmt.Sprintf("report %d%%", percent(rep, m.sv().src.n))
}

func (reportPane) lines(m *model, width, height int) []string { return m.reportRows(width, height) }

// key selects the class above or below.
func (reportPane) key(m *model, k tea.KeyMsg) (bool, tea.Cmd) {
	switch {
	case key.Matches(k, m.keys.ReportUp):
		m.sel = max(0, m.sel-1)
	case key.Matches(k, m.keys.ReportDown):
		m.sel = min(len(reportItems)-1, m.sel+1)
	default:
		return false, nil
	}
	return true, nil
}

func (reportPane) click(m *model, row, _ int) {
	if i := m.reportTop() + row; i >= 0 && i < len(reportLines) && reportLines[i].item >= 0 {
		m.sel = reportLines[i].item
	}
}

// reportLine is a line of the report pane: a group heading, or an item.
type reportLine struct {
	heading string
	item    int // index in reportItems, or -1 for a heading
}

// reportLines lists the report pane's lines.
var reportLines = func() []reportLine {
	var out []reportLine
	for i, it := range reportItems {
		if i == 0 || reportItems[i-1].group != it.group {
			out = append(out, reportLine{heading: it.group, item: -1})
		}
		out = append(out, reportLine{item: i})
	}
	return out
}()

// reportTop returns the first report line shown, so that the selected
// item is on screen.
func (m *model) reportTop() int {
	sel := 0
	for i, l := range reportLines {
		if l.item == m.sel {
			sel = i
		}
	}
	return max(0, sel-m.lay.rows+1)
}

// reportRows draws the report pane's rows.
func (m *model) reportRows(width, n int) []string {
	var out []string
	top := m.reportTop()
	for _, l := range reportLines[top:min(len(reportLines), top+n)] {
		if l.item < 0 {
			out = append(out, pad(m.st.heading, render.TextString(l.heading), width))
			continue
		}
		it := &reportItems[l.item]
		count := m.f.counts[l.item]
		num := fmt.Sprint(count)
		name := " " + it.name
		gap := max(1, width-len(name)-len(num))
		sp := m.st.status
		switch {
		case l.item == m.sel && m.focus == paneReport:
			sp = m.st.selected
		case l.item == m.sel:
			sp = m.st.heading
		case count == 0:
			sp = m.st.zero
		}
		out = append(out, pad(sp, render.TextString(name+strings.Repeat(" ", gap)+num), width))
	}
	return out
}
