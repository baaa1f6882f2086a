package sanitize

import (
	"io"
	"testing"
)

// TestSettled: a Writer is settled when nothing written waits on what
// follows: not inside a sequence, not after a run of CRs that text may
// overwrite, not after a format character whose fate the next character
// decides.
func TestSettled(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", true},
		{"ab", true},
		{"a\x1b[", false},
		{"a\r", false},
		{"a\r\x1b[6n", false},
		{"a\r\x1b[6nb", true},
		{"a\r\n", true},
		{"a\u200d", false},
		{"a\u200db", true},
	} {
		w := NewWriter(io.Discard, Options{})
		if _, err := w.Write([]byte(c.in)); err != nil {
			t.Fatal(err)
		}
		if got := w.Settled(); got != c.want {
			t.Errorf("after %q: Settled() = %v, want %v", c.in, got, c.want)
		}
	}
}
