package capture

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
)

func TestOpenArg(t *testing.T) {
	dir := t.TempDir()
	cast := filepath.Join(dir, "a.cast")
	os.WriteFile(cast, []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"hi\"]\nnot an event\n[0.2, \"o\", \"there\"]\n"), 0o644)
	noStore := func() (*store.Store, error) { t.Fatal("store opened"); return nil, nil }
	stdin := strings.NewReader("[0.1, \"o\", \"x\"]\n")
	tests := []struct {
		name, arg string
		o         ArgOptions
		wantName  string
		wantRaw   bool
		wantErr   error // errors.Is
		wantMsg   string
		sniffErr  bool
	}{
		{name: "none is raw stdin", arg: "", wantName: "stdin", wantRaw: true},
		{name: "dash is raw stdin", arg: "-", o: ArgOptions{OpenOptions: OpenOptions{Format: "raw"}}, wantName: "stdin", wantRaw: true},
		{name: "stdin with a format is loaded", arg: "-", o: ArgOptions{OpenOptions: OpenOptions{Format: "asciicast-v2"}}, wantName: "stdin"},
		{name: "directory", arg: dir, wantErr: ErrIsDir, wantMsg: dir + " is a directory, not a capture"},
		{name: "missing file is a PathError", arg: filepath.Join(dir, "none"), wantErr: fs.ErrNotExist},
		{name: "bad reference", arg: store.RefPrefix + "zz", wantErr: store.ErrBadRef},
		// An unknown format is the usage error it is before the file is
		// looked at: a missing file gave "no such file" (exit 1).
		{name: "unknown format, missing file", arg: filepath.Join(dir, "none"), o: ArgOptions{OpenOptions: OpenOptions{Format: "betamax"}}, wantErr: ErrUnknownFormat},
		{name: "sniffed lossy cast", arg: cast, wantName: cast, sniffErr: true},
		{name: "asked-for cast", arg: cast, o: ArgOptions{OpenOptions: OpenOptions{Format: "asciicast-v2"}}, wantName: cast},
		{name: "raw stdin whole", arg: "-", o: ArgOptions{Whole: true}, wantName: "stdin"},
		{name: "raw stdin has its one stream", arg: "-", o: ArgOptions{Stream: StreamOutput}, wantName: "stdin", wantRaw: true},
		{name: "raw stdin has no stderr", arg: "-", o: ArgOptions{Stream: StreamStderr}, wantErr: ErrRawStdin, wantMsg: "raw stdin has one stream, output; --stream stderr names none"},
		{name: "raw stdin has no timing", arg: "", o: ArgOptions{OpenOptions: OpenOptions{Timing: "t"}, Whole: true}, wantErr: ErrRawStdin, wantMsg: "--timing applies to a script(1) typescript, and stdin is read as raw bytes"},
		{name: "a recording on stdin has streams", arg: "-", o: ArgOptions{OpenOptions: OpenOptions{Format: "asciicast-v2"}, Stream: StreamInput}, wantName: "stdin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Stdin, tt.o.Store = stdin, noStore
			in, err := OpenArg(tt.arg, tt.o)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				var pe *fs.PathError
				if errors.As(err, &pe) != (tt.wantErr == fs.ErrNotExist) {
					t.Errorf("err = %#v: a PathError only for a path os could not stat", err)
				}
				if tt.wantMsg != "" && err.Error() != tt.wantMsg {
					t.Errorf("message %q, want %q", err, tt.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if in.Name != tt.wantName || (in.Raw != nil) != tt.wantRaw || (in.Capture == nil) != tt.wantRaw {
				t.Fatalf("Input{Name %q, Raw %v, Capture %v}, want name %q, raw %v", in.Name, in.Raw != nil, in.Capture != nil, tt.wantName, tt.wantRaw)
			}
			if tt.wantRaw {
				return
			}
			err = in.CheckSniff()
			var se *SniffError
			if errors.As(err, &se) != tt.sniffErr {
				t.Fatalf("CheckSniff() = %v, want a SniffError: %v", err, tt.sniffErr)
			}
			if se != nil && (se.Format != FormatAsciicastV2 || se.Name != cast || !strings.Contains(se.Hint(), "--format raw")) {
				t.Errorf("SniffError %+v, hint %q", se, se.Hint())
			}
		})
	}
}

func TestOpenArgSpecials(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString("hi\x1b[31m")
			f.Close()
		}
	}()
	in, err := OpenArg(fifo, ArgOptions{Specials: true})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	b := make([]byte, 16)
	n, _ := in.Raw.Read(b)
	if in.Name != "stdin" || in.Capture != nil || string(b[:n]) != "hi\x1b[31m" {
		t.Fatalf("Input %q, capture %v, read %q; want stdin's raw stream of the FIFO", in.Name, in.Capture != nil, b[:n])
	}
}

// TestRawStdinErrorHint checks that each refusal of RawStdinError names
// the --format that reads stdin as a recording.
func TestRawStdinErrorHint(t *testing.T) {
	for _, tc := range []struct {
		err  *RawStdinError
		hint string
	}{
		{&RawStdinError{Timing: true}, "give --format script to read stdin as a typescript"},
		{&RawStdinError{Stream: "input"}, "give --format to read stdin as a recording with several streams"},
	} {
		if got := tc.err.Hint(); got != tc.hint {
			t.Errorf("%v: hint %q, want %q", tc.err, got, tc.hint)
		}
	}
}
