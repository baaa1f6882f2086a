package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/iostreams"
	"github.com/creack/pty"
)

// TestProgressOnTerminalOnly cleans 2 MiB, and runs a command that
// writes 1 MB with escape sequences to each stream, with stderr on a
// pseudo-terminal and on a pipe: the bar is drawn on the terminal only,
// as plain text.
func TestProgressOnTerminalOnly(t *testing.T) {
	defer func(d time.Duration) { iostreams.ProgressDelay = d }(iostreams.ProgressDelay)
	iostreams.ProgressDelay = 0
	in := filepath.Join(t.TempDir(), "big.log")
	os.WriteFile(in, bytes.Repeat([]byte("line \x1b[31mred\x1b[0m\n"), (2<<20)/19), 0o644)
	script := `for i in 1 2 3 4 5; do printf '\033]0;title\007\033[31m'; head -c 200000 /dev/zero; head -c 200000 /dev/zero >&2; sleep 0.05; done`
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"clean", []string{"clean", in}, []string{"cleaning output", "%"}},
		{"run", []string{"run", "--no-store", "--", "sh", "-c", script}, []string{"running sh: stdout ", "stderr ", "KiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptm, pts, err := pty.Open()
			if err != nil {
				t.Skipf("no pseudo-terminal: %v", err)
			}
			defer ptm.Close()
			got := make(chan []byte)
			go func() { b, _ := io.ReadAll(ptm); got <- b }()
			if code := run(tc.args, strings.NewReader(""), io.Discard, pts); code != 0 {
				t.Fatalf("exit %d", code)
			}
			pts.Close()
			drawn := <-got
			for _, w := range tc.want {
				if !bytes.Contains(drawn, []byte(w)) {
					t.Errorf("no %q in the progress drawn on the terminal: %q", w, drawn)
				}
			}
			if i := bytes.IndexFunc(drawn, func(r rune) bool { return r < 0x20 && r != '\r' && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 }); i >= 0 {
				t.Errorf("progress bar drew control %q at %d: %q", drawn[i], i, drawn)
			}

			r, w, _ := os.Pipe()
			if code := run(tc.args, strings.NewReader(""), io.Discard, w); code != 0 {
				t.Fatalf("exit %d", code)
			}
			w.Close()
			if b, _ := io.ReadAll(r); len(b) != 0 {
				t.Errorf("stderr on a pipe got %q", b)
			}
		})
	}
}
