package viewer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bytelens/bytelens/capture"
)

// TestOpen checks what Open gives for each kind of argument: the demo,
// spooled stdin and its limit, a FIFO refused, a file checked for change,
// and a reference (no file to check) opened by File.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "log")
	os.WriteFile(file, []byte("a\x1b[31mb\n"), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var opened []string
	o := OpenOptions{Stdin: strings.NewReader("0123456789"), StdinLimit: 16, File: func(arg string) (*capture.Capture, error) {
		opened = append(opened, arg)
		if strings.HasPrefix(arg, "restricted:") {
			return Demo()
		}
		return capture.Open(arg, capture.OpenOptions{})
	}}
	for _, tc := range []struct {
		arg, name string
		size      int64 // of the first stream
		check     bool
	}{
		{"", DemoName, int64(len(demo)), false},
		{"-", "stdin", 10, false},
		{file, file, 8, true},
		{"restricted:sha256:00", "restricted:sha256:00", int64(len(demo)), false},
	} {
		in, err := Open(tc.arg, o)
		if err != nil {
			t.Fatalf("%q: %v", tc.arg, err)
		}
		if in.Name != tc.name || in.Capture.Streams[0].Len != tc.size || (in.Check != nil) != tc.check {
			t.Errorf("%q: name %q, %d bytes, check %v", tc.arg, in.Name, in.Capture.Streams[0].Len, in.Check != nil)
		}
		in.Capture.Close()
	}
	if want := []string{file, "restricted:sha256:00"}; strings.Join(opened, " ") != strings.Join(want, " ") {
		t.Errorf("File opened %q, want %q", opened, want)
	}

	o.Stdin, o.StdinLimit = strings.NewReader("0123456789"), 4
	if _, err := Open("-", o); !errors.Is(err, capture.ErrInputTooLarge) || !strings.HasPrefix(err.Error(), "stdin: ") {
		t.Errorf("stdin over the limit: %v", err)
	}
	if _, err := Open(fifo, o); !errors.Is(err, capture.ErrNotRegular) || err.Error() != fifo+" is not a regular file" {
		t.Errorf("fifo: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "nope"), o); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want File's error", err)
	}
}

// TestOpenCheck checks that a file's Check passes while its size stays
// and says what it became when it grew or went.
func TestOpenCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "log")
	os.WriteFile(file, []byte("one\n"), 0o600)
	in, err := Open(file, OpenOptions{File: func(arg string) (*capture.Capture, error) { return capture.Open(arg, capture.OpenOptions{}) }})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Capture.Close()
	if err := in.Check(); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	os.WriteFile(file, []byte("one\ntwo\n"), 0o600)
	if err := in.Check(); !errors.Is(err, ErrChanged) || !strings.HasSuffix(err.Error(), "was 4 bytes when opened and is now 8 bytes") {
		t.Errorf("grown: %v", err)
	}
	os.Remove(file)
	if err := in.Check(); !errors.Is(err, ErrChanged) || !strings.HasSuffix(err.Error(), "is now gone") {
		t.Errorf("removed: %v", err)
	}
}
