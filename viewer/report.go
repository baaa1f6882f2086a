package viewer

import (
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// reportItem is one count of the removal report, as the report pane lists
// it, with what it takes to find the places it counts.
type reportItem struct {
	group string // "removed", "anomalies", "flags" or "kept"
	name  string // the report's JSON name
	// need holds the block-mask bits of which a block must have one to
	// hold a place this item counts.
	need uint32
	// match reports whether a token is one this item counts, when that
	// can be told from the token alone.
	match func(t *decode.Token, o *sanitize.Options) bool
	// finding is the kind of sanitize.Finding that marks a place this
	// item counts, when match is nil.
	finding string
}

// searchable reports whether ] and [ can find the item's places.
func (it *reportItem) searchable() bool { return it.match != nil || it.finding != "" }

// Mask bits of one kind.
func kb(ks ...decode.Kind) uint32 {
	var b uint32
	for _, k := range ks {
		b |= 1 << k
	}
	return b
}

// kindIs returns a matcher for tokens of one of kinds.
func kindIs(kinds ...decode.Kind) func(*decode.Token, *sanitize.Options) bool {
	return func(t *decode.Token, _ *sanitize.Options) bool {
		for _, k := range kinds {
			if t.Kind == k {
				return true
			}
		}
		return false
	}
}

// c0Is returns a matcher for the C0 controls in finals.
func c0Is(finals ...byte) func(*decode.Token, *sanitize.Options) bool {
	return func(t *decode.Token, _ *sanitize.Options) bool {
		if t.Kind != decode.KindC0 {
			return false
		}
		for _, f := range finals {
			if t.Final == f {
				return true
			}
		}
		return false
	}
}

// anomalyIs returns a matcher for sequences and strings flagged f, the
// tokens whose anomalies the sanitizer counts.
func anomalyIs(f decode.Flags) func(*decode.Token, *sanitize.Options) bool {
	return func(t *decode.Token, _ *sanitize.Options) bool {
		seq := t.Kind.IsString() || t.Kind == decode.KindCSI || t.Kind == decode.KindESC || t.Kind == decode.KindNF
		return seq && t.Flags&f != 0
	}
}

// removedFormat tells the format characters the policy removes from those
// it keeps.
func removedFormat(t *decode.Token, o *sanitize.Options) bool {
	return t.Kind == decode.KindFormat && decode.ClassifyFormat(t.Rune) == decode.FormatHiding && o.FormatChars == sanitize.FormatStrip
}

var (
	anySeq = kb(decode.KindESC, decode.KindNF, decode.KindCSI, decode.KindOSC, decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS, decode.KindScreenTitle)
)

// reportItems lists the report pane's rows in the order of the report's
// fields.
var reportItems = []reportItem{
	{group: "removed", name: "c0", need: kb(decode.KindC0), match: func(t *decode.Token, _ *sanitize.Options) bool {
		return t.Kind == decode.KindC0 && t.Final != '\r' && t.Final != '\b' && t.Final != 0x0B && t.Final != 0x0C
	}},
	{group: "removed", name: "c1", need: kb(decode.KindC1), match: kindIs(decode.KindC1)},
	{group: "removed", name: "del", need: kb(decode.KindDEL), match: kindIs(decode.KindDEL)},
	{group: "removed", name: "cr", need: bitCR, match: c0Is('\r')},
	{group: "removed", name: "bs", need: bitBS, match: c0Is('\b')},
	{group: "removed", name: "esc", need: kb(decode.KindESC, decode.KindNF), match: kindIs(decode.KindESC, decode.KindNF)},
	{group: "removed", name: "csi", need: kb(decode.KindCSI), match: kindIs(decode.KindCSI)},
	{group: "removed", name: "osc", need: kb(decode.KindOSC), match: kindIs(decode.KindOSC)},
	{group: "removed", name: "dcs", need: kb(decode.KindDCS), match: kindIs(decode.KindDCS)},
	{group: "removed", name: "apc", need: kb(decode.KindAPC), match: kindIs(decode.KindAPC)},
	{group: "removed", name: "pm", need: kb(decode.KindPM), match: kindIs(decode.KindPM)},
	{group: "removed", name: "sos", need: kb(decode.KindSOS), match: kindIs(decode.KindSOS)},
	{group: "removed", name: "esc_k", need: kb(decode.KindScreenTitle), match: kindIs(decode.KindScreenTitle)},
	{group: "removed", name: "format", need: kb(decode.KindFormat), match: removedFormat},
	{group: "removed", name: "invalid_utf8", need: kb(decode.KindInvalid), match: kindIs(decode.KindInvalid)},

	{group: "anomalies", name: "malformed", need: bitAnomaly, match: anomalyIs(decode.FlagMalformed)},
	{group: "anomalies", name: "aborted", need: bitAnomaly, match: anomalyIs(decode.FlagAborted)},
	{group: "anomalies", name: "unterminated", need: bitAnomaly, match: anomalyIs(decode.FlagUnterminated)},
	{group: "anomalies", name: "overlong", need: bitAnomaly, match: anomalyIs(decode.FlagOverlong)},
	{group: "anomalies", name: "ambiguous", need: bitAnomaly, match: anomalyIs(decode.FlagAmbiguous)},
	{group: "anomalies", name: "overflow", need: bitAnomaly, match: anomalyIs(decode.FlagOverflow)},

	{group: "flags", name: "query", need: kb(decode.KindCSI, decode.KindDCS, decode.KindOSC), finding: "query"},
	{group: "flags", name: "erase", need: kb(decode.KindCSI, decode.KindESC), finding: "erase"},
	{group: "flags", name: "cursor_move", need: kb(decode.KindCSI, decode.KindESC, decode.KindC1), finding: "cursor_move"},
	{group: "flags", name: "overwrite", need: bitCR | bitBS, finding: "overwrite"},
	{group: "flags", name: "sgr_conceal", need: kb(decode.KindCSI), finding: "sgr_conceal"},
	{group: "flags", name: "title", need: kb(decode.KindOSC, decode.KindScreenTitle), finding: "title"},
	{group: "flags", name: "clipboard", need: kb(decode.KindOSC), finding: "clipboard"},
	{group: "flags", name: "hyperlink", need: kb(decode.KindOSC), finding: "hyperlink"},
	{group: "flags", name: "alt_screen", need: kb(decode.KindCSI), finding: "alt_screen"},

	{group: "kept", name: "format", need: kb(decode.KindFormat), match: func(t *decode.Token, o *sanitize.Options) bool {
		return t.Kind == decode.KindFormat && !removedFormat(t, o)
	}},
	{group: "kept", name: "link_labels", need: kb(decode.KindOSC), finding: "hyperlink"},
	{group: "kept", name: "link_targets"},
	{group: "kept", name: "vt_ff", need: kb(decode.KindC0), match: c0Is(0x0B, 0x0C)},
}

// seqItem is what n and N look for: any escape sequence, control
// sequence or control string.
var seqItem = reportItem{name: "sequence", need: anySeq, match: func(t *decode.Token, _ *sanitize.Options) bool {
	return t.Kind == decode.KindESC && t.Len > 1 || t.Kind == decode.KindNF || t.Kind == decode.KindCSI || t.Kind.IsString()
}}

// itemCounts returns the count of every report item, in reportItems order.
func itemCounts(r *sanitize.Report) []int64 {
	var out []int64
	for _, group := range [][]sanitize.NamedCount{r.Removed.ByName(), r.Anomalies.ByName(), r.Flags.ByName(), r.Kept.ByName()} {
		for _, nc := range group {
			out = append(out, nc.Count)
		}
	}
	return out
}
