package excerpt

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// Limits of one call, in lines, bytes and matches.
const (
	// MaxCallLines is the most lines one call returns.
	MaxCallLines = 200
	// MaxCallBytes is the most cleaned text one call returns, in bytes;
	// the line that crosses it is cut and marked (Line.Cut).
	MaxCallBytes = 16 << 10
	// MaxMatches is the most matching lines one Grep call returns.
	MaxMatches = 50
	// MaxContext is the most context lines Grep shows on each side.
	MaxContext = 10
)

// Errors for bad questions; test them with errors.Is. Their messages never
// repeat a pattern or text of the record.
var (
	// ErrRange reports a line range that is empty, reversed or outside
	// the stream.
	ErrRange = errors.New("bad line range")
	// ErrPattern reports a pattern that is not valid RE2.
	ErrPattern = errors.New("invalid RE2 pattern")
	// ErrStream reports a stream the record does not have.
	ErrStream = errors.New("no such stream")
)

// Record is the cleaned text of one raw artifact in a store.
type Record struct {
	// Meta is the record's meta.json.
	Meta Meta
	st   *store.Store
	ref  store.Ref
	opts sanitize.Options // Meta.Policy parsed
}

// Open opens the cleaned text of the artifact ref. It fails with an error
// wrapping store.ErrNotFound when the store keeps none (the artifact is
// unknown, was written without a sidecar, or the text was pruned).
func Open(st *store.Store, ref store.Ref) (*Record, error) {
	f, err := st.OpenClean(ref, "meta.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &Record{st: st, ref: ref}
	b, err := io.ReadAll(io.LimitReader(f, store.MaxManifest))
	if err != nil {
		return nil, err
	}
	var v any
	if json.Unmarshal(b, &r.Meta) != nil || r.Meta.Schema != MetaSchema || json.Unmarshal(b, &v) != nil {
		return nil, fmt.Errorf("%w: meta.json of %s is not %s", store.ErrFormat, ref, MetaSchema)
	}
	// Its strings are cleaned under the default policy whatever the
	// record's (capture.CleanField; findings name a format character as
	// <U+202E>), so none holds a bidi control (writes).
	if !sanitize.CleanJSON(v, keepFormat) || !sanitize.EveryJSONString(v, func(s string) bool { return writes(s, &sanitize.Options{}) }) {
		return nil, fmt.Errorf("%w: meta.json of %s holds a string that cleaning changes", store.ErrFormat, ref)
	}
	if r.opts, err = sanitize.ParsePolicy(r.Meta.Policy); err != nil {
		return nil, fmt.Errorf("%w: meta.json of %s holds a policy that is not one", store.ErrFormat, ref)
	}
	return r, nil
}

// Policy returns the options the record's text was cleaned under, as
// its meta.json says: a reader that serves the text under a policy of
// its own refuses a record whose policy writes what its own removes
// (format-chars=keep), since meta.json can be rewritten as the text can.
func (r *Record) Policy() sanitize.Options { return r.opts }

// clean reports whether s is what cleaning writes under any policy: text
// that cleaning with every format character kept leaves unchanged (no
// control, valid UTF-8).
func clean(s string) bool { return sanitize.Text(s, keepFormat) == s }

// Stream returns the meta of stream name, or an error wrapping ErrStream.
func (r *Record) Stream(name string) (*StreamMeta, error) {
	for i := range r.Meta.Streams {
		if r.Meta.Streams[i].Name == name {
			return &r.Meta.Streams[i], nil
		}
	}
	return nil, fmt.Errorf("%w %s in %s", ErrStream, strconv.Quote(name), r.ref)
}

// Line is one cleaned line.
type Line struct {
	// N is the line number, from 1.
	N int64 `json:"n"`
	// Text is the cleaned line without its LF. When Cut is set it is a
	// prefix of the line followed by CutMarker.
	Text string `json:"text"`
	// RawStart and RawEnd are the byte span [RawStart, RawEnd) of the raw
	// stream the line came from (bytelens view REF, extract --range).
	RawStart int64 `json:"raw_start"`
	RawEnd   int64 `json:"raw_end"`
	// Cut is set when the call's byte limit cut the line; CutBytes is
	// how many bytes of it are not shown.
	Cut      bool  `json:"cut,omitempty"`
	CutBytes int64 `json:"cut_bytes,omitempty"`
	// Match is set, in a Grep answer, on the lines that matched (the
	// others are context).
	Match bool `json:"match,omitempty"`
}

// CutMarker ends the Text of a line cut by the byte limit; the number of
// bytes not shown is in Line.CutBytes.
const CutMarker = " [bytelens: line cut at the 16 KiB limit]"

// Excerpt is the answer to Lines or Grep. Stream is the stream's name,
// escaped (render.Line) as every name in a JSON output is: meta.json can
// be rewritten, and its check lets LF, TAB and the marks the default
// policy keeps (U+200F) through.
type Excerpt struct {
	Ref    string      `json:"ref"`
	Stream render.Safe `json:"stream"`
	// TotalLines is the number of lines the stream has.
	TotalLines int64  `json:"total_lines"`
	Lines      []Line `json:"lines"`
	// Matches is the number of matching lines in Lines (Grep only).
	Matches int `json:"matches,omitempty"`
	// Next, when not 0, is where to continue: the from of the next Lines
	// call, or the cursor of the next Grep call.
	Next int64 `json:"next,omitempty"`
	// grep is set on a Grep answer, whose Next is a cursor.
	grep bool
	// to is the last line a Lines call asked for (cut to TotalLines), so
	// that the next call WriteText suggests ends there too.
	to int64
}

// index reads a stream's index and text files.
type index struct {
	meta      *StreamMeta
	opts      sanitize.Options // the record's policy
	idx, text *os.File
}

func (r *Record) open(stream string) (*index, error) {
	sm, err := r.Stream(stream)
	if err != nil {
		return nil, err
	}
	ix := &index{meta: sm, opts: r.opts}
	if ix.idx, err = r.st.OpenClean(r.ref, stream+".idx"); err != nil {
		return nil, err
	}
	if ix.text, err = r.st.OpenClean(r.ref, stream+".txt"); err != nil {
		ix.idx.Close()
		return nil, err
	}
	return ix, nil
}

func (ix *index) close() { ix.idx.Close(); ix.text.Close() }

// entries reads n index entries from entry k (0-based; entry k is where
// line k+1 begins, entry Lines the end), each (clean offset, raw start).
func (ix *index) entries(k, n int64) ([][2]int64, error) {
	buf := make([]byte, n*entrySize)
	if _, err := ix.idx.ReadAt(buf, k*entrySize); err != nil {
		return nil, fmt.Errorf("%w: short line index", store.ErrFormat)
	}
	out := make([][2]int64, n)
	for i := range out {
		e := buf[i*entrySize:]
		out[i] = [2]int64{int64(binary.BigEndian.Uint64(e)), int64(binary.BigEndian.Uint64(e[8:]))}
		if !ix.inText(out[i][0]) || out[i][1] < 0 || out[i][1] > ix.meta.BytesRaw ||
			i > 0 && (out[i][0] < out[i-1][0] || out[i][1] < out[i-1][1]) {
			return nil, errIndex
		}
	}
	return out, nil
}

// errIndex reports a line index whose offsets go back or past the end of
// the cleaned text or the raw stream: the store's files were changed.
var errIndex = fmt.Errorf("%w: line index out of order", store.ErrFormat)

// inText reports whether off is an offset of the cleaned text, its end
// included.
func (ix *index) inText(off int64) bool { return off >= 0 && off <= ix.meta.BytesClean }

// checkText fails, wrapping store.ErrFormat, when the text of line n is
// not what the cleaner writes: it holds an LF (a line ends at its first)
// or a character that cleaning, with every format character kept,
// changes: a control, invalid UTF-8. The cleaned text is a
// file in the store that a command run without --isolate can rewrite;
// what reaches the agent is cleaned text or nothing.
func checkText(n int64, text []byte, opts *sanitize.Options) error {
	if s := string(text); strings.IndexByte(s, '\n') >= 0 || !clean(s) || !writes(s, opts) {
		return fmt.Errorf("%w: line %d of the cleaned text holds what cleaning removes", store.ErrFormat, n)
	}
	return nil
}

// writes reports whether cleaning under opts can write every character
// of s as itself (sanitize.Options.Writes): cleaning under keepFormat
// leaves a bidi override or a zero-width space alone, which a record
// cleaned under format-chars=strip never holds.
func writes(s string, opts *sanitize.Options) bool {
	for _, r := range s {
		if r >= 0x80 && !opts.Writes(r) {
			return false
		}
	}
	return true
}

// keepFormat is the policy under which cleaned text of any policy comes
// back unchanged.
var keepFormat = sanitize.Options{FormatChars: sanitize.FormatKeep}

// budget is what is left of one call's byte limit.
type budget struct{ bytes int }

// lines appends lines from..to to out within b, and returns the number of
// the first line it could not add in full (0 when all fit).
func (ix *index) lines(out []Line, from, to int64, b *budget) ([]Line, int64, error) {
	es, err := ix.entries(from-1, to-from+2)
	if err != nil {
		return out, 0, err
	}
	for i := range to - from + 1 {
		n := from + i
		if b.bytes <= 0 {
			return out, n, nil
		}
		start, end := es[i][0], es[i+1][0]
		ln := Line{N: n, RawStart: es[i][1], RawEnd: es[i+1][1]}
		size := end - start
		show := min(size, int64(b.bytes))
		buf := make([]byte, show)
		if k, err := ix.text.ReadAt(buf, start); k < len(buf) {
			if err == io.EOF {
				err = errIndex
			}
			return out, 0, err
		}
		if show == size && show > 0 && buf[show-1] == '\n' {
			buf = buf[:show-1]
		} else if show < size {
			buf = capture.TrimPartialRune(buf)
			ln.Cut, ln.CutBytes = true, size-int64(len(buf))
		}
		if err := checkText(n, buf, &ix.opts); err != nil {
			return out, 0, err
		}
		b.bytes -= len(buf)
		ln.Text = string(buf)
		if ln.Cut {
			ln.Text += CutMarker
			out = append(out, ln)
			return out, n + 1, nil
		}
		out = append(out, ln)
	}
	return out, 0, nil
}

// Lines returns lines from..to (1-based, to included) of stream, at most
// MaxCallLines lines and MaxCallBytes bytes of text; Next says where to
// continue when the limits stopped it. A to past the last line is cut to
// it. from < 1, from > to and from past the last line are ErrRange.
func (r *Record) Lines(stream string, from, to int64) (*Excerpt, error) {
	ix, err := r.open(stream)
	if err != nil {
		return nil, err
	}
	defer ix.close()
	total := ix.meta.Lines
	switch {
	case from < 1 || to < from:
		return nil, fmt.Errorf("%w: want 1 <= from <= to, got from %d, to %d", ErrRange, from, to)
	case from > total:
		return nil, fmt.Errorf("%w: line %d is past the end (stream %s has %d lines)", ErrRange, from, stream, total)
	}
	to = min(to, total)
	last := min(to, from+MaxCallLines-1)
	ex := &Excerpt{Ref: r.ref.String(), Stream: render.LineString(stream), TotalLines: total, Lines: []Line{}, to: to}
	b := &budget{MaxCallBytes}
	ex.Lines, ex.Next, err = ix.lines(nil, from, last, b)
	if err != nil {
		return nil, err
	}
	if ex.Next == 0 && last < to {
		ex.Next = last + 1
	}
	return ex, nil
}

// GrepOptions is a Grep question.
type GrepOptions struct {
	// Pattern is a literal string, or an RE2 expression when Regex is set
	// (Go's regexp: linear time whatever the input).
	Pattern string
	Regex   bool
	// Context is the number of lines shown before and after each match,
	// at most MaxContext.
	Context int
	// Cursor is the line to start searching at (a previous Next); 0 means 1.
	Cursor int64
}

// Grep returns the lines of stream that match o.Pattern, each with
// o.Context lines around it, at most MaxMatches matches and MaxCallBytes
// bytes of text per call; Next is the cursor that continues the search.
// Lines are matched one by one, without their LF, reading the text in
// constant memory. The search takes time in the text's length times the
// size of the pattern's program, which the caller chooses: it stops with
// ctx's error when ctx is done, checked every checkRunes characters, also
// inside a line. An invalid RE2 pattern is ErrPattern, a negative or too
// large Context or a Cursor past the end is ErrRange.
func (r *Record) Grep(ctx context.Context, stream string, o GrepOptions) (*Excerpt, error) {
	expr := regexp.QuoteMeta(o.Pattern)
	if o.Regex {
		expr = o.Pattern
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: %s", ErrPattern, se.Code)
		}
		return nil, fmt.Errorf("%w", ErrPattern)
	}
	if o.Context < 0 || o.Context > MaxContext {
		return nil, fmt.Errorf("%w: context must be 0 to %d lines", ErrRange, MaxContext)
	}
	ix, err := r.open(stream)
	if err != nil {
		return nil, err
	}
	defer ix.close()
	total := ix.meta.Lines
	from := max(o.Cursor, 1)
	if o.Cursor < 0 || total > 0 && from > total {
		return nil, fmt.Errorf("%w: cursor %d is outside the stream's %d lines", ErrRange, o.Cursor, total)
	}
	ex := &Excerpt{Ref: r.ref.String(), Stream: render.LineString(stream), TotalLines: total, Lines: []Line{}, grep: true}
	matches, next, err := ix.scan(ctx, re, from, total)
	if err != nil {
		return nil, err
	}
	ex.Next = next
	b := &budget{MaxCallBytes}
	c := int64(o.Context)
	shown := int64(0) // last line number added
	for i, m := range matches {
		lo, hi := max(m-c, shown+1, 1), min(m+c, total)
		if len(ex.Lines) >= MaxCallLines {
			ex.Next = m
			break
		}
		hi = min(hi, lo+int64(MaxCallLines-len(ex.Lines))-1)
		var stop int64
		if ex.Lines, stop, err = ix.lines(ex.Lines, lo, hi, b); err != nil {
			return nil, err
		}
		for j := range ex.Lines {
			if ex.Lines[j].N == m {
				ex.Lines[j].Match = true
			}
		}
		ex.Matches = i + 1
		shown = hi
		if stop != 0 {
			if stop <= m { // the match itself did not fit
				ex.Matches = i
				ex.Next = m
			} else if i+1 < len(matches) {
				ex.Next = matches[i+1]
			}
			break
		}
	}
	return ex, nil
}

