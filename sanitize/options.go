// Package sanitize turns a terminal byte stream into plain, agent-safe
// UTF-8 text and a removal report, by policy over the tokens of package
// decode.
//
// Cleaned text keeps the meaning (text, line breaks, link labels) and none
// of the control traffic: it holds no ESC, no C0 but TAB and LF, no DEL, no
// C1 in either spelling, and is valid UTF-8. Valid UTF-8 text without
// controls and without the format characters the policy removes comes out
// byte for byte. The report counts what was removed without repeating it.
//
// # Format characters
//
// Unicode format and invisible characters (decode.ClassifyFormat) are
// decided by this table. "Removed" is the default policy, FormatStrip;
// FormatKeep keeps them and FormatEscape writes them as "<U+202E>", each
// counted in Report.Kept.Format. A character kept by its context is kept
// under every policy.
//
//	characters                                  kept when                              otherwise        flag
//	ZWJ U+200D                                   inside an emoji ZWJ sequence, or       removed          invisible
//	                                               between letters or marks of joining
//	                                               or Indic scripts
//	ZWNJ U+200C                                  between letters or marks of joining    removed          invisible
//	                                               or Indic scripts
//	LRM, RLM U+200E–U+200F, ALM U+061C           after a right-to-left letter or        removed          invisible
//	                                               digit, or between a neutral or
//	                                               number and right-to-left text
//	SHY U+00AD                                   between two letters, not both ASCII    removed          invisible
//	  (all six: joiningRules, and never right
//	  after another of them: a run would carry
//	  ZWNJ/ZWJ bits; after ASCII text none is
//	  needed)
//	variation selectors U+FE00–U+FE0F            the one selector directly after a      removed          invisible
//	                                               number, punctuation or symbol (of
//	                                               ASCII only # * 0-9), or a letter of
//	                                               Han, Myanmar, Phags-pa, Manichaean,
//	                                               Egyptian hieroglyphs, or U+2139;
//	                                               after # * 0-9 only in a keycap
//	                                               (U+20E3 next)
//	ideographic selectors U+E0100–U+E01EF        the one selector directly after an     removed          invisible
//	                                               ideograph
//	Mongolian FVS1–FVS4, MVS U+180B–U+180F       the one directly after a Mongolian     removed          invisible
//	                                               character
//	Hangul fillers U+115F, U+1160                inside a conjoining jamo sequence:     removed          invisible
//	                                               U+115F before a vowel jamo, U+1160
//	                                               after a leading consonant jamo (the
//	                                               two together, a blank, are removed)
//	bidi embeddings, overrides, isolates         never                                  removed          reorder, each
//	  U+202A–U+202E, U+2066–U+2069
//	U+200B, U+2060–U+2064, U+206A–U+206F,        never                                  removed          invisible
//	  U+FEFF, U+FFF9–U+FFFB, U+034F, U+3164,
//	  U+FFA0, U+17B4–U+17B5, U+1D173–U+1D17A,
//	  U+1BCA0–U+1BCA3, U+13430–U+1343F, Tags
//	  U+E0000–U+E007F, and the unassigned
//	  default-ignorable U+2065, U+FFF0–U+FFF8,
//	  U+E0080–U+E00FF, U+E01F0–U+E0FFF
//	LINE SEPARATOR, PARAGRAPH SEPARATOR          —                                      LF               —
//	  U+2028–U+2029                                                                       (Kept.LineSeparators)
//
// "Directly after" means in the input: the character before is the last
// one of the token just before, so a selector after a removed control,
// after a removed character or after another selector is removed. One of
// the six joining characters after a removed control or character is
// judged as at the start of the text and also by the last character
// written, which stands next to it in the cleaned text: it is kept only
// if both keep it, so that cleaning the cleaned text again keeps the same
// (under FormatEscape too, whose second pass differs by design only in
// telling its escapes from the text's). A run
// of adjacent characters that the table removes raises one invisible flag
// with one finding (its offset and length in bytes, the number of
// characters, never which ones: they are the hidden message), under every
// policy. Each bidi control raises reorder with a finding at its offset.
//
// Under FormatEscape the cleaned text could hold the text "<U+202E>" next
// to an escaped override; so a literal '<' that begins the spelling of an
// escape ("<U+" four to six upper-case hex digits ">", judged on the
// cleaned text, across removed controls) is written "<U+003C>". Under
// BSOverstrike the spelling is judged on the text as written, before an
// overwrite changes it. Under CRScreen format characters draw nothing and
// are not written, whatever the policy (see CRScreen).
package sanitize

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// CRPolicy says what becomes of carriage returns.
type CRPolicy uint8

