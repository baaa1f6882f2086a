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
// "[stderr]" line, and one footer line with the exit status and what was
// removed. A stream past the output limit shows its head, a line saying
// which lines were left out and the bytelens excerpt call that prints
// them, and its tail. Kept format characters are escaped
// (render.InertWriter). The footer is the last line; its fields come from
// the envelope, never from the output.
func writeAgentText(s *streams, env *capture.Envelope) error {
	text := render.InertWriter(s.stdout)
	for _, st := range agentStreams(env) {
		if st.name == "stderr" && st.head == "" {
			continue
		}
		if st.name == "stderr" {
			text.Write([]byte("[stderr]\n"))
		}
		text.Write([]byte(st.head))
		endLine(text, st.head)
		if o := st.omitted; o != nil {
			s.out.Printf("[bytelens: lines %d-%d (%d bytes) left out", o.FromLine, o.ToLine, o.Bytes)
			if o.Excerpt != "" {
				s.out.Printf(": %s", o.Excerpt)
			}
			s.out.Printf("]\n")
			text.Write([]byte(st.tail))
			endLine(text, st.tail)
		}
	}
	s.out.Printf("%s\n", agentFooter(env))
	return s.out.Err()
}

type agentStream struct {
	name, head, tail string
	omitted          *capture.Omitted
	info             *capture.EnvelopeStream
}

func agentStreams(env *capture.Envelope) []agentStream {
	return []agentStream{
		{"stdout", env.Stdout, env.StdoutTail, env.StdoutOmitted, &env.Streams.Stdout},
		{"stderr", env.Stderr, env.StderrTail, env.StderrOmitted, &env.Streams.Stderr},
	}
}

// endLine ends a text that does not end in LF with one.
func endLine(w interface{ Write([]byte) (int, error) }, text string) {
	if text != "" && !strings.HasSuffix(text, "\n") {
		w.Write([]byte("\n"))
	}
}

// agentFooter is "[bytelens: exit 3; removed stdout csi 2; record REF]".
func agentFooter(env *capture.Envelope) string {
	parts := []string{"exit " + itoa(int64(env.ExitCode))}
	if env.Signal != "" {
		parts[0] += " (" + env.Signal + ")"
	}
	if env.TimedOut {
		parts = append(parts, "timed out")
	}
	for _, st := range agentStreams(env) {
		if r := removedSummary(&st.info.Report); r != "" {
			parts = append(parts, "removed "+st.name+" "+r)
		}
	}
	if env.RawArtifact != "" {
		parts = append(parts, "record "+env.RawArtifact)
	}
	if env.StoreError != "" {
		parts = append(parts, "no record kept")
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
