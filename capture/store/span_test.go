package store

import (
	"errors"
	"strings"
	"testing"
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