// CR policies.
const (
	// CRLines: a run of CRs followed by LF is one LF (CRLF, a pty's
	// "\r\r\n"); any other run of CRs is one LF, so each frame of a
	// progress line stays visible.
	CRLines CRPolicy = iota
	// CRScreen ("screen", alias "overwrite") writes each line as a
	// terminal finally showed it: the bytes drive package screen's model
	// of an xterm, 1000 columns wide and 50 rows high, with LF (and VT,
	// FF) taken as CR LF as a tty's ONLCR would, and the text is the
	// model's rows. A row is written when it scrolls off the top of the
	// whole screen, and at the end of the stream the screen then shown
	// (the alternate one if the program left it on) is written from its
	// top row to the last that shows anything, so a Writer holds up to
	// 50 lines until more arrive or Close. Everything the model applies
	// acts as on a terminal: CR, BS, HT, the erases (EL, ED, ECH),
	// cursor moves and repaints (CUU, CUD, CUF, CUB, CUP, HVP, CHA, VPA,
	// IND, RI, NEL), insert and delete (ICH, DCH, IL, DL, IRM), scroll
	// regions and scrolling (DECSTBM, SU, SD), save and restore (DECSC,
	// DECRC), REP, DEC special graphics (drawn as the box characters
	// they stand for) and the alternate screen; sequences it does not
	// know change nothing. So printf 'abcdef\r\033[Kxy\n' gives "xy",
	// and a line that a cursor-up repaint draws over is written once,
	// as repainted. Each row is its characters, a space for each blank
	// cell (never drawn, erased, moved over by HT or a cursor move) and
	// for each character drawn concealed (SGR 8) or in a foreground
	// equal or near equal to its background (after reverse video), with
	// trailing blanks trimmed; a row autowrap continued on the next is
	// one line with it, so a line longer than 1000 columns is not
	// broken. A cell keeps its character and first combining mark;
	// format characters (bidi controls, zero-width characters) draw
	// nothing and are not written. Text that the screen no longer shows
	// — overwritten, erased, scrolled out of a scroll region smaller
	// than the screen, left on the alternate screen — is not written:
	// bytelens report --screen lists it. BSPolicy, LinkPolicy and
	// FormatPolicy do not change the text (BS moves the cursor, link
	// targets are never shown, format characters draw nothing); the C1
	// and APC BEL choices select the grammar as always. The report's
	// counts, flags and findings are those of CRLines; BytesOut is the
	// length of the screen's text. Map's offset map ties each character
	// to the bytes that drew it (see OffsetMap), and Writer.LineInput
	// says where each line's input begins.
	CRScreen
	// CRDrop removes every CR.
	CRDrop
)

// BSPolicy says what becomes of backspaces.
type BSPolicy uint8

// BS policies.
const (
	// BSDrop removes each BS, counts it and flags an overwrite.
	BSDrop BSPolicy = iota
	// BSOverstrike applies it: "x BS y" keeps y, as col -b does for
	// man-page bold and underline.
	BSOverstrike
)

// LinkPolicy says what becomes of OSC 8 hyperlinks.
type LinkPolicy uint8

// Link policies.
const (
	// LinksDrop keeps the label as text and drops the target.
	LinksDrop LinkPolicy = iota
	// LinksAppend keeps the label and appends " <URI>" after it when the
	// URI is printable http or https of at most MaxLinkURI bytes.
	LinksAppend
)

// FormatPolicy says what becomes of the Unicode format characters that
// reorder or hide text: those of class decode.FormatHiding, and those of
// the contextual classes that their context does not keep (see "Format
// characters" in the package documentation), the joining characters
// (ZWJ, ZWNJ, LRM, RLM, ALM, soft hyphen) among them.
type FormatPolicy uint8

// Format character policies.
const (
	// FormatStrip removes them and counts them; U+2028 and U+2029
	// become LF.
	FormatStrip FormatPolicy = iota
	// FormatKeep keeps them and counts them.
	FormatKeep
	// FormatEscape shows each as "<U+202E>", and a literal '<' that
	// begins the same spelling as "<U+003C>".
	FormatEscape
)

// C1Policy says what a raw 8-bit byte 0x80–0x9F means.
type C1Policy uint8

// C1 policies.
const (
	// C1Introducers: as in 8-bit terminals, 9B opens a CSI, 9D an OSC, 90
	// a DCS, 98 SOS, 9E PM, 9F APC; the others are single controls.
	C1Introducers C1Policy = iota
	// C1Lone: each is a single removed control, for legacy 8-bit text
	// such as CP1252.
	C1Lone
)

// MaxLinkURI is the longest URI in bytes that LinksAppend shows.
const MaxLinkURI = 2048

// Options selects the policies. The zero value means the documented
// defaults: CR lines, BS drop, links drop, format characters strip, C1
// introducers, BEL is APC payload, control strings flagged overlong past
// 4096 payload bytes.
type Options struct {
	CR          CRPolicy
	BS          BSPolicy
	Links       LinkPolicy
	FormatChars FormatPolicy
	C1          C1Policy
	// APCBEL ends APC strings at BEL (Buildkite-style timestamps).
	APCBEL bool
	// MaxPayload is the payload length in bytes past which a control
	// string is reported overlong; 0 means 4096.
	MaxPayload int64
}

var (
	crNames       = []string{"lines", "screen", "drop"}
	bsNames       = []string{"drop", "overstrike"}
	linkNames     = []string{"drop", "append"}
	formatNames   = []string{"strip", "keep", "escape"}
	c1PolicyNames = []string{"introducers", "lone"}
)

