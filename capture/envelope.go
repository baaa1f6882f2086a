package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/sanitize"
)

// EnvelopeSchema is the schema name of the envelopes [Run] produces
// (docs/envelope.md, docs/envelope.schema.json).
const EnvelopeSchema = "bytelens.envelope/v2"

// Envelope is the result of one collected command: what ran, how it ended,
// and its cleaned output, as one JSON object. Metadata lives only in its
// fields, never inside the text: Stdout and Stderr hold exactly the cleaned
// bytes of each stream (valid UTF-8, no controls but TAB and LF), so no
// command output can forge an exit code, a truncation marker or a label.
type Envelope struct {
	// Schema is EnvelopeSchema.
	Schema string `json:"schema"`
	// Command is Argv (cleaned) shell-quoted for display; arguments with
	// characters that are not printable are written in $'...' form.
	Command string `json:"command"`
	// Argv is the command line as run, each element cleaned by
	// [CleanField].
	Argv []string `json:"argv"`
	// Executable is the absolute path of the program that ran, as found
	// in $PATH, cleaned by [CleanField].
	Executable string `json:"executable"`
	// Cwd is the absolute working directory of the command, cleaned by
	// [CleanField].
	Cwd string `json:"cwd"`
	// Stdin says where standard input came from: "/dev/null", a file name
	// (cleaned by [CleanField]), or "caller".
	Stdin string `json:"stdin"`
	// MetadataCleaned names the fields whose value [CleanField] changed,
	// in field order: "command", "argv[N]", "executable", "cwd", "stdin",
	// "signal".
	// The exact values are kept only in the raw artifact's manifest. Run
	// sets it to an empty list when nothing changed.
	MetadataCleaned []string `json:"metadata_cleaned"`
	// Started is when the command started, in UTC; JSON gives RFC 3339.
	Started time.Time `json:"started"`
	// DurationMS is the time from start until the collector finished
	// reading, in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// ExitCode is the command's exit code, or -1 if a signal ended it.
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the command ("SIGKILL"), or is
	// empty; cleaned by [CleanField].
	Signal string `json:"signal"`
	// TimedOut reports that the time limit passed and the collector killed
	// the command's process group.
	TimedOut bool `json:"timed_out"`
	// Canceled reports that the caller's context ended and the collector
	// killed the command's process group.
	Canceled bool `json:"canceled"`
	// Isolated reports that the command ran in its own user, PID and
	// mount namespaces ([RunOptions.Isolate]); omitted when false.
	Isolated bool `json:"isolated,omitempty"`
	// Limits are the limits and the cleaning policy in force.
	Limits Limits `json:"limits"`
	// WaitDelayExpired reports that the collector stopped reading because a
	// pipe stayed open (held by a grandchild) longer than the wait delay
	// after the command exited; output written after that is lost.
	WaitDelayExpired bool `json:"wait_delay_expired"`
	// Stdout is the cleaned standard output: all of it when it fits the
	// output limit, else its head, at most half the limit, cut at a line
	// boundary.
	Stdout string `json:"stdout"`
	// StdoutOmitted says what lies between Stdout and StdoutTail when the
	// output passed the limit; nil otherwise.
	StdoutOmitted *Omitted `json:"stdout_omitted,omitempty"`
	// StdoutTail is the end of the cleaned standard output when it passed
	// the limit, starting at a line boundary where the tail holds one;
	// empty otherwise.
	StdoutTail string `json:"stdout_tail,omitempty"`
	// Stderr, StderrOmitted and StderrTail are the same for standard
	// error.
	Stderr        string   `json:"stderr"`
	StderrOmitted *Omitted `json:"stderr_omitted,omitempty"`
	StderrTail    string   `json:"stderr_tail,omitempty"`
	// Streams holds the report, limits and byte counts of each stream.
	Streams EnvelopeStreams `json:"streams"`
	// Chunks lists the collector's reads across both streams in the order
	// it made them, up to the chunk limit. Entries carry no text.
	Chunks []EnvelopeChunk `json:"chunks"`
	// ChunksOmitted counts the reads past the chunk limit, not listed.
	ChunksOmitted int64 `json:"chunks_omitted"`
	// RawArtifact is the reference "restricted:sha256:<hex>" of the raw
	// artifact in the restricted store, or empty if none was kept.
	RawArtifact string `json:"raw_artifact"`
	// StoreError says why the raw artifact, the cleaned text that
	// excerpt reads ("cleaned text not kept: ...", the raw artifact then
	// kept and the omitted lines without their excerpt call) or, with run
	// --save-envelope, the envelope could not be kept: the store could
	// not be opened, was full, read-only or broken. The rest of the
	// envelope is complete. Empty when the store worked or none was used.
	StoreError string `json:"store_error,omitempty"`
	// Decision is the caller's approval record, attached verbatim (as
	// compact JSON) apart from the untrusted output; absent if none. Run
	// accepts only a record that passes [CheckDecision].
	Decision json.RawMessage `json:"decision,omitempty"`
}