// scan returns up to MaxMatches line numbers from from on whose text
// matches re, and the line after the last match when the limit stopped it
// (0 when the stream was searched to its end), or ctx's error once ctx is
// done.
func (ix *index) scan(ctx context.Context, re *regexp.Regexp, from, total int64) ([]int64, int64, error) {
	if total == 0 {
		return nil, 0, nil
	}
	idx := bufio.NewReader(io.NewSectionReader(ix.idx, (from-1)*entrySize, (total-from+2)*entrySize))
	var e [entrySize]byte
	if _, err := io.ReadFull(idx, e[:]); err != nil {
		return nil, 0, fmt.Errorf("%w: short line index", store.ErrFormat)
	}
	start := int64(binary.BigEndian.Uint64(e[:]))
	if !ix.inText(start) {
		return nil, 0, errIndex
	}
	text := bufio.NewReaderSize(io.NewSectionReader(ix.text, start, ix.meta.BytesClean-start), 64<<10)
	var out []int64
	lr := &lineReader{r: text, ctx: ctx}
	for n := from; n <= total; n++ {
		if _, err := io.ReadFull(idx, e[:]); err != nil {
			return nil, 0, fmt.Errorf("%w: short line index", store.ErrFormat)
		}
		end := int64(binary.BigEndian.Uint64(e[:]))
		if end < start || !ix.inText(end) {
			return nil, 0, errIndex
		}
		lr.left = end - start
		matched := re.MatchReader(lr)
		if lr.err != nil { // the match stopped short: its answer is not the line's
			return nil, 0, fmt.Errorf("search stopped in line %d of %d: %w", n, total, lr.err)
		}
		if matched {
			out = append(out, n)
		}
		if _, err := text.Discard(int(lr.left)); err != nil {
			if err == io.EOF {
				err = errIndex
			}
			return nil, 0, err
		}
		start = end
		if len(out) == MaxMatches {
			if n < total {
				return out, n + 1, nil
			}
			break
		}
	}
	return out, 0, nil
}

