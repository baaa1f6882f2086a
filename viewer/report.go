package viewer

import (
	"slices"

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
	// unless, if set, drops the tokens match takes that lie in the span
	// of a sanitizer finding it accepts: what the sanitizer decided by
	// context (a format character it removed).
	unless func(f *sanitize.Finding, o *sanitize.Options) bool
	// found reports whether a sanitizer finding marks a place this item
	// counts, at the finding's offset.
	found func(f *sanitize.Finding, o *sanitize.Options) bool
	// runs makes a run of BS controls one place, found at its first.
	runs bool
}

// searchable reports whether ] and [ can find the item's places.
func (it *reportItem) searchable() bool { return it.match != nil || it.found != nil }

// usesFindings reports whether the item's places depend on the
// sanitizer's findings.
func (it *reportItem) usesFindings() bool { return it.found != nil || it.unless != nil }

// findingIs returns a matcher for the findings of kind, and of sequence
// seq when seq is not empty ("CR").
func findingIs(kind, seq string) func(*sanitize.Finding, *sanitize.Options) bool {
	return func(f *sanitize.Finding, _ *sanitize.Options) bool {
		return f.Kind == kind && (seq == "" || f.Sequence == seq)
	}
}

// anyOf returns a matcher for the findings that one of fs accepts.
func anyOf(fs ...func(*sanitize.Finding, *sanitize.Options) bool) func(*sanitize.Finding, *sanitize.Options) bool {
	return func(f *sanitize.Finding, o *sanitize.Options) bool {
		for _, fn := range fs {
			if fn(f, o) {
				return true
			}
		}
		return false
	}
}

// places returns the offsets in block b of the places it counts, in
// order: the
// tokens match takes (but those in a finding unless accepts), then the
// findings found accepts that begin in the block.
func (it *reportItem) places(sc *scanner, b int64, o *sanitize.Options) ([]int64, error) {
	var fs []sanitize.Finding
	if it.usesFindings() {
		var err error
		if fs, err = sc.findings(b, *o); err != nil {
			return nil, err
		}
	}
	var hits []int64
	if it.match != nil {
		var prev decode.Token
		err := sc.tokens(b, func(t *decode.Token) {
			// A run of BS is one place to stop: the sequel of each is
			// the same overwrite.
			run := it.runs && t.Kind == decode.KindC0 && t.Final == '\b' &&
				prev.Kind == decode.KindC0 && prev.Final == '\b' && prev.End() == t.Off
			if it.match(t, o) && !run && !it.excepted(fs, t.Off, o) {
				hits = append(hits, t.Off)
			}
			prev = *t
		})
		if err != nil {
			return nil, err
		}
	}
	for i := range fs {
		if it.found != nil && fs[i].Offset >= b*checkpointEvery && it.found(&fs[i], o) {
			hits = append(hits, fs[i].Offset)
		}
	}
	slices.Sort(hits)
	return hits, nil
}

// excepted reports whether off lies in the span of a finding of fs that
// it.unless accepts.
func (it *reportItem) excepted(fs []sanitize.Finding, off int64, o *sanitize.Options) bool {
	if it.unless == nil {
		return false
	}
	for i := range fs {
		f := &fs[i]
		if off >= f.Offset && off < f.Offset+max(1, f.Bytes) && it.unless(f, o) {
			return true
		}
	}
	return false
}

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

// removesFormat reports whether finding f marks format characters that
// the policy removed from the cleaned text. Whether a character is one the
// format table removes depends on its context (a variation selector after
// a base that takes it, a jamo filler inside a jamo sequence), which only
// the sanitizer judges: it raises an invisible finding for each run of
// them and a reorder finding for each bidi control, under every policy
// (package sanitize, "Format characters"), and FormatStrip removes them.
func removesFormat(f *sanitize.Finding, o *sanitize.Options) bool {
	return o.FormatChars == sanitize.FormatStrip && (f.Kind == "invisible" || f.Kind == "reorder")
}

// becomesLF reports whether t is a LINE or PARAGRAPH SEPARATOR that the
// policy writes as LF (Kept.LineSeparators rather than Kept.Format).
func becomesLF(t *decode.Token, o *sanitize.Options) bool {
	return t.Kind == decode.KindFormat && decode.ClassifyFormat(t.Rune) == decode.FormatLineSeparator && o.FormatChars == sanitize.FormatStrip
}

var (
	anySeq = kb(decode.KindESC, decode.KindNF, decode.KindCSI, decode.KindOSC, decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS, decode.KindScreenTitle)
)

