package sanitize

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/decode"
)

// Schema is the version of the JSON form of Report.
const Schema = "bytelens.report/v1"

// MaxFindings is how many findings a Report lists; past it they are only
// counted (Report.FindingsOmitted) — the per-flag counts stay exact.
const MaxFindings = 1000

// MaxNamed is how many distinct OSC command numbers, and how many distinct
// CSI keys, a Report counts by name; the strings past them count in
// OSCOther and CSIOther, and the first of each is a "report_capped"
// finding. With MaxFindings it bounds a Report whatever the input: at
// most 2×MaxNamed named counts and MaxFindings findings.
const MaxNamed = 64

// Report says what the sanitizer removed, kept and noticed, without
// repeating any of it. The only fields that name things are OSCCommands
// (OSC command numbers), CSIFinals (private marker, intermediates and final
// byte of CSIs) and Finding.Sequence (the same parts, plus CSI parameters
// where they name a query or mode). No field holds payload bytes. Its size
// is bounded whatever the input: MaxNamed keys in each of OSCCommands and
// CSIFinals, MaxFindings findings.
type Report struct {
	Schema string `json:"schema"`
	// Policy is the options in ParsePolicy's form.
	Policy string `json:"policy"`

	BytesIn  int64 `json:"bytes_in"`  // input bytes
	BytesOut int64 `json:"bytes_out"` // cleaned text bytes
	// BytesSwallowed counts bytes inside sequences and strings left open
	// at the end of the input.
	BytesSwallowed int64 `json:"bytes_swallowed"`
	// SwallowedByC1 is set when a raw byte 0x80–0x9F read as an 8-bit C1
	// introducer (ECMA-48 5.3, decode.Intro8Bit) opened what swallowed
	// them: C1Lone would have read it as a single control. The UTF-8
	// encoding of a C1 control (C2 80–C2 9F) opens strings under C1Lone
	// too, and does not set it.
	SwallowedByC1 bool `json:"swallowed_by_c1,omitempty"`

	Removed   Counts    `json:"removed"`
	Kept      Kept      `json:"kept"`
	Anomalies Anomalies `json:"anomalies"`
	Flags     Flags     `json:"flags"`

	// OSCCommands counts OSC strings by command number; -1 is a payload
	// that does not start with a number.
	OSCCommands map[int32]int64 `json:"osc_commands"`
	// CSIFinals counts CSIs by private marker, intermediates and final
	// byte ("m", "?h", " q").
	CSIFinals map[string]int64 `json:"csi_finals"`
	// OSCOther and CSIOther count the OSC strings and CSIs whose number
	// or key was not among the first MaxNamed seen.
	OSCOther int64 `json:"osc_other"`
	CSIOther int64 `json:"csi_other"`

	// Findings point at places: advisory flags and anomalies, each with
	// the byte offset of the token, in stream order.
	Findings        []Finding `json:"findings"`
	FindingsOmitted int64     `json:"findings_omitted"`
}

// Counts are removed tokens per class. Each sequence or string counts
// once, whatever its length; Invalid counts ill-formed UTF-8 units, each
// replaced by one U+FFFD.
type Counts struct {
	C0      int64 `json:"c0"`
	C1      int64 `json:"c1"`
	DEL     int64 `json:"del"`
	CR      int64 `json:"cr"`
	BS      int64 `json:"bs"`
	ESC     int64 `json:"esc"`
	CSI     int64 `json:"csi"`
	OSC     int64 `json:"osc"`
	DCS     int64 `json:"dcs"`
	APC     int64 `json:"apc"`
	PM      int64 `json:"pm"`
	SOS     int64 `json:"sos"`
	ESCk    int64 `json:"esc_k"`
	Format  int64 `json:"format"`
	Invalid int64 `json:"invalid_utf8"`
}

