package excerpt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/render"
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
// then how to go on: the --cursor of the next search (grep: the excerpt
// is a Grep answer) or the --lines of the next range, or "no match". It
// returns w.Err().
func (ex *Excerpt) WriteText(w *render.Writer, grep bool) error {
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
	case ex.Next != 0:
		w.Printf("next: --lines %d: (%d lines in %s)\n", ex.Next, ex.TotalLines, ex.Stream)
	case grep && ex.Matches == 0:
		w.Printf("no match\n")
	}
	return w.Err()
}
