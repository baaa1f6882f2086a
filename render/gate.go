package render

import (
	"github.com/bytelens/bytelens/sanitize"
)

// MaxGateListed is how many occurrences of one class WriteGate names; the
// rest are counted.
const MaxGateListed = 20

// WriteGate writes one line to w for each occurrence in r, the report of
// stream, or in loader, what the capture loader kept of stream as text,
// of one of classes (sanitize.ParseClasses names):
// "bytelens: fail-on: stream S: clipboard at offset 0x4 (4, OSC 52)",
// "bytelens: fail-on: stream S: jenkins_note_malformed at capture offset
// 0x16 (22), first of 3" (without "first of" for one). Occurrences past the first MaxGateListed, past
// the report's findings list, or of classes without findings (split,
// nonascii_blanks; a loader anomaly past its first) are counted on one
// line. It reports whether any class occurred; names come from the
// report, which holds no payload, and are escaped like every argument.
func WriteGate(w *Writer, stream Safe, r *sanitize.Report, loader []sanitize.LoaderAnomaly, classes []string) bool {
	counts := map[string]int64{}
	for _, c := range r.ClassCounts() {
		counts[c.Name] = c.Count
	}
	firsts := map[string]int64{}
	for _, a := range loader {
		counts[a.Class], firsts[a.Class] = a.Count, a.FirstOffset
	}
	failed := false
	for _, class := range classes {
		total := counts[class]
		if total == 0 {
			continue
		}
		failed = true
		var listed int64
		if off, ok := firsts[class]; ok {
			more := Safe{}
			if total > 1 {
				more = Sprintf(", first of %d", total)
			}
			w.Printf("bytelens: fail-on: stream %s: %s at capture offset 0x%x (%d)%s\n", stream, class, off, off, more)
			continue
		}
		for _, fd := range r.Findings {
			if fd.Kind != class {
				continue
			}
			if listed == MaxGateListed {
				break
			}
			listed++
			w.Printf("bytelens: fail-on: stream %s: %s at offset 0x%x (%d, %s)\n", stream, class, fd.Offset, fd.Offset, fd.Sequence)
		}
		if rest := total - listed; rest > 0 {
			w.Printf("bytelens: fail-on: stream %s: %s: %d more without offsets listed\n", stream, class, rest)
		}
	}
	return failed
}

// WriteSwallowed warns on w when a control string left open at the end of
// stream swallowed bytes (r.BytesSwallowed): they were dropped from the
// text, as a terminal would have hidden them, and the reader should know.
// It names the unterminated sequence and its offset when the findings
// hold it, and hints at --c1 lone when a raw C1 byte opened it
// (r.SwallowedByC1): not for ESC, nor for a C1 control encoded in UTF-8,
// which opens strings under --c1 lone too.
func WriteSwallowed(w *Writer, stream Safe, r *sanitize.Report) {
	if r.BytesSwallowed == 0 {
		return
	}
	// Only what is open at the end swallows, so it starts where the
	// swallowed bytes do; its name is in the findings unless they were
	// capped before it.
	where := Sprintf(" from offset 0x%x", r.BytesIn-r.BytesSwallowed)
	for _, f := range r.Findings {
		if f.Kind == "unterminated" {
			where = Sprintf(" by the %s at offset 0x%x", f.Sequence, f.Offset)
			break
		}
	}
	amount := Sprintf("%d bytes up to the end were", r.BytesSwallowed)
	if r.BytesSwallowed == 1 {
		amount = Sprintf("1 byte at the end was")
	}
	w.Printf("bytelens: warning: stream %s: %s swallowed%s, left open; a terminal would not have shown them\n", stream, amount, where)
	if r.SwallowedByC1 {
		w.Printf("hint: if a raw 0x80-0x9F byte opened it and the input is 8-bit text (Latin-1, CP1252), --c1 lone keeps such bytes from opening strings\n")
	}
}