// Kept counts what survived in a changed form or was kept deliberately.
type Kept struct {
	// Format counts format characters kept (joining ones, or all under
	// FormatKeep) or escaped.
	Format int64 `json:"format"`
	// LinkLabels counts OSC 8 hyperlinks whose label was kept.
	LinkLabels int64 `json:"link_labels"`
	// LinkTargets counts URIs appended under LinksAppend.
	LinkTargets int64 `json:"link_targets"`
	// VTFF counts VT and FF turned into LF.
	VTFF int64 `json:"vt_ff"`
	// LineSeparators counts U+2028 and U+2029 turned into LF.
	LineSeparators int64 `json:"line_separators"`
	// NonASCIIBlanks counts the space separators other than U+0020 in the
	// cleaned text (IsNonASCIIBlank: U+00A0, U+1680, U+2000–U+200A,
	// U+202F, U+205F, U+3000), kept as they are: one looks like an ASCII
	// space, so a choice among them can carry hidden bits. A CI gate can
	// fail on them (ReportClasses); they have no findings.
	NonASCIIBlanks int64 `json:"nonascii_blanks"`
}

// Anomalies count malformed input, by decode flag.
type Anomalies struct {
	Malformed    int64 `json:"malformed"`
	Aborted      int64 `json:"aborted"`
	Unterminated int64 `json:"unterminated"`
	Overlong     int64 `json:"overlong"`
	Ambiguous    int64 `json:"ambiguous"`
	Overflow     int64 `json:"overflow"`
	// Split counts sequences and strings that straddle a frame or chunk
	// boundary marked with Writer.Frame: a known evasion of per-chunk
	// strippers, decoded whole here.
	Split int64 `json:"split"`
}

// Flags count what a person at a terminal would have been shown
// differently, though nothing leaked.
type Flags struct {
	// Query: the terminal would have typed a reply (DA, DSR/CPR, XTWINOPS
	// reports, DECRQM, XTVERSION, DECREQTPARM, DECRQPSR, DECRQCRA,
	// DECRQLP, XTREPORTSGR, DECID, DECRQSS, XTGETTCAP, OSC 4/10–19/50/52
	// reads). Which function raises which flag is package ctlfunc's
	// catalogue.
	Query int64 `json:"query"`
	// Erase: text erased (ED, EL, ECH, DCH, DL, DECSED, DECSEL, DECERA,
	// DECSERA, RIS).
	Erase int64 `json:"erase"`
	// CursorMove: the cursor moved so that text could be painted over.
	CursorMove int64 `json:"cursor_move"`
	// Overwrite: CR or BS followed by text on the same line.
	Overwrite int64 `json:"overwrite"`
	// SGRConceal: SGR 8, concealed text.
	SGRConceal int64 `json:"sgr_conceal"`
	// Title: a window or icon title set (OSC 0/1/2, ESC k).
	Title int64 `json:"title"`
	// Clipboard: an OSC 52 clipboard write or read.
	Clipboard int64 `json:"clipboard"`
	// Hyperlink: an OSC 8 link opened.
	Hyperlink int64 `json:"hyperlink"`
	// AltScreen: the alternate screen entered (DECSET 47/1047/1049).
	AltScreen int64 `json:"alt_screen"`
	// Reorder: a bidi embedding, override or isolate (U+202A–U+202E,
	// U+2066–U+2069) would have shown text in another order than it is
	// read (Trojan Source); one finding per character.
	Reorder int64 `json:"reorder"`
	// Invisible: a run of invisible characters that the default format
	// policy removes (zero-width characters, tags, fillers, selectors
	// past the one a base character takes), whatever the policy did with
	// it; one finding per run, with its offset and length in bytes.
	Invisible int64 `json:"invisible"`
}

// Finding points at one place in the input.
type Finding struct {
	// Offset is the byte offset of the token from the start of the stream.
	Offset int64 `json:"offset"`
	// Kind is an advisory flag ("query", "title", "invisible"…), an
	// anomaly ("unterminated", "ambiguous"…), or "report_capped" where the
	// report began to count OSC numbers or CSI keys as other.
	Kind string `json:"kind"`
	// Sequence names the token without its payload: "CSI 6n", "OSC 52
	// write", "DCS $q", "BS".
	Sequence string `json:"sequence"`
	// Bytes is the token's length in bytes.
	Bytes int64 `json:"bytes"`
}