// lineReader reads the runes of one line of a text and stops at its LF,
// or, with err set, when ctx is done.
type lineReader struct {
	r    *bufio.Reader
	left int64 // bytes of the line not read yet
	ctx  context.Context
	// until counts down the runes to read before ctx is checked again.
	until int
	err   error
}

// checkRunes is how many characters Grep matches between two checks of
// its context: 4 Ki characters take about 0.2 ms to match for a literal
// and 80 ms for a program of 2,500 instructions (BENCHMARKS.md,
// attack13: 0.05 s and 16–21 s a MB).
const checkRunes = 1 << 12

func (l *lineReader) ReadRune() (rune, int, error) {
	if l.left <= 0 {
		return 0, 0, io.EOF
	}
	if l.until--; l.until < 0 {
		l.until = checkRunes
		if l.err = l.ctx.Err(); l.err != nil {
			return 0, 0, l.err
		}
	}
	c, n, err := l.r.ReadRune()
	if err != nil {
		return 0, 0, err
	}
	l.left -= int64(n)
	if c == '\n' {
		return 0, 0, io.EOF
	}
	return c, n, nil
}

// RangeReport is the report of a line range, from what the record keeps:
// the span, its byte counts and the stream report's findings inside it.
// Per-class counts are the whole stream's (StreamReport); a range has no
// counts of its own without re-reading the raw bytes. Stream is escaped
// as Excerpt's is.
type RangeReport struct {
	Ref    string      `json:"ref"`
	Stream render.Safe `json:"stream"`
	From   int64       `json:"from"`
	To     int64       `json:"to"`
	// RawStart and RawEnd span the lines in the raw stream; BytesIn is
	// their length and BytesOut the cleaned text they became, in bytes.
	RawStart int64 `json:"raw_start"`
	RawEnd   int64 `json:"raw_end"`
	BytesIn  int64 `json:"bytes_in"`
	BytesOut int64 `json:"bytes_out"`
	// Findings are the stream report's findings whose offset falls in the
	// span. FindingsComplete is false when the stream report listed only
	// the first sanitize.MaxFindings.
	Findings         []sanitize.Finding `json:"findings"`
	FindingsComplete bool               `json:"findings_complete"`
}

