package store

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
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

// maxAgeDays is the largest age ParseAge takes in days.
const maxAgeDays = 100_000

// ParseAge parses an age: a non-negative Go duration ("90m", "36h") or a
// whole number of days up to 100,000 ("30d").
func ParseAge(s string) (time.Duration, error) {
	bad := errors.New("want a duration such as 36h or 30d")
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.ParseInt(n, 10, 64)
		if err != nil || days < 0 || days > maxAgeDays {
			return 0, bad
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, bad
	}
	return d, nil
}

// Age is an age given on the command line (a flag.Value and pflag.Value
// parsed by ParseAge) that remembers whether it was given at all.
type Age struct {
	d   time.Duration
	set bool
}

// Set parses s with ParseAge.
func (a *Age) Set(s string) error {
	d, err := ParseAge(s)
	if err != nil {
		return err
	}
	a.d, a.set = d, true
	return nil
}

// String returns the age as a Go duration, or "" when it was not given.
func (a *Age) String() string {
	if !a.set {
		return ""
	}
	return a.d.String()
}

// Type names the value in flag usage ("age").
func (a *Age) Type() string { return "age" }

// IsSet reports whether the age was given.
func (a *Age) IsSet() bool { return a.set }

// Before returns the time the age reaches back to from now, for
// PruneOptions, or the zero time (prune nothing) when it was not given.
func (a *Age) Before(now time.Time) time.Time {
	if !a.set {
		return time.Time{}
	}
	return now.Add(-a.d)
}

// byteUnits are the suffixes ParseBytes takes, longest first.
var byteUnits = []struct {
	suffix string
	mult   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"k", 1 << 10}}

// ParseBytes parses a size in bytes: a decimal integer with an optional
// binary suffix K, M or G (KiB, MiB, GiB and k also accepted), at most
// 2^62 bytes, or -1 (no limit, without a suffix).
func ParseBytes(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < -1 || n == -1 && mult != 1 || n > (1<<62)/mult {
		return 0, errors.New("want a number of bytes such as 65536, 64K or 64MiB, or -1")
	}
	return n * mult, nil
}