// EnvelopeStreams holds the per-stream details of an [Envelope].
type EnvelopeStreams struct {
	// Stdout describes standard output.
	Stdout EnvelopeStream `json:"stdout"`
	// Stderr describes standard error.
	Stderr EnvelopeStream `json:"stderr"`
}

// Omitted describes the cleaned text left out between the head and the
// tail of a stream. Lines are numbered from 1 in the stream's cleaned
// text; a line partly kept counts as omitted.
type Omitted struct {
	// Bytes is the number of cleaned bytes left out.
	Bytes int64 `json:"bytes"`
	// Lines is the number of lines with bytes left out, ToLine-FromLine+1.
	Lines int64 `json:"lines"`
	// FromLine and ToLine are the first and last line with bytes left
	// out.
	FromLine int64 `json:"from_line"`
	ToLine   int64 `json:"to_line"`
	// Excerpt is the command that prints those lines from the store,
	// "bytelens excerpt REF --lines FROM:TO --stream NAME"; empty when no
	// raw artifact was kept.
	Excerpt string `json:"excerpt,omitempty"`
}

// Limits are the limits a collection ran with (see [RunOptions]).
type Limits struct {
	// MaxOutput is the cleaned bytes kept per stream; -1 means no limit.
	MaxOutput int64 `json:"max_output"`
	// MaxRaw is the raw bytes stored per stream; -1 means no limit.
	MaxRaw int64 `json:"max_raw"`
	// MaxChunks is the chunk entries listed; -1 means no limit.
	MaxChunks int `json:"max_chunks"`
	// TimeoutMS is the time limit in milliseconds; 0 means none.
	TimeoutMS int64 `json:"timeout_ms"`
	// KillGraceMS is the time between SIGTERM and SIGKILL in
	// milliseconds; 0 sends SIGKILL at once.
	KillGraceMS int64 `json:"kill_grace_ms"`
	// WaitDelayMS is how long output is read after the command ends, in
	// milliseconds.
	WaitDelayMS int64 `json:"wait_delay_ms"`
	// Policy is the cleaning policy in sanitize.ParsePolicy's form.
	Policy string `json:"policy"`
}

// EnvelopeStream gives one stream's removal report, truncation and byte
// counts.
type EnvelopeStream struct {
	// Removed reports that the cleaned text differs from the raw bytes:
	// something was removed or replaced (the report says what).
	Removed bool `json:"removed"`
	// Report is the sanitizer's removal report for the whole stream, the
	// part past the output limit included.
	Report sanitize.Report `json:"report"`
	// Truncated reports that the cleaned text passed the output limit, so
	// the envelope holds its head and tail only.
	Truncated bool `json:"truncated"`
	// RawTruncated reports that the raw artifact holds only the first
	// BytesRawStored bytes of the stream.
	RawTruncated bool `json:"raw_truncated"`
	// BytesRaw is the number of bytes read from the stream.
	BytesRaw int64 `json:"bytes_raw"`
	// BytesRawStored is the number of raw bytes kept in the raw artifact.
	BytesRawStored int64 `json:"bytes_raw_stored"`
	// BytesCleaned is the number of bytes the sanitizer produced.
	BytesCleaned int64 `json:"bytes_cleaned"`
	// BytesKept is the number of cleaned bytes in the envelope's text,
	// head and tail.
	BytesKept int64 `json:"bytes_kept"`
	// Lines is the number of lines of the cleaned text (LFs, plus one for
	// a last line without LF).
	Lines int64 `json:"lines"`
}

// setExcerpts fills in the excerpt command of each stream's Omitted once
// the raw artifact is known.
func (e *Envelope) setExcerpts() {
	for _, s := range []struct {
		name string
		o    *Omitted
	}{{"stdout", e.StdoutOmitted}, {"stderr", e.StderrOmitted}} {
		if s.o != nil && e.RawArtifact != "" {
			s.o.Excerpt = fmt.Sprintf("bytelens excerpt %s --lines %d:%d --stream %s", e.RawArtifact, s.o.FromLine, s.o.ToLine, s.name)
		}
	}
}