// csiKey packs a CSI's private marker, intermediates and final byte.
type csiKey [4]byte

func (k csiKey) String() string {
	b := make([]byte, 0, 4)
	for _, c := range k {
		if c != 0 {
			b = append(b, c)
		}
	}
	return string(b)
}

// report accumulates a Report without allocating per token: the common
// CSI shapes (no intermediates), OSC numbers below 128 and OSCs without a
// number count in arrays, the rest in tables of at most MaxNamed keys
// (snapshot makes the maps).
type report struct {
	Report
	csiPlain [5][64]int64          // no intermediates: [private marker index][plainColumn(final)]
	csi      namedCounts           // other CSI keys, as csiKey.uint32
	osc      [oscNumbers + 1]int64 // OSC numbers below oscNumbers, at oscIndex (the OSCs without one, -1, at 0)
	oscOther namedCounts           // other OSC numbers, as uint32

	namedCSI, namedOSC int // distinct keys counted by name, up to MaxNamed

	// Advisory classes and anomalies in the catalogue's order
	// (ctlfunc.Classes, ctlfunc.Anomalies); snapshot fills Flags and
	// Anomalies from them.
	classes   [16]int64
	anomalies [8]int64
	// byKind counts removed tokens by decode kind, for the Counts fields
	// that are one kind each (snapshot); C0 controls, which split into
	// C0, CR and BS, and format characters count in Removed directly
	// (byKind[KindFormat] counts the bidi controls the memo recalls, and
	// is not read).
	byKind [16]int64
}

// policyOf returns Report.Policy under o: o.String(), built once for the
// default Options.
func policyOf(o Options) string {
	if o == (Options{}) {
		return defaultPolicy
	}
	return o.String()
}

// defaultPolicy is the Policy of the default Options, built once: String
// of a short input (capture.CleanField on each manifest field) would
// spend most of its allocations building it again.
var defaultPolicy = Options{}.String()

// namedCounts counts 32-bit keys, at most MaxNamed of them, in an
// open-addressed table of twice as many slots (a lookup is a hash and a
// probe or two, where a map's is a call and a hash of the key's bytes).
// key holds a key k as k|1<<32, 0 for a free slot.
type namedCounts struct {
	key [2 * MaxNamed]uint64
	n   [2 * MaxNamed]int64
}

// slot returns the slot that holds k, or the free slot where k goes.
func (t *namedCounts) slot(k uint32) int {
	i := int(k * 0x9E3779B1 >> (32 - namedBits))
	for t.key[i] != 0 && t.key[i] != uint64(k)|1<<32 {
		i = (i + 1) & (2*MaxNamed - 1)
	}
	return i
}

// namedBits is log2 of the slots of a namedCounts.
const namedBits = 7

// count adds one to k when k is counted already, or is admitted (admit,
// which the caller's closure calls only for a key not seen before).
func (t *namedCounts) count(k uint32, admit func() bool) {
	i := t.slot(k)
	if t.key[i] == 0 {
		if !admit() {
			return
		}
		t.key[i] = uint64(k) | 1<<32
	}
	t.n[i]++
}

// each calls f with each key and its count.
func (t *namedCounts) each(f func(k uint32, n int64)) {
	for i, k := range t.key {
		if k != 0 {
			f(uint32(k), t.n[i])
		}
	}
}

// uint32 packs k for namedCounts.
func (k csiKey) uint32() uint32 { return binary.LittleEndian.Uint32(k[:]) }

// privateMarkers are the CSI private markers, in csiPlain's order.
const privateMarkers = "\x00<=>?"

// privateIndex gives the index of each byte in privateMarkers, or -1.
var privateIndex = func() (t [256]int8) {
	for i := range t {
		t[i] = int8(strings.IndexByte(privateMarkers, byte(i)))
	}
	return t
}()

// countCSI counts the CSI t by private marker, intermediates and final
// byte.
func (r *report) countCSI(t *decode.Token) {
	r.countCSIKey(csiKey{t.Private, t.Inter[0], t.Inter[1], t.Final}, t.NInter, t.Off, t.Len)
}

