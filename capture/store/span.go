package store

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxSpanOffset is the largest offset ParseSpan accepts, in bytes (1 TiB).
const maxSpanOffset = 1 << 40

// ErrSpanSyntax is returned by ParseSpan for text that is not START:END.
var ErrSpanSyntax = errors.New("want START:END byte offsets, such as 0:4096 or 0x100:0x200")

// ParseSpan parses "START:END", a span [START, END) of a stream of n
// bytes. Each offset is decimal or 0x hex, at most 1 TiB; START defaults
// to 0 and END to START+limit, or to n when limit < 0. The default END is
// cut to n. A span over limit bytes (limit >= 0), one that ends before it
// starts, or one that starts or explicitly ends past the stream is an
// error that gives the stream's length; text of another shape is
// ErrSpanSyntax.
func ParseSpan(s string, n, limit int) (start, end int, err error) {
	if s == "" {
		s = ":"
	}
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, ErrSpanSyntax
	}
	num := func(x string) (int, bool) {
		v, err := strconv.ParseInt(x, 0, 64)
		return int(v), err == nil && v >= 0 && v <= maxSpanOffset
	}
	if a != "" {
		if start, ok = num(a); !ok {
			return 0, 0, ErrSpanSyntax
		}
	}
	switch {
	case b != "":
		if end, ok = num(b); !ok {
			return 0, 0, ErrSpanSyntax
		}
	case limit >= 0:
		end = start + limit
	default:
		end = n
	}
	switch {
	case end < start:
		return 0, 0, fmt.Errorf("END %d is before START %d", end, start)
	case limit >= 0 && end-start > limit:
		return 0, 0, fmt.Errorf("%d bytes asked, at most %d per call", end-start, limit)
	case start > n || start == n && n > 0:
		return 0, 0, fmt.Errorf("START %d is past the end of the stream, which holds %d bytes", start, n)
	case b != "" && end > n:
		return 0, 0, fmt.Errorf("END %d is past the end of the stream, which holds %d bytes", end, n)
	}
	return start, min(end, n), nil
}
