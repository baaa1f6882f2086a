package sanitize

import (
	"bytes"
	"strings"
	"testing"
)

// TestSwallowedByC1 checks that Report.SwallowedByC1 is set only when a
// raw C1 byte opened what swallowed the end of the stream, with findings
// listed (the token path) and past MaxFindings (the quick CSI path), in
// one buffer and in 1-byte Writes.
func TestSwallowedByC1(t *testing.T) {
	capped := strings.Repeat("\x1b[6n", MaxFindings)
	tests := []struct {
		in   string
		opts Options
		want bool
	}{
		{in: "ab\x90x", want: true},
		{in: "ab\x9b31", want: true},
		{in: "ab\x9d", want: true},
		{in: capped + "\x9b31", want: true},
		{in: "ab\x1bPx"},
		{in: "ab\x1b[31"},
		{in: capped + "\x1b[31"},
		{in: "ab\xc2\x9dx"},
		{in: "ab\xc2\x9b31"},
		{in: "ab\x9dx\x1b]0;t"}, // the raw 9D ends at ESC; ESC ] swallows
		{in: "ab\x9dx", opts: Options{C1: C1Lone}},
		{in: "ab"},
	}
	for _, tc := range tests {
		_, r := String(tc.in, tc.opts)
		var out bytes.Buffer
		w := NewWriter(&out, tc.opts)
		for i := range len(tc.in) {
			w.Write([]byte(tc.in[i : i+1]))
		}
		w.Close()
		if got := w.Report().SwallowedByC1; r.SwallowedByC1 != tc.want || got != tc.want {
			t.Errorf("%q: SwallowedByC1 = %v, in 1-byte Writes %v, want %v", tc.in[max(len(tc.in)-12, 0):], r.SwallowedByC1, got, tc.want)
		}
	}
}