// plainColumn returns the column of csiPlain where a CSI without
// intermediates whose final byte is final counts: final-0x40 for a final
// byte (0x40–0x7E), abortedColumn for an aborted CSI (final 0), which
// random bytes are full of; past the row for any other byte.
func plainColumn(final byte) uint {
	col := uint(final - 0x40)
	if col >= abortedColumn {
		col = abortedColumn + 1
	}
	if final == 0 {
		col = abortedColumn
	}
	return col
}

// abortedColumn is the column of csiPlain that counts aborted CSIs, the
// last: 0x7F, which would be there, is no final byte.
const abortedColumn = 0x3F

// plainCSI returns the counter of csiPlain where a CSI of key k with
// nInter intermediates counts, nil for one that counts in csi.
func (r *report) plainCSI(k csiKey, nInter uint8) *int64 {
	if i, col := privateIndex[k[0]], plainColumn(k[3]); i >= 0 && nInter == 0 && col <= abortedColumn {
		return &r.csiPlain[i][col]
	}
	return nil
}

// countCSIKey counts a CSI of n bytes at off by its key k (private marker,
// the first two of its nInter intermediates, final byte).
func (r *report) countCSIKey(k csiKey, nInter uint8, off, n int64) {
	if c := r.plainCSI(k, nInter); c != nil && *c > 0 {
		*c++
		return
	}
	r.countNewCSI(k, nInter, off, n)
}

// countNewCSI is countCSIKey for a key not yet counted, or one with
// intermediates.
func (r *report) countNewCSI(k csiKey, nInter uint8, off, n int64) {
	if c := r.plainCSI(k, nInter); c != nil {
		if r.admit(&r.namedCSI, &r.CSIOther, off, n, "CSI keys") {
			*c++
		}
		return
	}
	r.csi.count(k.uint32(), func() bool { return r.admit(&r.namedCSI, &r.CSIOther, off, n, "CSI keys") })
}

// csiCounter returns where one more CSI of key k with nInter
// intermediates counts, as countCSIKey would count it, when that is one
// more on a counter and nothing else: k counted by name already, or
// CSIOther once the report counts new keys there (its finding made); nil
// when k would be admitted now.
func (r *report) csiCounter(k csiKey, nInter uint8) *int64 {
	if c := r.plainCSI(k, nInter); c != nil {
		if *c > 0 {
			return c
		}
	} else if i := r.csi.slot(k.uint32()); r.csi.key[i] != 0 {
		return &r.csi.n[i]
	}
	return otherCounter(r.namedCSI, &r.CSIOther)
}

// oscNumbers is how many OSC numbers, from 0, report.osc counts by index.
const oscNumbers = 128

// oscIndex returns the index in report.osc where the OSC number cmd
// counts, cmd+1, which puts the OSCs without a number (-1), which random
// bytes are full of, at 0 and takes one test for all; or -1 for one that
// counts in oscOther.
func oscIndex(cmd int32) int {
	if i := uint32(cmd) + 1; i <= oscNumbers {
		return int(i)
	}
	return -1
}

// oscCounter is csiCounter for an OSC of command number cmd (countOSC).
func (r *report) oscCounter(cmd int32) *int64 {
	if i := oscIndex(cmd); i >= 0 {
		if n := &r.osc[i]; *n > 0 {
			return n
		}
	} else if i := r.oscOther.slot(uint32(cmd)); r.oscOther.key[i] != 0 {
		return &r.oscOther.n[i]
	}
	return otherCounter(r.namedOSC, &r.OSCOther)
}

// otherCounter returns other when a key not yet counted is counted there
// and nothing else (admit): named is full and the first such key has had
// its finding; else nil.
func otherCounter(named int, other *int64) *int64 {
	if named >= MaxNamed && *other > 0 {
		return other
	}
	return nil
}

// countOSC counts the OSC t by command number.
func (r *report) countOSC(t *decode.Token) { r.countOSCNum(t.Command, t.Off, t.Len) }

