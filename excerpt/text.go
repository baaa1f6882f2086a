package excerpt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// ParseLines parses a line range "FROM:TO" (1-based, TO included), ":TO"
// (from line 1), "FROM:" (to the end) or "N" (line N alone). Anything else
// is an error wrapping ErrRange; the range itself is checked by Lines and
// Report.
func ParseLines(s string) (from, to int64, err error) {
	bad := fmt.Errorf("%w: want FROM:TO line numbers from 1, such as 120:180", ErrRange)
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		a, b = s, s
	}
	from, to = 1, 1<<62
	if a != "" {
		if from, err = strconv.ParseInt(a, 10, 64); err != nil {
			return 0, 0, bad
		}
	}
	if b != "" {
		if to, err = strconv.ParseInt(b, 10, 64); err != nil {
			return 0, 0, bad
		}
	}
	return from, to, nil
}

// WriteText prints the excerpt for a person: a line per cleaned line with
// its number and raw span [start:end), escaped by w (a match marked '>'),
// then how to go on: the --cursor of the next search (an answer of Grep)
// or the --lines of the next range (ending where the asked range ends),
// or "no match". It returns w.Err().
func (ex *Excerpt) WriteText(w *render.Writer) error {
	grep := ex.grep
	for _, l := range ex.Lines {
		mark := " "
		if l.Match {
			mark = ">"
		}
		w.Printf("%s%6d  [%d:%d]  %s\n", mark, l.N, l.RawStart, l.RawEnd, l.Text)
	}
	switch {
	case ex.Next != 0 && grep:
		w.Printf("next: --cursor %d (%d matches shown)\n", ex.Next, ex.Matches)
	case ex.Next != 0 && ex.to != 0 && ex.to < ex.TotalLines:
		w.Printf("next: --lines %d:%d (%d lines in %s)\n", ex.Next, ex.to, ex.TotalLines, ex.Stream)
	case ex.Next != 0:
		w.Printf("next: --lines %d: (%d lines in %s)\n", ex.Next, ex.TotalLines, ex.Stream)
	case grep && ex.Matches == 0:
		w.Printf("no match\n")
	}
	return w.Err()
}

// WriteText prints the range report for a person: the lines, the raw span
// [start:end) they came from and the bytes in and out, then the findings
// in the span as bytelens report lists them, or that there are none (or
// that the stream report listed only its first findings). It returns the
// first error of w.
func (rr *RangeReport) WriteText(w *render.Writer) error {
	p := w.Columns(2, 8, 2)
	p.Printf("%s %s lines %d:%d: raw [%d:%d], %d bytes in, %d bytes of text out\n",
		rr.Ref, rr.Stream, rr.From, rr.To, rr.RawStart, rr.RawEnd, rr.BytesIn, rr.BytesOut)
	render.WriteFindings(p, rr.Findings)
	switch {
	case !rr.FindingsComplete:
		p.Printf("  … the stream report lists only its first %d findings: more may fall in these lines\n", sanitize.MaxFindings)
	case len(rr.Findings) == 0:
		p.Printf("no findings in these lines\n")
	}
	return p.Flush()
}
