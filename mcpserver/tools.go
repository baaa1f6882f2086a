package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type tools struct{ o Options }

// text returns a result whose content is the one text block s.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// RunIn is the run tool's input.
type RunIn struct {
	Argv           []string `json:"argv" jsonschema:"the command and its arguments, run directly (no shell); use [\"sh\",\"-c\",\"...\"] for shell syntax"`
	Cwd            string   `json:"cwd,omitempty" jsonschema:"working directory (default: the server's)"`
	TimeoutSeconds float64  `json:"timeout_seconds,omitempty" jsonschema:"kill the command after this many seconds (default 120, at most 3600)"`
}

func (t *tools) run(ctx context.Context, _ *mcp.CallToolRequest, in RunIn) (*mcp.CallToolResult, map[string]any, error) {
	if len(in.Argv) == 0 || in.Argv[0] == "" {
		return nil, nil, errors.New("argv must name a command")
	}
	timeout := DefaultTimeout
	if in.TimeoutSeconds != 0 {
		if in.TimeoutSeconds < 0 || in.TimeoutSeconds > MaxTimeout.Seconds() {
			return nil, nil, fmt.Errorf("timeout_seconds must be between 0 and %d", int(MaxTimeout.Seconds()))
		}
		timeout = time.Duration(in.TimeoutSeconds * float64(time.Second))
	}
	cmd := exec.Command(in.Argv[0], in.Argv[1:]...)
	cmd.Dir = in.Cwd
	opts := capture.RunOptions{Sanitize: t.o.Sanitize, MaxOutput: t.o.MaxOutput, MaxRaw: t.o.MaxRaw, Timeout: timeout, Store: t.o.Store, Isolate: t.o.Isolate}
	env, err := capture.Run(ctx, cmd, opts)
	if err != nil {
		return nil, nil, err
	}
	if t.o.Store == nil && t.o.StoreErr != nil {
		env.StoreError, _ = capture.CleanField("no store: " + t.o.StoreErr.Error())
	}
	out, err := compact(&env)
	if err != nil {
		return nil, nil, err
	}
	return text(runText(&env)), out, nil
}

// compact returns env as the compact envelope (Envelope.JSON).
func compact(env *capture.Envelope) (map[string]any, error) {
	js, err := env.JSON(true)
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(js, &m)
	}
	return m, err
}

// nonZero returns the non-zero counts of cs by name, or nil.
func nonZero(cs []sanitize.NamedCount) map[string]int64 {
	var m map[string]int64
	for _, c := range cs {
		if c.Count != 0 {
			if m == nil {
				m = map[string]int64{}
			}
			m[c.Name] = c.Count
		}
	}
	return m
}

// summary lists counters as "csi 3, osc 1", sorted by name.
func summary(m map[string]int64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// runText is the run result for a reader: a status line (exit status,
// timed out, isolated, as capture.WriteAgentText's footer says them,
// duration, record), then each stream's head, the lines left out, and its
// tail.
func runText(e *capture.Envelope) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d", e.ExitCode)
	if e.Signal != "" {
		fmt.Fprintf(&b, " (%s)", e.Signal)
	}
	if e.TimedOut {
		b.WriteString(", timed out")
	}
	if e.Isolated {
		b.WriteString(", isolated")
	}
	fmt.Fprintf(&b, ", %d ms", e.DurationMS)
	if e.RawArtifact != "" {
		fmt.Fprintf(&b, ", ref %s", e.RawArtifact)
	}
	switch {
	case e.StoreError != "" && e.RawArtifact != "":
		fmt.Fprintf(&b, ", record incomplete: %s", e.StoreError)
	case e.StoreError != "":
		fmt.Fprintf(&b, ", no record: %s", e.StoreError)
	}
	b.WriteString("\n")
	for _, s := range []struct {
		name       string
		head, tail string
		omitted    *capture.Omitted
		info       *capture.EnvelopeStream
	}{{"stdout", e.Stdout, e.StdoutTail, e.StdoutOmitted, &e.Streams.Stdout}, {"stderr", e.Stderr, e.StderrTail, e.StderrOmitted, &e.Streams.Stderr}} {
		removed := nonZero(s.info.Report.Removed.ByName())
		if s.head == "" && removed == nil {
			continue
		}
		fmt.Fprintf(&b, "[%s, %d lines", s.name, s.info.Lines)
		if removed != nil {
			fmt.Fprintf(&b, "; removed %s", summary(removed))
		}
		writeBlanks(&b, &s.info.Report)
		b.WriteString("]\n")
		writeText(&b, s.head)
		if o := s.omitted; o != nil {
			fmt.Fprintf(&b, "[lines %d-%d (%d bytes) left out", o.FromLine, o.ToLine, o.Bytes)
			if o.Excerpt != "" { // none when the record keeps no cleaned text
				fmt.Fprintf(&b, ": excerpt with ref, stream %s, from %d, to %d", s.name, o.FromLine, o.ToLine)
			}
			b.WriteString("]\n")
			writeText(&b, s.tail)
		}
	}
	return b.String()
}