// countOSCNum counts an OSC of n bytes at off by its command number cmd.
func (r *report) countOSCNum(cmd int32, off, n int64) {
	if i := oscIndex(cmd); i >= 0 {
		if c := &r.osc[i]; *c > 0 || r.admit(&r.namedOSC, &r.OSCOther, off, n, "OSC numbers") {
			*c++
		}
		return
	}
	r.oscOther.count(uint32(cmd), func() bool { return r.admit(&r.namedOSC, &r.OSCOther, off, n, "OSC numbers") })
}

// admit says whether a key not seen before is counted by name: while
// *named is below MaxNamed it is, and counted in *named; past it the token
// (n bytes at off) counts in *other, and the first such token is a
// finding.
func (r *report) admit(named *int, other *int64, off, n int64, what string) bool {
	if *named < MaxNamed {
		*named++
		return true
	}
	if *other == 0 {
		r.find(off, "report_capped", what+" past "+strconv.Itoa(MaxNamed)+" counted as other", n)
	}
	*other++
	return false
}

func (r *report) find(off int64, kind, seq string, n int64) {
	if len(r.Findings) >= MaxFindings {
		r.FindingsOmitted++
		return
	}
	r.Findings = append(r.Findings, Finding{Offset: off, Kind: kind, Sequence: seq, Bytes: n})
}

// snapshot returns the public report. The counters a report of a short
// input leaves at zero are not read: the classes and anomalies (their
// fields are the catalogue's, which nothing else writes), and the CSI
// keys and OSC numbers when none was admitted (a key's counter leaves
// zero only through admit, which counts it in namedCSI or namedOSC).
func (r *report) snapshot() Report {
	out := r.Report
	if r.classes != [len(r.classes)]int64{} {
		flags := reflect.ValueOf(&out.Flags).Elem()
		for i, f := range flagCounters {
			flags.Field(f).SetInt(r.classes[i])
		}
	}
	if r.anomalies != [len(r.anomalies)]int64{} {
		anomalies := reflect.ValueOf(&out.Anomalies).Elem()
		for i, f := range anomalyCounters {
			anomalies.Field(f).SetInt(r.anomalies[i])
		}
	}
	k := &r.byKind
	out.Removed.C1, out.Removed.DEL, out.Removed.Invalid = k[decode.KindC1], k[decode.KindDEL], k[decode.KindInvalid]
	out.Removed.ESC, out.Removed.CSI, out.Removed.OSC = k[decode.KindESC]+k[decode.KindNF], k[decode.KindCSI], k[decode.KindOSC]
	out.Removed.DCS, out.Removed.APC, out.Removed.PM = k[decode.KindDCS], k[decode.KindAPC], k[decode.KindPM]
	out.Removed.SOS, out.Removed.ESCk = k[decode.KindSOS], k[decode.KindScreenTitle]
	out.CSIFinals = map[string]int64{}
	if r.namedCSI > 0 {
		r.csi.each(func(k uint32, n int64) {
			var key csiKey
			binary.LittleEndian.PutUint32(key[:], k)
			out.CSIFinals[key.String()] += n
		})
		for i, row := range r.csiPlain {
			for f, n := range row {
				if final := byte(0x40 + f); n > 0 {
					if f == abortedColumn {
						final = 0
					}
					out.CSIFinals[csiKey{privateMarkers[i], 0, 0, final}.String()] += n
				}
			}
		}
	}
	out.OSCCommands = map[int32]int64{}
	if r.namedOSC > 0 {
		r.oscOther.each(func(k uint32, n int64) { out.OSCCommands[int32(k)] = n })
		for i, n := range r.osc {
			if n > 0 {
				out.OSCCommands[int32(i)-1] = n // oscIndex
			}
		}
	}
	out.Findings = append([]Finding{}, r.Findings...)
	slices.SortStableFunc(out.Findings, func(a, b Finding) int { return cmp.Compare(a.Offset, b.Offset) })
	return out
}

// Clean reports whether nothing was removed, replaced or flagged.
func (r *Report) Clean() bool {
	return r.Removed == (Counts{}) && r.Anomalies == (Anomalies{}) && r.Flags == (Flags{}) &&
		r.Kept.LinkLabels == 0 && r.Kept.VTFF == 0 && r.Kept.LineSeparators == 0
}