// knownItems says how to find the places each report count counts, by
// group and name.
var knownItems = map[string]reportItem{
	"removed/c0": {need: kb(decode.KindC0), match: func(t *decode.Token, _ *sanitize.Options) bool {
		return t.Kind == decode.KindC0 && t.Final != '\r' && t.Final != '\b' && t.Final != 0x0B && t.Final != 0x0C
	}},
	"removed/c1":           {need: kb(decode.KindC1), match: kindIs(decode.KindC1)},
	"removed/del":          {need: kb(decode.KindDEL), match: kindIs(decode.KindDEL)},
	"removed/cr":           {need: bitCR, match: c0Is('\r')},
	"removed/bs":           {need: bitBS, match: c0Is('\b')},
	"removed/esc":          {need: kb(decode.KindESC, decode.KindNF), match: kindIs(decode.KindESC, decode.KindNF)},
	"removed/csi":          {need: kb(decode.KindCSI), match: kindIs(decode.KindCSI)},
	"removed/osc":          {need: kb(decode.KindOSC), match: kindIs(decode.KindOSC)},
	"removed/dcs":          {need: kb(decode.KindDCS), match: kindIs(decode.KindDCS)},
	"removed/apc":          {need: kb(decode.KindAPC), match: kindIs(decode.KindAPC)},
	"removed/pm":           {need: kb(decode.KindPM), match: kindIs(decode.KindPM)},
	"removed/sos":          {need: kb(decode.KindSOS), match: kindIs(decode.KindSOS)},
	"removed/esc_k":        {need: kb(decode.KindScreenTitle), match: kindIs(decode.KindScreenTitle)},
	"removed/format":       {need: kb(decode.KindFormat), found: removesFormat},
	"removed/invalid_utf8": {need: kb(decode.KindInvalid), match: kindIs(decode.KindInvalid)},

	"anomalies/malformed":    {need: bitAnomaly, match: anomalyIs(decode.FlagMalformed)},
	"anomalies/aborted":      {need: bitAnomaly, match: anomalyIs(decode.FlagAborted)},
	"anomalies/unterminated": {need: bitAnomaly, match: anomalyIs(decode.FlagUnterminated)},
	"anomalies/overlong":     {need: bitAnomaly, match: anomalyIs(decode.FlagOverlong)},
	"anomalies/ambiguous":    {need: bitAnomaly, match: anomalyIs(decode.FlagAmbiguous)},
	"anomalies/overflow":     {need: bitAnomaly, match: anomalyIs(decode.FlagOverflow)},

	"flags/query":       {need: kb(decode.KindCSI, decode.KindDCS, decode.KindOSC)},
	"flags/erase":       {need: kb(decode.KindCSI, decode.KindESC)},
	"flags/cursor_move": {need: kb(decode.KindCSI, decode.KindESC, decode.KindC1)},
	"flags/overwrite":   {need: bitCR | bitBS},
	"flags/sgr_conceal": {need: kb(decode.KindCSI)},
	"flags/title":       {need: kb(decode.KindOSC, decode.KindScreenTitle)},
	"flags/clipboard":   {need: kb(decode.KindOSC)},
	"flags/hyperlink":   {need: kb(decode.KindOSC)},
	"flags/alt_screen":  {need: kb(decode.KindCSI)},

	"kept/format": {need: kb(decode.KindFormat), unless: removesFormat, match: func(t *decode.Token, o *sanitize.Options) bool {
		return t.Kind == decode.KindFormat && !becomesLF(t, o)
	}},
	"kept/line_separators": {need: kb(decode.KindFormat), match: becomesLF},
	"kept/link_labels":     {need: kb(decode.KindOSC), found: findingIs("hyperlink", "")},
	"kept/vt_ff":           {need: kb(decode.KindC0), match: c0Is(0x0B, 0x0C)},
}

// reportGroups returns the report's counts by group, in the order of its
// fields.
func reportGroups(r *sanitize.Report) [4]struct {
	name   string
	counts []sanitize.NamedCount
} {
	return [4]struct {
		name   string
		counts []sanitize.NamedCount
	}{
		{"removed", r.Removed.ByName()}, {"anomalies", r.Anomalies.ByName()},
		{"flags", r.Flags.ByName()}, {"kept", r.Kept.ByName()},
	}
}

// reportItems lists the report pane's rows: every count of the report, in
// the order of its fields. A flag or anomaly that knownItems does not
// know is found through the sanitizer's findings, which carry its name.
var reportItems = func() []reportItem {
	var r sanitize.Report
	var items []reportItem
	for _, g := range reportGroups(&r) {
		for _, nc := range g.counts {
			it, ok := knownItems[g.name+"/"+nc.Name]
			if !ok && (g.name == "flags" || g.name == "anomalies") {
				it = reportItem{need: ^uint32(0), found: findingIs(nc.Name, "")}
			}
			if ok && !it.searchable() {
				it.found = findingIs(nc.Name, "")
			}
			it.group, it.name = g.name, nc.Name
			items = append(items, it)
		}
	}
	return items
}()

// seqItem is what n and N look for: any escape sequence, control
// sequence or control string.
var seqItem = reportItem{name: "sequence", need: anySeq, match: func(t *decode.Token, _ *sanitize.Options) bool {
	return t.Kind == decode.KindESC && t.Len > 1 || t.Kind == decode.KindNF || t.Kind == decode.KindCSI || t.Kind.IsString()
}}

// itemCounts returns the count of every report item, in reportItems order.
func itemCounts(r *sanitize.Report) []int64 {
	var out []int64
	for _, g := range reportGroups(r) {
		for _, nc := range g.counts {
			out = append(out, nc.Count)
		}
	}
	return out
}
