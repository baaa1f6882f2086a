package main

import (
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// agentHelp is the help of run --agent.
const agentHelp = "print the cleaned stdout, then the cleaned stderr after a [stderr] line, then one [bytelens: ...] footer line (for coding-agent hooks)"

// writeAgentText writes env the way a coding agent's shell tool shows a
// command's output: the cleaned stdout, the cleaned stderr after a
// "[stderr]" line, and one footer line with the exit status, what was
// removed, and the record to excerpt for what the limit left out. Kept
// format characters are escaped (render.InertWriter). The footer is the
// last line; its fields come from the envelope, never from the output.
func writeAgentText(s *streams, env *capture.Envelope) error {
	text := render.InertWriter(s.stdout)
	for _, st := range []struct {
		label, name, head, tail string
		omitted                 *capture.Omitted
	}{{"", "stdout", env.Stdout, env.StdoutTail, env.StdoutOmitted}, {"[stderr]\n", "stderr", env.Stderr, env.StderrTail, env.StderrOmitted}} {
		if st.head == "" && st.omitted == nil {
			continue
		}
		text.Write([]byte(st.label + st.head))
		endLine(text, st.head)
		if o := st.omitted; o != nil {
			// Between head and tail, what the limit left out, from the
			// envelope's fields.
			s.out.Printf("[bytelens: %s lines %d-%d omitted (%d bytes)%s]\n", st.name, o.FromLine, o.ToLine, o.Bytes, excerptHint(o))
			text.Write([]byte(st.tail))
			endLine(text, st.tail)
		}
	}
	s.out.Printf("%s\n", agentFooter(env))
	return s.out.Err()
}

// excerptHint is "; bytelens excerpt ..." when the store keeps the lines.
func excerptHint(o *capture.Omitted) string {
	if o.Excerpt == "" {
		return ""
	}
	return "; " + o.Excerpt
}

// endLine ends a text that does not end in LF with one.
func endLine(w interface{ Write([]byte) (int, error) }, text string) {
	if text != "" && !strings.HasSuffix(text, "\n") {
		w.Write([]byte("\n"))
	}
}

// agentFooter is "[bytelens: exit 3; removed stdout csi 2; record REF]"
// with the truncation and the excerpt call when the limit cut a stream.
func agentFooter(env *capture.Envelope) string {
	parts := []string{"exit " + itoa(int64(env.ExitCode))}
	if env.Signal != "" {
		parts[0] += " (" + env.Signal + ")"
	}
	if env.TimedOut {
		parts = append(parts, "timed out")
	}
	for _, st := range []struct {
		name string
		s    *capture.EnvelopeStream
		o    *capture.Omitted
	}{{"stdout", &env.Streams.Stdout, env.StdoutOmitted}, {"stderr", &env.Streams.Stderr, env.StderrOmitted}} {
		if r := removedSummary(&st.s.Report); r != "" {
			parts = append(parts, "removed "+st.name+" "+r)
		}
		if st.o != nil {
			parts = append(parts, st.name+" lines "+itoa(st.o.FromLine)+"-"+itoa(st.o.ToLine)+" omitted"+excerptHint(st.o))
		}
	}
	if env.RawArtifact != "" {
		parts = append(parts, "record "+env.RawArtifact)
	}
	return "[bytelens: " + strings.Join(parts, "; ") + "]"
}

// removedSummary lists the non-zero removal counts, "csi 2, osc 1".
func removedSummary(r *sanitize.Report) string {
	var out []string
	for _, c := range r.Removed.ByName() {
		if c.Count != 0 {
			out = append(out, c.Name+" "+itoa(c.Count))
		}
	}
	return strings.Join(out, ", ")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