// ByName returns the removal counts keyed by their JSON names, in
// the order of Counts' fields.
func (c Counts) ByName() []NamedCount { return byJSON(c) }

// ByName returns the anomaly counts keyed by their JSON names, in the
// order of Anomalies' fields.
func (a Anomalies) ByName() []NamedCount { return byJSON(a) }

// ByName returns the flag counts keyed by their JSON names, in the order
// of Flags' fields.
func (f Flags) ByName() []NamedCount { return byJSON(f) }

// ByName returns the kept counts keyed by their JSON names, in the order
// of Kept's fields.
func (k Kept) ByName() []NamedCount { return byJSON(k) }

// byJSON lists the int64 fields of the struct v with their JSON names:
// the struct's tags are the one list of the report's names.
func byJSON(v any) []NamedCount {
	rv := reflect.ValueOf(v)
	out := make([]NamedCount, rv.NumField())
	for i := range out {
		out[i] = NamedCount{rv.Type().Field(i).Tag.Get("json"), rv.Field(i).Int()}
	}
	return out
}

// NamedCount is one count with its JSON name.
type NamedCount struct {
	Name  string
	Count int64
}

// SortedOSC returns OSCCommands as "OSC n" names with counts, by number.
func (r *Report) SortedOSC() []NamedCount {
	keys := make([]int32, 0, len(r.OSCCommands))
	for k := range r.OSCCommands {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([]NamedCount, len(keys))
	for i, k := range keys {
		name := fmt.Sprintf("OSC %d", k)
		if k < 0 {
			name = "OSC (no number)"
		}
		out[i] = NamedCount{name, r.OSCCommands[k]}
	}
	if r.OSCOther > 0 {
		out = append(out, NamedCount{"OSC other", r.OSCOther})
	}
	return out
}

// SortedCSI returns CSIFinals as "CSI ?h" names with counts, by name; the
// empty key of a CSI left open before anything of its own is "CSI", as
// Name calls it.
func (r *Report) SortedCSI() []NamedCount {
	out := make([]NamedCount, 0, len(r.CSIFinals))
	for k, n := range r.CSIFinals {
		name := "CSI"
		if k != "" {
			name += " " + k
		}
		out = append(out, NamedCount{name, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	if r.CSIOther > 0 {
		out = append(out, NamedCount{"CSI other", r.CSIOther})
	}
	return out
}

// LoaderJenkinsNoteMalformed is the LoaderAnomaly class of a Jenkins
// ConsoleNote preamble ("ESC [8m ha:") that does not begin a well-formed
// note (hudson.console.ConsoleNote: a bad MAC, length, gzip header or
// base64), which the loader keeps as text.
const LoaderJenkinsNoteMalformed = "jenkins_note_malformed"

// LoaderAnomalyClasses lists the LoaderAnomaly classes, which a CI gate
// can fail on (ReportClasses).
var LoaderAnomalyClasses = []string{LoaderJenkinsNoteMalformed}

// LoaderAnomaly counts one class of malformed recorder annotations that a
// capture loader kept in a stream as text, rather than removing them as a
// LoaderRemoval: the sanitizer then cleans their bytes like any others.
// It names the class, never the bytes.
type LoaderAnomaly struct {
	// Class is one of LoaderAnomalyClasses.
	Class string `json:"class"`
	// Count is the number of annotations.
	Count int64 `json:"count"`
	// FirstOffset is the byte offset of the first in the capture file
	// (not in the stream, from which removed annotations are gone).
	FirstOffset int64 `json:"first_offset"`
}

// LoaderRemoval counts one class of recorder annotations that a capture
// loader removed from a stream before cleaning (Jenkins ConsoleNotes,
// timestamp prefixes): not terminal output, so not in the Report. It
// names the class, never the removed bytes.
type LoaderRemoval struct {
	// Class names the annotation, such as "jenkins_note" or "timestamp".
	Class string `json:"class"`
	// Count is the number of annotations removed.
	Count int64 `json:"count"`
	// Bytes is their total length in bytes.
	Bytes int64 `json:"bytes"`
}