// Report returns the removal report of lines from..to of stream (the
// whole stream's is StreamMeta.Report). Errors are those of Lines.
func (r *Record) Report(stream string, from, to int64) (*RangeReport, error) {
	ix, err := r.open(stream)
	if err != nil {
		return nil, err
	}
	defer ix.close()
	total := ix.meta.Lines
	if from < 1 || to < from || from > total {
		return nil, fmt.Errorf("%w: want 1 <= from <= to <= %d, got from %d, to %d", ErrRange, total, from, to)
	}
	to = min(to, total)
	es, err := ix.entries(from-1, 1) // where the first line begins
	if err != nil {
		return nil, err
	}
	ee, err := ix.entries(to, 1) // where the line after the last begins
	if err != nil {
		return nil, err
	}
	if ee[0][0] < es[0][0] || ee[0][1] < es[0][1] {
		return nil, errIndex
	}
	rr := &RangeReport{Ref: r.ref.String(), Stream: render.LineString(stream), From: from, To: to,
		RawStart: es[0][1], RawEnd: ee[0][1], BytesOut: ee[0][0] - es[0][0],
		Findings: []sanitize.Finding{}, FindingsComplete: ix.meta.Report.FindingsOmitted == 0}
	rr.BytesIn = rr.RawEnd - rr.RawStart
	for _, f := range ix.meta.Report.Findings {
		if f.Offset >= rr.RawStart && f.Offset < rr.RawEnd {
			rr.Findings = append(rr.Findings, f)
		}
	}
	return rr, nil
}

// Match returns what the SHA-256 digest sum (lowercase hex) is the digest
// of: "artifact" for the raw artifact itself, a stream's name for its
// stored raw bytes, or "" for nothing of the record. It needs no raw
// bytes: the digests are the reference and meta.json's.
func (r *Record) Match(sum string) string {
	if sum == r.ref.Hex() {
		return "artifact"
	}
	for _, s := range r.Meta.Streams {
		if s.SHA256 != "" && s.SHA256 == sum {
			return s.Name
		}
	}
	return ""
}
