package sanitize

import (
	"errors"
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

// failingWriter fails every Write after the first ok ones.
type failingWriter struct{ ok, calls int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.ok {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestWriterErrorSticks: once the underlying writer fails, every later
// Write and Close returns that error without writing to it again, with or
// without output of its own.
func TestWriterErrorSticks(t *testing.T) {
	f := &failingWriter{ok: 1}
	w := NewWriter(f, Options{})
	if _, err := w.Write([]byte("one\n")); err != nil {
		t.Fatalf("first Write: %v", err)
	}
	if _, err := w.Write([]byte("two\n")); err == nil || err.Error() != "disk full" {
		t.Fatalf("second Write: err %v, want disk full", err)
	}
	for _, p := range []string{"three\n", "\x1b[1m"} {
		if n, err := w.Write([]byte(p)); n != 0 || err == nil || err.Error() != "disk full" {
			t.Errorf("Write %q after the failure: %d, %v; want 0, disk full", p, n, err)
		}
	}
	if err := w.Close(); err == nil || err.Error() != "disk full" {
		t.Errorf("Close: %v, want disk full", err)
	}
	if f.calls != 2 {
		t.Errorf("the underlying writer was called %d times, want 2 (no Write after it failed)", f.calls)
	}
}