func (p CRPolicy) String() string     { return crNames[p] }
func (p BSPolicy) String() string     { return bsNames[p] }
func (p LinkPolicy) String() string   { return linkNames[p] }
func (p FormatPolicy) String() string { return formatNames[p] }
func (p C1Policy) String() string     { return c1PolicyNames[p] }

// policyAliases maps, per policy key, other names Set accepts to the
// value's own: "overwrite", the one-line emulation that CRScreen
// replaced, is the screen's view of a line.
var policyAliases = map[string]map[string]string{"cr": {"overwrite": "screen"}}

// PolicyKeys lists the names Set accepts, in the order String writes them.
var PolicyKeys = []string{"cr", "bs", "links", "format-chars", "c1", "apc-bel", "max-payload"}

// Set sets the policy named key ("cr", "bs", "links", "format-chars",
// "c1", "apc-bel", "max-payload") from its command-line spelling, or an
// alias of it ("overwrite" for "cr=screen"). It returns an error naming
// the accepted values when key or value is unknown.
func (o *Options) Set(key, value string) error {
	pick := func(names []string, set func(int)) error {
		name := value
		if a, ok := policyAliases[key][value]; ok {
			name = a
		}
		for i, n := range names {
			if n == name {
				set(i)
				return nil
			}
		}
		return fmt.Errorf("invalid %s policy %q (want %s)", key, value, strings.Join(PolicyValues(key), ", "))
	}
	switch key {
	case "cr":
		return pick(crNames, func(i int) { o.CR = CRPolicy(i) })
	case "bs":
		return pick(bsNames, func(i int) { o.BS = BSPolicy(i) })
	case "links":
		return pick(linkNames, func(i int) { o.Links = LinkPolicy(i) })
	case "format-chars":
		return pick(formatNames, func(i int) { o.FormatChars = FormatPolicy(i) })
	case "c1":
		return pick(c1PolicyNames, func(i int) { o.C1 = C1Policy(i) })
	case "apc-bel":
		v, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("invalid apc-bel value %q (want true or false)", value)
		}
		o.APCBEL = v
		return nil
	case "max-payload":
		v, err := strconv.ParseInt(value, 10, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("invalid max-payload %q (want a byte count)", value)
		}
		o.MaxPayload = v
		return nil
	}
	return fmt.Errorf("unknown policy %q (want one of %s)", key, strings.Join(PolicyKeys, ", "))
}

// ParsePolicy applies a comma-separated list of key=value settings, such
// as "cr=overwrite,format-chars=keep", to the defaults.
func ParsePolicy(s string) (Options, error) {
	var o Options
	err := o.Apply(s)
	return o, err
}

// Apply applies key=value settings separated by commas or line feeds (a
// policy file holds one per line) to o with Set. Blank items are skipped;
// the first bad one stops it with an error naming it.
func (o *Options) Apply(settings string) error {
	for item := range strings.FieldsFuncSeq(settings, func(r rune) bool { return r == ',' || r == '\n' }) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok {
			return fmt.Errorf("policy setting %q is not key=value", item)
		}
		if err := o.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

// DefaultMaxPayload is the payload length in bytes past which a control
// string is reported overlong when Options.MaxPayload is 0.
const DefaultMaxPayload = 4096

// maxPayload resolves the MaxPayload default.
func (o Options) maxPayload() int64 {
	if o.MaxPayload <= 0 {
		return DefaultMaxPayload
	}
	return o.MaxPayload
}

// String returns the options in ParsePolicy's form, every key spelled out.
func (o Options) String() string {
	items := make([]string, len(PolicyKeys))
	for i, k := range PolicyKeys {
		items[i] = k + "=" + o.Get(k)
	}
	return strings.Join(items, ",")
}

// policyChoices maps each policy key with named values to them.
var policyChoices = map[string][]string{
	"cr": crNames, "bs": bsNames, "links": linkNames, "format-chars": formatNames, "c1": c1PolicyNames,
	"apc-bel": {"false", "true"},
}

// PolicyValues returns the values Set accepts for key, the default first
// and aliases last ("lines", "screen", "drop", "overwrite" for "cr"), for
// help texts and shell completion. It returns nil for "max-payload" (a
// byte count) and for unknown keys.
func PolicyValues(key string) []string {
	vals := slices.Clone(policyChoices[key])
	for _, a := range slices.Sorted(maps.Keys(policyAliases[key])) {
		vals = append(vals, a)
	}
	return vals
}

// CompleteSettings returns, for shell completion of a comma-separated
// key=value list (bytelens diff --b-policy, view --compare-policy), every
// key=value setting with a named value (PolicyValues) that its last item
// can become, each after the items before it: "cr=drop,l" gives
// "cr=drop,cr=lines", "cr=drop,cr=screen" and so on, for the shell to
// filter.
func CompleteSettings(word string) []string {
	prefix := word[:strings.LastIndexByte(word, ',')+1]
	var out []string
	for _, k := range PolicyKeys {
		for _, v := range PolicyValues(k) {
			out = append(out, prefix+k+"="+v)
		}
	}
	return out
}
