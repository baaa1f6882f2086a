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

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
)

// MaxDecision is the largest approval record [ReadDecision] accepts, in
// bytes (1 MiB).
const MaxDecision = 1 << 20

// JSON returns e as one line of JSON ending in a newline, written by
// safejson (so it is inert on a terminal) without HTML escaping; compact
// gives the [CompactEnvelope] form.
func (e *Envelope) JSON(compact bool) ([]byte, error) {
	var b bytes.Buffer
	enc := safejson.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	if compact {
		return CompactEnvelope(b.Bytes())
	}
	return b.Bytes(), nil
}

// SaveTo keeps e, in its JSON form, in st linked to its raw artifact
// (store.PutEnvelope), for bytelens run --save-envelope. The raw artifact
// is committed already, so whatever happens to the envelope its
// reference is reported: a failure is not returned but said in
// e.StoreError ("envelope not kept: ..."), and the envelope is complete
// otherwise. An envelope without a raw artifact is not kept.
func (e *Envelope) SaveTo(st *store.Store) {
	if e.RawArtifact == "" {
		return
	}
	ref, err := store.ParseRef(e.RawArtifact)
	var js []byte
	if err == nil {
		js, err = e.JSON(false)
	}
	if err == nil {
		err = st.PutEnvelope(ref, js)
	}
	if err != nil {
		e.StoreError, _ = CleanField("envelope not kept: " + err.Error())
	}
}

// ErrDecision marks the errors of [ReadDecision] that are about the
// record itself (too large, not JSON, refused characters), as opposed to
// failures to read it.
var ErrDecision = errors.New("bad approval record")

// decisionError is an error about the record: it matches ErrDecision.
type decisionError struct{ msg string }

func (e decisionError) Error() string        { return e.msg }
func (e decisionError) Is(target error) bool { return target == ErrDecision }

// ReadDecision reads an approval record for [RunOptions.Decision] from r:
// at most MaxDecision bytes of valid JSON with no
// lone UTF-16 surrogate escape (RFC 8259, section 8.2: readers decode one
// differently) that passes [CheckDecision]. An error about the record
// matches ErrDecision and names a byte offset, never the characters at
// fault; an error reading r is returned as it is.
func ReadDecision(r io.Reader) (json.RawMessage, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxDecision+1))
	switch {
	case err != nil:
		return nil, err
	case len(b) > MaxDecision:
		return nil, decisionError{fmt.Sprintf("file is over %d bytes", MaxDecision)}
	case !json.Valid(b):
		return nil, decisionError{"not valid JSON"}
	}
	if off := safejson.LoneSurrogate(b); off >= 0 {
		return nil, decisionError{fmt.Sprintf("the escape at byte %d is a lone UTF-16 surrogate (\\ud800-\\udfff), which JSON readers decode differently", off)}
	}
	if err := CheckDecision(b); err != nil {
		return nil, decisionError{err.Error()}
	}
	return b, nil
}

// WriteAgentText writes e the way a coding agent's shell tool shows a
// command's output: the cleaned stdout, then the cleaned stderr after a
// "[stderr]" line, each stream's omitted lines as one
// "[bytelens: stdout lines A-B omitted (N bytes); bytelens excerpt ...]"
// line between its head and tail, and last one footer line,
// "[bytelens: exit 3; isolated; removed stdout csi 2; record REF]", with
// the exit status, whether the command ran isolated
// ([RunOptions.Isolate]), what was removed, the raw artifact and, when
// the store failed, why ("no record: ...", "record incomplete: ..."). Every
// text ends with a line feed. The footer's fields come from the envelope, never from the
// output, and only bytelens' own lines begin "[bytelens" or "[stderr]":
// a line of output that does is written after a backslash, so that a
// command cannot forge a footer with another exit status or a stderr
// section. Like WriteText it writes cleaned text, which keeps what the
// policy keeps (format characters under format-chars=keep): w should
// escape for a terminal (render.InertWriter).
func (e *Envelope) WriteAgentText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range e.streams() {
		if s.head == "" && s.omitted == nil {
			continue
		}
		if s.name == "stderr" {
			bw.WriteString("[stderr]\n")
		}
		writeOutputLines(bw, s.head)
		if o := s.omitted; o != nil {
			fmt.Fprintf(bw, "[bytelens: %s lines %d-%d omitted (%d bytes)%s]\n", s.name, o.FromLine, o.ToLine, o.Bytes, o.excerptHint())
			writeOutputLines(bw, s.tail)
		}
	}
	bw.WriteString(e.agentFooter() + "\n")
	return bw.Flush()
}

// envelopeStream is one stream of an envelope, for the text forms.
type envelopeStream struct {
	name       string
	head, tail string
	omitted    *Omitted
	info       *EnvelopeStream
}

// streams returns e's stdout and stderr, in that order.
func (e *Envelope) streams() [2]envelopeStream {
	return [2]envelopeStream{
		{"stdout", e.Stdout, e.StdoutTail, e.StdoutOmitted, &e.Streams.Stdout},
		{"stderr", e.Stderr, e.StderrTail, e.StderrOmitted, &e.Streams.Stderr},
	}
}

// writeOutputLines writes a command's text, each line ended by a line
// feed, with a backslash before each line that begins as bytelens' own
// lines of the agent text do.
func writeOutputLines(bw *bufio.Writer, text string) {
	for rest := text; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.HasPrefix(line, "[bytelens") || strings.HasPrefix(line, "[stderr]") {
			bw.WriteByte('\\')
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
		rest = after
	}
}

// excerptHint is "; bytelens excerpt ..." when the store keeps the lines.
func (o *Omitted) excerptHint() string {
	if o.Excerpt == "" {
		return ""
	}
	return "; " + sanitizeLine(o.Excerpt)
}

// agentFooter is WriteAgentText's last line, without its line feed.
func (e *Envelope) agentFooter() string {
	parts := []string{"exit " + strconv.Itoa(e.ExitCode)}
	if e.Signal != "" {
		parts[0] += " (" + e.Signal + ")"
	}
	if e.TimedOut {
		parts = append(parts, "timed out")
	}
	if e.Isolated {
		parts = append(parts, "isolated")
	}
	for _, s := range e.streams() {
		if r := removedSummary(&s.info.Report); r != "" {
			parts = append(parts, "removed "+s.name+" "+r)
		}
		if o := s.omitted; o != nil {
			parts = append(parts, fmt.Sprintf("%s lines %d-%d omitted%s", s.name, o.FromLine, o.ToLine, o.excerptHint()))
		}
	}
	if e.RawArtifact != "" {
		parts = append(parts, "record "+e.RawArtifact)
	}
	// StoreError is cleaned (CleanField): no control, TAB or LF.
	switch {
	case e.StoreError != "" && e.RawArtifact != "":
		parts = append(parts, "record incomplete: "+e.StoreError)
	case e.StoreError != "":
		parts = append(parts, "no record: "+e.StoreError)
	}
	return "[bytelens: " + strings.Join(parts, "; ") + "]"
}

// removedSummary lists a report's non-zero removal counts, "csi 2, osc 1".
func removedSummary(r *sanitize.Report) string {
	var out []string
	for _, c := range r.Removed.ByName() {
		if c.Count != 0 {
			out = append(out, c.Name+" "+strconv.FormatInt(c.Count, 10))
		}
	}
	return strings.Join(out, ", ")
}
