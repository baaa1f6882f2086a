package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseSpan(t *testing.T) {
	tests := []struct {
		in         string
		n, limit   int
		start, end int
		err        string
	}{
		{"", 35, 4096, 0, 35, ""},
		{"", 35, -1, 0, 35, ""},
		{"0:20", 35, 4096, 0, 20, ""},
		{"0x1c:", 35, 4096, 28, 35, ""},
		{"10:", 5000, 4096, 10, 4106, ""},
		{"30:35", 35, 4096, 30, 35, ""},
		{"0:0", 0, 4096, 0, 0, ""},
		{"0:4097", 5000, 4096, 0, 0, "at most 4096"},
		{"0:4097", 5000, -1, 0, 4097, ""},
		{"9:3", 35, 4096, 0, 0, "END 3 is before START 9"},
		{"abc", 35, 4096, 0, 0, "START:END"},
		{"-1:", 35, 4096, 0, 0, "START:END"},
		{"0x10000000001:", 35, -1, 0, 0, "START:END"},
		{"100:", 35, 4096, 0, 0, "START 100 is past the end of the stream, which holds 35 bytes"},
		{"35:", 35, 4096, 0, 0, "START 35 is past"},
		{"30:36", 35, 4096, 0, 0, "END 36 is past the end of the stream, which holds 35 bytes"},
	}
	for _, tt := range tests {
		start, end, err := ParseSpan(tt.in, tt.n, tt.limit)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSpan(%q, %d, %d) error %v, want %q", tt.in, tt.n, tt.limit, err, tt.err)
			}
			continue
		}
		if err != nil || start != tt.start || end != tt.end {
			t.Errorf("ParseSpan(%q, %d, %d) = %d, %d, %v; want %d, %d", tt.in, tt.n, tt.limit, start, end, err, tt.start, tt.end)
		}
	}
	if _, _, err := ParseSpan("x", 1, 1); !errors.Is(err, ErrSpanSyntax) {
		t.Errorf("ParseSpan(x) = %v, want ErrSpanSyntax", err)
	}
}

func TestParseAge(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"90m", 90 * time.Minute, true}, {"36h", 36 * time.Hour, true}, {"30d", 30 * 24 * time.Hour, true},
		{"0d", 0, true}, {"100000d", 100_000 * 24 * time.Hour, true},
		{"100001d", 0, false}, {"-1h", 0, false}, {"-1d", 0, false}, {"1.5d", 0, false}, {"soon", 0, false}, {"", 0, false},
	} {
		d, err := ParseAge(tt.in)
		if d != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseAge(%q) = %v, %v; want %v ok %v", tt.in, d, err, tt.want, tt.ok)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"65536", 65536, true}, {"64K", 64 << 10, true}, {"64k", 64 << 10, true}, {"64MiB", 64 << 20, true}, {"2G", 2 << 30, true},
		{" 1KiB ", 1 << 10, true}, {"-1", -1, true}, {"0", 0, true},
		{"-1K", 0, false}, {"-2", 0, false}, {"1.5M", 0, false}, {"1T", 0, false}, {"", 0, false}, {"4294967296G", 1 << 62, true}, {"4294967297G", 0, false},
	} {
		n, err := ParseBytes(tt.in)
		if n != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d ok %v", tt.in, n, err, tt.want, tt.ok)
		}
	}
}

func TestAge(t *testing.T) {
	now := time.Unix(1e9, 0)
	var a Age
	if a.IsSet() || a.String() != "" || !a.Before(now).IsZero() || a.Type() != "age" {
		t.Errorf("zero Age: %v %q %v", a.IsSet(), a.String(), a.Before(now))
	}
	if err := a.Set("2d"); err != nil || !a.IsSet() || a.String() != "48h0m0s" || !a.Before(now).Equal(now.Add(-48*time.Hour)) {
		t.Errorf("2d: %v %q %v", err, a.String(), a.Before(now))
	}
	var b Age
	if err := b.Set("-1h"); err == nil || b.IsSet() {
		t.Errorf("-1h: %v, set %v", err, b.IsSet())
	}
}
