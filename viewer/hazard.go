package viewer

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
)

// hazardItem is what the hazard keys (w and W) look for: every token that
// changes what a person at a terminal would see or what an agent would
// read from the cleaned text. Tokens tell most of them by themselves
// (hazardOf); the sanitizer's findings tell the rest: a CR is one only
// when no LF follows its run (an overwrite finding), a format character
// only when the sanitizer's format table does not keep it by its context
// (an invisible finding for a run of them, a reorder finding for a bidi
// control, raised under every policy: a kept variation selector or ZWJ
// is none), and a sequence cut
// by a frame boundary of a recording is one whatever it does (a split
// anomaly), since a cleaner that sees one frame at a time sees two
// harmless halves. The hazard keys also stop at the screen model's
// hidden-text findings (screenStop).
var hazardItem = reportItem{
	name: "hazard",
	need: bitCR | bitBS | bitAnomaly | kb(decode.KindESC, decode.KindNF, decode.KindCSI, decode.KindOSC,
		decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS, decode.KindScreenTitle,
		decode.KindFormat, decode.KindInvalid, decode.KindC1),
	match: func(t *decode.Token, _ *sanitize.Options) bool {
		return t.Kind != decode.KindFormat && hazardOf(t) != ""
	},
	found: anyOf(findingIs("overwrite", "CR"), findingIs("split", ""), findingIs("invisible", ""), findingIs("reorder", "")),
	runs:  true,
}

// hazardOf says why t is a hazard, or returns "" when it is none (text,
// colours, a CR that ends a line). A CR is left to the overwrite
// finding, which knows what follows it.
func hazardOf(t *decode.Token) string {
	var why []string
	if adv := sanitize.Advisories(t); adv != 0 {
		for _, n := range adv.Names() {
			switch w, ok := advisoryWhy[n]; {
			case n == "reorder" && t.Kind == decode.KindFormat: // formatWhy says more
			case ok:
				why = append(why, w)
			default:
				why = append(why, n)
			}
		}
	}
	switch {
	case t.Flags&decode.FlagUnterminated != 0:
		why = append(why, "never terminated: it swallows the rest of the stream")
	case t.Flags&decode.FlagAborted != 0:
		why = append(why, "aborted: what follows it is read differently by different terminals")
	case t.Flags&decode.FlagMalformed != 0:
		why = append(why, "malformed")
	case t.Flags&decode.FlagAmbiguous != 0:
		why = append(why, "ambiguous: terminals disagree on where it ends")
	}
	switch t.Kind {
	case decode.KindC0:
		if t.Final == '\b' {
			why = append(why, "BS moves back: the next character is drawn over the one before")
		}
	case decode.KindOSC:
		if len(why) == 0 && !sanitize.LinkCloses(t) {
			why = append(why, "control string: its payload is never shown")
		}
	case decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS, decode.KindScreenTitle:
		if len(why) == 0 {
			why = append(why, "control string: its payload is never shown")
		}
	case decode.KindC1:
		if len(why) == 0 {
			why = append(why, "C1 control: some terminals act on it, others show it")
		}
	case decode.KindFormat:
		why = append(why, formatWhy(t.Rune))
	case decode.KindInvalid:
		why = append(why, "invalid UTF-8: shown as U+FFFD, terminals differ")
	}
	return strings.Join(why, "; ")
}

// advisoryWhy words each advisory flag for the status line.
var advisoryWhy = map[string]string{
	"query":       "query: the terminal would have typed a reply",
	"erase":       "erase: text on screen is wiped",
	"cursor_move": "cursor move: later text is drawn elsewhere, maybe over earlier text",
	"sgr_conceal": "SGR 8 conceal: the text after it is invisible",
	"title":       "sets the window title",
	"clipboard":   "clipboard access (OSC 52)",
	"hyperlink":   "hyperlink: the label shown hides where it points",
	"alt_screen":  "alternate screen: what is drawn there vanishes on exit",
}

// crWhy is why a CR without LF is a hazard.
const crWhy = "CR without LF: the text after it is drawn over the line"

// formatWhy says what format character r does to the text around it.
func formatWhy(r rune) string {
	switch {
	case r == 0x202C, r == 0x2069: // PDF, PDI (Unicode UAX #9)
		return fmt.Sprintf("bidi control U+%04X: ends the reordering an earlier control began: the text before it may be shown out of byte order", r)
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2068, r == 0x200E, r == 0x200F, r == 0x061C:
		return fmt.Sprintf("bidi control U+%04X: the text after it is shown reordered", r)
	case decode.ClassifyFormat(r) == decode.FormatJoining:
		return fmt.Sprintf("invisible U+%04X: joins or changes the characters around it", r)
	}
	return fmt.Sprintf("invisible U+%04X: takes no space on screen, but an agent reads it", r)
}

