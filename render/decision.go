package render

import (
	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// Decision returns one line saying what the sanitizer does with t under
// the options o, and by which rule: "removed: CSI (control sequence)",
// "kept as text", "CR: removed; a run of CRs followed by LF becomes that
// LF, any other run one LF (policy cr=lines)", "replaced by U+FFFD
// (maximal subpart)", "label kept, target dropped (policy links=drop)".
// Advisory flags the sanitizer raises for t follow ("flagged query: a
// terminal would have replied"). It describes the policy in DESIGN.md
// ("sanitize: policy and report") for this token alone; what a CR run
// became depends on the output after it, which DecisionIn asks the
// sanitizer about.
func Decision(t *decode.Token, o sanitize.Options) Safe {
	var d describer
	d.decision(t, o, sanitize.CRUnsettled)
	return Safe{string(d.b)}
}

// DecisionIn is Decision for token i of w, with the context Decision
// lacks: for a CR, what the sanitizer made of the run it belongs to, as
// far as the window tells (sanitize.SettleCR over the window's tokens);
// for a format character that its neighbours keep or not (a joiner, a
// variation selector, a Mongolian selector, a jamo filler), whether this
// one was kept, "here: kept. ", "here: removed. " or, under
// format-chars=escape, "here: escaped. " before the rule
// (sanitize.FormatFate), when the window tells: not for one that the
// characters before the window judge, nor one held to its end.
func DecisionIn(w *Window, i int, o sanitize.Options) Safe {
	if i < 0 || i >= len(w.Tokens) {
		return Safe{}
	}
	t := &w.Tokens[i]
	fate := sanitize.CRUnsettled
	whole := w.Tokens[:len(w.Tokens)-w.Open]
	var d describer
	switch {
	case t.Kind == decode.KindC0 && t.Final == '\r':
		fate = sanitize.SettleCR(whole, i, w.Data, w.Off, o)
	case t.Kind == decode.KindFormat && formatContext[decode.ClassifyFormat(t.Rune)] != "":
		// A character kept by its neighbours: say what became of this one.
		switch kept, ok := sanitize.FormatFate(whole, i, w.Data, w.Off, o); {
		case ok && kept:
			d.s("here: kept. ")
		case ok && o.FormatChars == sanitize.FormatEscape:
			d.s("here: escaped. ")
		case ok:
			d.s("here: removed. ")
		}
	}
	d.decision(t, o, fate)
	return Safe{string(d.b)}
}

// decision appends the sanitizer's decision; fate is what became of the
// run of CRs a CR belongs to.
func (d *describer) decision(t *decode.Token, o sanitize.Options, fate sanitize.CRFate) {
	switch t.Kind {
	case decode.KindText:
		if t.Is(decode.FlagEmbedded) {
			d.s("kept as text (executed inside a sequence, as terminals do)")
			return
		}
		d.s("kept as text")
		return
	case decode.KindC0:
		d.c0Decision(t, o, fate)
	case decode.KindDEL:
		d.s("removed: DEL")
	case decode.KindC1:
		if t.Intro == decode.Intro8Bit && o.C1 == sanitize.C1Lone {
			d.s("removed: lone C1 control (policy c1=lone)")
		} else {
			d.s("removed: C1 control")
		}
	case decode.KindESC, decode.KindNF:
		d.s("removed: escape sequence")
	case decode.KindCSI:
		d.s("removed: CSI (control sequence)")
	case decode.KindOSC:
		d.oscDecision(t, o)
	case decode.KindDCS:
		d.s("removed: DCS string, payload dropped")
	case decode.KindAPC:
		d.s("removed: APC string, payload dropped")
		if o.APCBEL {
			d.s(" (policy apc-bel=true: BEL ends it)")
		}
	case decode.KindPM:
		d.s("removed: PM string, payload dropped")
	case decode.KindSOS:
		d.s("removed: SOS string, payload dropped")
	case decode.KindScreenTitle:
		d.s("removed: ESC k title string, payload dropped")
	case decode.KindInvalid:
		d.s("replaced by U+FFFD (maximal subpart)")
	case decode.KindFormat:
		d.formatDecision(t, o)
	}
	d.advisories(sanitize.Advisories(t))
	d.anomalyDecision(t)
}

func (d *describer) c0Decision(t *decode.Token, o sanitize.Options, fate sanitize.CRFate) {
	switch t.Final {
	case '\r':
		d.s("CR: removed; ")
		switch o.CR {
		case sanitize.CRLines:
			switch fate {
			case sanitize.CRBeforeLF:
				d.s("run followed by LF, which is the line break")
			case sanitize.CROverwrites:
				d.s("run not followed by LF becomes one LF; flagged overwrite")
			default:
				d.s("a run followed by LF becomes that LF, any other run one LF")
			}
			d.s(" (policy cr=lines)")
		case sanitize.CRScreen:
			d.s("the cursor goes to the line's first column, and the line is written as the screen finally showed it (policy cr=screen)")
		case sanitize.CRDrop:
			d.s("dropped (policy cr=drop)")
		}
	case '\b':
		if o.BS == sanitize.BSOverstrike {
			d.s("BS: applied: the next character replaces the one before (policy bs=overstrike); flagged overwrite")
		} else {
			d.s("BS: removed (policy bs=drop); flagged overwrite")
		}
	case 0x0B, 0x0C:
		d.s("replaced by LF (xterm moves down a line)")
	default:
		d.s("removed: C0 control")
	}
	if t.Is(decode.FlagEmbedded) {
		d.s(" (executed inside a sequence)")
	}
}

// advisories appends the advisory flags sanitize raises for the token.
func (d *describer) advisories(a sanitize.Advisory) {
	for i, name := range a.Names() {
		if i == 0 {
			d.s("; flagged ")
		} else {
			d.s(", ")
		}
		d.s(name)
	}
	if a != 0 {
		d.s(": ", a.Why())
	}
}

func (d *describer) oscDecision(t *decode.Token, o sanitize.Options) {
	done := t.Flags&(decode.FlagAborted|decode.FlagUnterminated) == 0
	switch {
	case t.Command == 8 && done && sanitize.LinkCloses(t):
		d.s("removed: OSC 8 hyperlink close; the label before it was kept")
		if o.Links == sanitize.LinksAppend {
			d.s(", followed by <URI> if the target was printable http(s) (policy links=append)")
		}
	case t.Command == 8 && done:
		if o.Links == sanitize.LinksAppend {
			d.s("label kept, target appended as \" <URI>\" after it when printable http(s) (policy links=append)")
		} else {
			d.s("label kept, target dropped (policy links=drop)")
		}
	default:
		d.s("removed: OSC string, payload dropped")
	}
}

func (d *describer) formatDecision(t *decode.Token, o sanitize.Options) {
	cls := decode.ClassifyFormat(t.Rune)
	switch {
	case cls == decode.FormatLineSeparator && o.FormatChars == sanitize.FormatStrip:
		d.s("replaced by LF (policy format-chars=strip)")
		return
	case cls == decode.FormatHiding, cls == decode.FormatLineSeparator:
	default:
		d.s(formatContext[cls], "; otherwise ")
	}
	switch o.FormatChars {
	case sanitize.FormatKeep:
		d.s("kept and counted (policy format-chars=keep)")
	case sanitize.FormatEscape:
		d.s("shown as ")
		d.b = appendCodePoint(d.b, t.Rune)
		d.s(" (policy format-chars=escape)")
	default:
		d.s("removed and counted (policy format-chars=strip)")
	}
	if cls != decode.FormatLineSeparator && !decode.IsBidiControl(t.Rune) {
		d.s("; a run of them is flagged invisible")
	}
}

// formatContext says when the sanitizer keeps a character of a contextual
// format class (sanitize's format policy table).
var formatContext = [decode.FormatLineSeparator + 1]string{
	decode.FormatJoining: "kept and counted where the characters on either side need it " +
		"(inside an emoji ZWJ sequence, between letters or marks of a joining or Indic script, " +
		"a bidi mark after right-to-left text or between a neutral or number and right-to-left text, " +
		"a soft hyphen between letters not both ASCII), " +
		"not right after another",
	decode.FormatSelector:   "kept as the one variation selector directly after a base character",
	decode.FormatMongolian:  "kept directly after a Mongolian character",
	decode.FormatJamoFiller: "kept inside a conjoining jamo sequence",
}

// anomalyDecision appends what the report records for t's anomalies.
func (d *describer) anomalyDecision(t *decode.Token) {
	if t.Is(decode.FlagUnterminated) {
		d.s("; reported unterminated: ")
		d.bytesCount(t.Len)
		d.s(" swallowed to the end of input")
	}
	for _, a := range ctlfunc.Anomalies {
		if a.Flag != decode.FlagUnterminated && t.Is(a.Flag) &&
			(t.Kind.IsString() || t.Kind == decode.KindCSI || t.Kind == decode.KindESC || t.Kind == decode.KindNF) {
			d.s("; reported ", a.Name)
		}
	}
}