// writeBlanks notes the non-ASCII blanks kept in a stream's text
// (sanitize.Kept.NonASCIIBlanks), which read like spaces: "; kept
// nonascii_blanks 3".
func writeBlanks(b *strings.Builder, r *sanitize.Report) {
	if n := r.Kept.NonASCIIBlanks; n > 0 {
		fmt.Fprintf(b, "; kept nonascii_blanks %d", n)
	}
}

// writeText writes a stream's text, each line ended by LF, with a
// backslash before each line that begins as runText's own lines after
// the status line do ("[stdout,", "[stderr,", "[lines "): a command
// cannot forge a stderr section or a note on lines left out.
func writeText(b *strings.Builder, text string) {
	for rest := text; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		for _, own := range runTextLines {
			if strings.HasPrefix(line, own) {
				b.WriteByte('\\')
				break
			}
		}
		b.WriteString(line)
		b.WriteByte('\n')
		rest = after
	}
}

// runTextLines are the beginnings of runText's own lines.
var runTextLines = [...]string{"[stdout,", "[stderr,", "[lines "}

// record opens the cleaned text of ref.
func (t *tools) record(ref string) (*excerpt.Record, error) {
	if t.o.Store == nil {
		if t.o.StoreErr != nil {
			return nil, fmt.Errorf("no store: %w", t.o.StoreErr)
		}
		return nil, errors.New("no store")
	}
	r, err := store.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	rec, err := excerpt.Open(t.o.Store, r)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// ExcerptIn is the excerpt tool's input.
type ExcerptIn struct {
	Ref     string `json:"ref" jsonschema:"the record, restricted:sha256:<hex>, from run"`
	Stream  string `json:"stream,omitempty" jsonschema:"stdout (default) or stderr"`
	From    int64  `json:"from,omitempty" jsonschema:"first line, from 1"`
	To      int64  `json:"to,omitempty" jsonschema:"last line, included (default: from + 199)"`
	Pattern string `json:"pattern,omitempty" jsonschema:"search for the lines holding this text instead of a range"`
	Regex   bool   `json:"regex,omitempty" jsonschema:"pattern is an RE2 regular expression"`
	Context int    `json:"context,omitempty" jsonschema:"lines of context around each match, 0 to 10"`
	Cursor  int64  `json:"cursor,omitempty" jsonschema:"continue a search at this line (the next of the previous call)"`
}

func (t *tools) excerpt(ctx context.Context, _ *mcp.CallToolRequest, in ExcerptIn) (*mcp.CallToolResult, *excerpt.Excerpt, error) {
	rec, err := t.record(in.Ref)
	if err != nil {
		return nil, nil, err
	}
	// The text holds what its record's policy writes (excerpt checks
	// each line), and meta.json, which says what that policy was, can be
	// rewritten as the text can: a record whose policy keeps the format
	// characters this server's removes is not served.
	if rec.Policy().FormatChars == sanitize.FormatKeep && t.o.Sanitize.FormatChars != sanitize.FormatKeep {
		return nil, nil, fmt.Errorf("%s was cleaned under format-chars=keep, which this server's policy does not write (bytelens mcp --format-chars keep serves it)", in.Ref)
	}
	stream := cmpOr(in.Stream, "stdout")
	var ex *excerpt.Excerpt
	switch {
	case in.Pattern != "":
		ctx, cancel := context.WithTimeout(ctx, MaxSearch)
		defer cancel()
		ex, err = rec.Grep(ctx, stream, excerpt.GrepOptions{Pattern: in.Pattern, Regex: in.Regex, Context: in.Context, Cursor: in.Cursor})
	case in.From != 0:
		to := in.To
		if to == 0 {
			to = in.From + excerpt.MaxCallLines - 1
		}
		ex, err = rec.Lines(stream, in.From, to)
	default:
		return nil, nil, errors.New("give from (and to) for a line range, or pattern for a search")
	}
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	for _, l := range ex.Lines {
		mark := " "
		if l.Match {
			mark = ">"
		}
		fmt.Fprintf(&b, "%s%d: %s\n", mark, l.N, l.Text)
	}
	switch {
	case ex.Next != 0 && in.Pattern != "":
		fmt.Fprintf(&b, "[more matches: cursor %d]\n", ex.Next)
	case ex.Next != 0:
		fmt.Fprintf(&b, "[more: from %d; %d lines in all]\n", ex.Next, ex.TotalLines)
	case in.Pattern != "" && ex.Matches == 0:
		b.WriteString("[no match]\n")
	}
	return text(b.String()), ex, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ReportIn is the report tool's input.
type ReportIn struct {
	Ref    string `json:"ref" jsonschema:"the record, restricted:sha256:<hex>"`
	Stream string `json:"stream,omitempty" jsonschema:"with from and to: stdout (default) or stderr"`
	From   int64  `json:"from,omitempty" jsonschema:"first line of a range (omit for the whole record)"`
	To     int64  `json:"to,omitempty" jsonschema:"last line of the range, included"`
}

// ReportOut is the report tool's result: the record's streams, or Range.
type ReportOut struct {
	Ref      string               `json:"ref"`
	Command  string               `json:"command"`
	ExitCode int                  `json:"exit_code"`
	Streams  []StreamOut          `json:"streams,omitempty"`
	Range    *excerpt.RangeReport `json:"range,omitempty"`
	Policy   string               `json:"policy"`
}

// StreamOut is a stream of the record as the report tool gives it: its
// meta.json entry with the name escaped (render.Line), which hides the
// entry's own; meta.json can be rewritten, and its check lets LF, TAB and
// the marks the default policy keeps (U+200F) through.
type StreamOut struct {
	Name render.Safe `json:"name"`
	excerpt.StreamMeta
}

func (t *tools) report(_ context.Context, _ *mcp.CallToolRequest, in ReportIn) (*mcp.CallToolResult, ReportOut, error) {
	rec, err := t.record(in.Ref)
	if err != nil {
		return nil, ReportOut{}, err
	}
	out := ReportOut{Ref: rec.Meta.Ref, Command: rec.Meta.Command, ExitCode: rec.Meta.ExitCode, Policy: rec.Meta.Policy}
	var b strings.Builder
	if in.From == 0 && in.To == 0 {
		for _, s := range rec.Meta.Streams {
			out.Streams = append(out.Streams, StreamOut{render.LineString(s.Name), s})
		}
		for _, s := range out.Streams {
			fmt.Fprintf(&b, "%s: %d lines, %d raw bytes, %d cleaned", s.Name, s.Lines, s.BytesRaw, s.BytesClean)
			if m := nonZero(s.Report.Removed.ByName()); m != nil {
				fmt.Fprintf(&b, "; removed %s", summary(m))
			}
			if m := nonZero(s.Report.Flags.ByName()); m != nil {
				fmt.Fprintf(&b, "; flags %s", summary(m))
			}
			writeBlanks(&b, &s.Report)
			b.WriteString("\n")
		}
		return text(b.String()), out, nil
	}
	to := in.To
	if to == 0 {
		to = in.From
	}
	if out.Range, err = rec.Report(cmpOr(in.Stream, "stdout"), in.From, to); err != nil {
		return nil, ReportOut{}, err
	}
	r := out.Range
	fmt.Fprintf(&b, "lines %d-%d of %s: raw bytes %d-%d (%d), %d cleaned, %d findings\n", r.From, r.To, r.Stream, r.RawStart, r.RawEnd, r.BytesIn, r.BytesOut, len(r.Findings))
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  at %d: %s (%s, %d bytes)\n", f.Offset, f.Kind, f.Sequence, f.Bytes)
	}
	return text(b.String()), out, nil
}

// VerifyIn is the verify tool's input.
type VerifyIn struct {
	Ref  string `json:"ref" jsonschema:"the record, restricted:sha256:<hex>"`
	Path string `json:"path" jsonschema:"the file to compare, on the server's machine"`
}

// VerifyOut says whether the file matched, and what.
type VerifyOut struct {
	Match bool `json:"match"`
	// What is "artifact" or the name of the stream that matched, escaped
	// as StreamOut's.
	What render.Safe `json:"what,omitzero"`
	// SHA256 and Bytes are the file's digest and size.
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

func (t *tools) verify(ctx context.Context, _ *mcp.CallToolRequest, in VerifyIn) (*mcp.CallToolResult, VerifyOut, error) {
	rec, err := t.record(in.Ref)
	if err != nil {
		return nil, VerifyOut{}, err
	}
	// Only a regular file: /dev/zero or a terminal would keep the call
	// reading for ever. What was opened is checked, and the open does not
	// wait for a FIFO's writer (O_NONBLOCK), so that a FIFO swapped in
	// after a check of the name cannot block it.
	f, err := os.OpenFile(in.Path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, VerifyOut{}, err
	}
	defer f.Close()
	if err := regularFile(f.Stat()); err != nil {
		return nil, VerifyOut{}, err
	}
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return nil, VerifyOut{}, err
	}
	out := VerifyOut{SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n}
	out.What = render.LineString(rec.Match(out.SHA256))
	out.Match = !out.What.IsZero()
	msg := "no match: the file is neither the record's raw artifact nor one of its raw streams"
	if out.Match {
		msg = "match: the file holds the record's " + out.What.String()
	}
	return text(msg + "\n"), out, nil
}

// ctxReader reads r until ctx ends: verify's path is the client's to
// choose, and a regular file can be as long as it likes (a sparse file,
// /proc/self/pagemap), so the hash stops when the client cancels.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// regularFile passes on a Stat error, and fails for a file that is not
// a regular file.
func regularFile(fi os.FileInfo, err error) error {
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s)", fi.Name(), fi.Mode().Type())
	}
	return err
}