// EnvelopeChunk is one read by the collector.
type EnvelopeChunk struct {
	// Seq numbers the reads across both streams from 0.
	Seq uint32 `json:"seq"`
	// Stream is "stdout" or "stderr".
	Stream string `json:"stream"`
	// Offset is the position of the chunk in its raw stream, in bytes.
	Offset int64 `json:"offset"`
	// Length is the number of raw bytes read.
	Length int `json:"length"`
	// TMS is the time of the read after the start, in milliseconds.
	TMS int64 `json:"t_ms"`
}

// WriteText writes e in a labelled form for people. Labels start in the
// first column; every line of cleaned text is prefixed with "  | ", so no
// output can pass for a label. The text is written as the envelope holds
// it: cleaned text keeps what the policy keeps (format characters under
// format-chars=keep), and an envelope that Run did not make (one decoded
// from a document someone else wrote) may hold anything in its command and
// text, so w should escape for a terminal (render.InertWriter), as
// bytelens run --text does.
func (e *Envelope) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	field := func(name, value string) { fmt.Fprintf(bw, "%-13s %s\n", name+":", value) }
	field("command", e.Command)
	field("executable", quoteIfNeeded(e.Executable))
	field("cwd", quoteIfNeeded(e.Cwd))
	field("stdin", quoteIfNeeded(e.Stdin))
	if len(e.MetadataCleaned) > 0 {
		names := make([]string, len(e.MetadataCleaned))
		for i, n := range e.MetadataCleaned {
			names[i] = sanitizeLine(n) // field names such as argv[2]; escaped if built by hand
		}
		field("cleaned", strings.Join(names, ", ")+" (control or format characters removed; exact values only in the raw artifact)")
	}
	field("started", e.Started.Format(time.RFC3339Nano))
	field("duration_ms", strconv.FormatInt(e.DurationMS, 10))
	field("exit_code", strconv.Itoa(e.ExitCode))
	if e.Signal != "" {
		field("signal", quoteIfNeeded(e.Signal))
	}
	if e.TimedOut {
		field("timed_out", "true (process group killed)")
	}
	if e.Canceled {
		field("canceled", "true (process group killed)")
	}
	if e.Isolated {
		field("isolated", "true (own user, PID and mount namespaces)")
	}
	if e.WaitDelayExpired {
		field("wait_delay", "expired (a pipe stayed open after exit; later output not read)")
	}
	if e.RawArtifact != "" {
		field("raw_artifact", quoteIfNeeded(e.RawArtifact))
	}
	if e.StoreError != "" {
		field("store_error", quoteIfNeeded(e.StoreError))
	}
	if len(e.Decision) > 0 {
		field("decision", quoteIfNeeded(string(e.Decision)))
	}
	for _, s := range e.streams() {
		summary := fmt.Sprintf("%d bytes raw, %d cleaned, %d shown", s.info.BytesRaw, s.info.BytesCleaned, s.info.BytesKept)
		if s.info.Truncated {
			summary += ", head and tail only"
		}
		field(s.name, summary)
		field(s.name+"_report", reportSummary(&s.info.Report))
		writeQuoted(bw, s.head)
		if o := s.omitted; o != nil {
			fmt.Fprintf(bw, "%-13s lines %d-%d (%d lines, %d bytes)", "omitted:", o.FromLine, o.ToLine, o.Lines, o.Bytes)
			if o.Excerpt != "" {
				bw.WriteString("; " + sanitizeLine(o.Excerpt))
			}
			bw.WriteByte('\n')
			writeQuoted(bw, s.tail)
		}
	}
	return bw.Flush()
}

// CleanField returns s made safe as a one-line metadata value for agents,
// and whether that changed it. s goes through the sanitizer with the
// default options (sanitize.Text): no ESC, C0, DEL or C1 control (a
// control sequence goes whole, payload included), none of the format
// characters the default policy strips, and U+FFFD for each maximal
// invalid UTF-8 subpart. The TAB and LF that cleaned text may keep (CR,
// VT and FF become LF) are then each replaced by U+FFFD, so the value
// stays on one line. Valid UTF-8 without those characters comes back
// unchanged.
func CleanField(s string) (string, bool) {
	c := sanitize.Text(s, sanitize.Options{})
	if strings.ContainsAny(c, "\t\n") {
		c = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' {
				return utf8.RuneError
			}
			return r
		}, c)
	}
	return c, c != s
}