// hazardWhy says why the hazard search stopped at t: hazardOf, or the
// overwrite of a CR.
func hazardWhy(t *decode.Token) string {
	if t.Kind == decode.KindC0 && t.Final == '\r' {
		return crWhy
	}
	return hazardOf(t)
}

// hazardMessage is the status message after the hazard keys stop at t,
// which spans frames (sv.splitFrames; "" when no frame boundary cuts it).
func hazardMessage(t *decode.Token, frames string) string {
	var why []string
	if w := hazardWhy(t); w != "" {
		why = append(why, w)
	}
	if frames != "" {
		why = append(why, "split across "+frames+": a filter that cleans one frame at a time sees two harmless halves")
	}
	if len(why) == 0 {
		why = append(why, "hazard")
	}
	return fmt.Sprintf("%s %s at %s: %s", t.Kind, sanitize.Name(t), offsetText(t.Off), strings.Join(why, "; "))
}

// splitFrames says which frames of the recording t spans when a frame
// boundary cuts it ("frames 1/2", "frames 1 to 3", and from bytes no
// frame holds, such as a typescript's header, "the bytes before frame 1
// and frame 1"), else "".
func (sv *streamView) splitFrames(t *decode.Token) string {
	switch a, b := sv.frameAt(t.Off), sv.frameAt(t.End()-1); {
	case a == b:
		return ""
	case a < 0 && b == 0:
		return "the bytes before frame 1 and frame 1"
	case a < 0:
		return fmt.Sprintf("the bytes before frame 1 to frame %d", b+1)
	case b == a+1:
		return fmt.Sprintf("frames %d/%d", a+1, b+1)
	default:
		return fmt.Sprintf("frames %d to %d", a+1, b+1)
	}
}

// offsetText writes an offset the one way the viewer writes offsets:
// hex, then decimal in parentheses.
func offsetText(off int64) string {
	return fmt.Sprintf("%s (%d)", render.Offset(off).String(), off)
}

// screenStop is the hidden-text finding of the screen model (package
// screen) that the hazard keys stop at besides the tokens: the nearest
// one past the cursor whose rank is screen.Deception or more. Findings
// of lower rank are ordinary redrawing (every line of a progress bar is
// one), whose CR or erase is a stop already; f/F visits them all.
type screenStop struct {
	off  int64       // the finding's offset, -1 when there is none
	note render.Safe // the finding as the screen pane's status names it
	// missing says why findings may be unknown (the screen pass has not
	// run, or not to the end), "" when they are all known.
	missing string
}

// screenStop returns the stop among the hidden-text findings strictly
// after (dir +1) or before (dir -1) byte cur, the finding of highest
// rank when several start at one offset.
func (sv *streamView) screenStop(cur, dir int64) screenStop {
	st := screenStop{off: -1}
	c := sv.scr
	if c == nil || !c.started {
		st.missing = "hidden-text findings not computed yet (S computes them)"
		return st
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.done {
		st.missing = fmt.Sprintf("hidden-text findings known only in the first %d%% (the screen pass is reading)", c.readPercent(sv.src.n))
	}
	i := sort.Search(len(c.finds), func(i int) bool { return c.finds[i].Off > cur })
	if dir < 0 {
		i = sort.Search(len(c.finds), func(i int) bool { return c.finds[i].Off >= cur }) - 1
	}
	best := -1
	for ; i >= 0 && i < len(c.finds); i += int(dir) {
		f := &c.finds[i]
		if best >= 0 && f.Off != c.finds[best].Off {
			break
		}
		if f.Rank >= screen.Deception && (best < 0 || f.Rank > c.finds[best].Rank) {
			best = i
		}
	}
	if best >= 0 {
		st.off, st.note = c.finds[best].Off, c.note(best)
	}
	return st
}

// hazardSeek starts the hazard search from the cursor in direction dir,
// the screen model's findings counted with the tokens.
func (m *model) hazardSeek(dir int64) tea.Cmd {
	sv := m.sv()
	j := newSeek(sv.idx, &hazardItem, m.o.Sanitize, sv.cursor, dir)
	j.scr = sv.screenStop(sv.cursor, dir)
	return m.startJob(j)
}

// hazardFound sets the status message after the hazard search j ended:
// found at off, or not found.
func (m *model) hazardFound(j *seek, found bool, off int64) error {
	var parts []render.Safe
	switch {
	case !found:
		parts = append(parts, render.Line([]byte("no "+j.name()+" found")))
	case off == j.scr.off:
		parts = append(parts, render.Line([]byte("hidden text at "+offsetText(off)+": ")), j.scr.note)
	default:
		t, err := m.sv().tokenAt(off)
		if err != nil {
			return err
		}
		parts = append(parts, render.Line([]byte(hazardMessage(&t, m.sv().splitFrames(&t)))))
	}
	if j.scr.missing != "" {
		parts = append(parts, render.Line([]byte("; "+j.scr.missing)))
	}
	m.msg, m.warn = render.Concat(parts...), true
	return nil
}
