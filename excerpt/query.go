package excerpt

import (
	"context"

	"github.com/bytelens/bytelens/render"
)

// Query is one excerpt call on a stream of a record: the lines From to To
// (1-based, To included; ParseLines reads them), their removal report
// instead with Report, or, when Grep.Pattern is set, the lines that match
// it (From, To and Report are then not used).
type Query struct {
	Stream   string
	From, To int64
	Report   bool
	Grep     GrepOptions
}

// Answer is what Query returns, an *Excerpt or a *RangeReport: a JSON
// value (its fields tagged) that WriteText prints for a person.
type Answer interface {
	WriteText(w *render.Writer) error
}

// Query answers q with Grep (which stops when ctx is done), Report or
// Lines, and returns their errors.
func (r *Record) Query(ctx context.Context, q Query) (Answer, error) {
	var a Answer
	var err error
	switch {
	case q.Grep.Pattern != "":
		a, err = r.Grep(ctx, q.Stream, q.Grep)
	case q.Report:
		a, err = r.Report(q.Stream, q.From, q.To)
	default:
		a, err = r.Lines(q.Stream, q.From, q.To)
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}