// CheckDecision checks a caller's approval record before [Run] attaches
// it: it must be one valid JSON value in valid UTF-8 whose strings, object
// keys included, the sanitizer (default options) leaves unchanged, so
// that after JSON decoding it holds no ESC, no C0 control but TAB and LF,
// no DEL, no C1 and none of the format characters the policy strips. The
// error names a byte offset, never the offending characters.
func CheckDecision(js []byte) error {
	if !json.Valid(js) {
		return errors.New("decision is not valid JSON")
	}
	if !utf8.Valid(js) {
		return errors.New("decision is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("decision: %w", err)
		}
		if s, ok := tok.(string); ok {
			if sanitize.Text(s, sanitize.Options{}) != s {
				return fmt.Errorf("decision: the string after byte %d holds control or format characters (allowed: TAB and LF)", off)
			}
		}
	}
}

// reportSummary lists a report's non-zero counts by group, such as
// "removed osc 1, csi 2; flags title 1", or "nothing removed".
func reportSummary(r *sanitize.Report) string {
	var parts []string
	for _, g := range []struct {
		name   string
		counts []sanitize.NamedCount
	}{{"removed", r.Removed.ByName()}, {"anomalies", r.Anomalies.ByName()}, {"flags", r.Flags.ByName()}} {
		var items []string
		for _, c := range g.counts {
			if c.Count != 0 {
				items = append(items, quoteIfNeeded(c.Name)+" "+strconv.FormatInt(c.Count, 10))
			}
		}
		if len(items) > 0 {
			parts = append(parts, g.name+" "+strings.Join(items, ", "))
		}
	}
	if len(parts) == 0 {
		return "nothing removed"
	}
	return strings.Join(parts, "; ")
}

// writeQuoted writes text with each line prefixed by "  | ". A last line
// without a newline is followed by a note on its own line.
func writeQuoted(w *bufio.Writer, text string) {
	if text == "" {
		return
	}
	for line := range strings.SplitAfterSeq(text, "\n") {
		if line == "" {
			break
		}
		w.WriteString("  | ")
		w.WriteString(sanitizeLine(line))
		if !strings.HasSuffix(line, "\n") {
			w.WriteString("\n(no newline at end)\n")
		}
	}
}

// sanitizeLine is a last guard for WriteText: cleaned text holds no
// controls but TAB and LF and is valid UTF-8; a line of an Envelope built
// by hand that breaks this is written escaped.
func sanitizeLine(s string) string {
	body, nl := strings.CutSuffix(s, "\n")
	clean := utf8.ValidString(body)
	for _, r := range body {
		if unicode.IsControl(r) && r != '\t' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := strconv.QuoteToGraphic(body)
	q = q[1 : len(q)-1]
	if nl {
		q += "\n"
	}
	return q
}

// ShellQuote joins argv for display in POSIX shell syntax: a plain word as
// is, a printable one in single quotes, anything else in bash's $'...' form
// with escapes. The result holds only characters that unicode.IsPrint
// accepts, which include invisible ones (U+FE0F, U+3164, U+034F): show it
// through CleanField or render.Line, as the envelope's command and store
// ls do.
func ShellQuote(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteIfNeeded(a))
	}
	return b.String()
}

// quoteIfNeeded returns s as is if it needs no quoting in a shell, in
// single quotes if it is printable, and in $'...' form with escapes
// otherwise, so the result holds only printable characters.
func quoteIfNeeded(s string) string {
	if s == "" {
		return "''"
	}
	plain, printable := true, utf8.ValidString(s)
	for _, r := range s {
		if !(r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))) {
			plain = false
		}
		if !unicode.IsPrint(r) {
			printable = false
		}
	}
	switch {
	case plain:
		return s
	case printable:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02X`, s[i])
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\x%02X`, r)
		case !unicode.IsPrint(r) && r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04X`, r)
		case !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// ExitStatus returns the command's status as a shell reports it: the exit
// code, or 128+N when signal N ended it (137 for SIGKILL), or 1 when the
// signal is not known by name or the command's end is unknown.
func (e *Envelope) ExitStatus() int {
	switch {
	case e.Signal != "":
		if n := signalNumber(e.Signal); n > 0 {
			return 128 + n
		}
		return 1
	case e.ExitCode < 0:
		return 1
	}
	return e.ExitCode
}
