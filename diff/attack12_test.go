package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// TestEmptyTextIsCompared: a capture whose cleaned text is empty (only
// controls, or no bytes) is a capture side with text, compared as text,
// not taken for a report: its Text was the nil of an empty bytes.Buffer,
// so bytelens diff a.bin b.bin said "cleaned text: not compared (B is a
// report)" for a capture B of ESC [ 31 m, and --json left out "text".
func TestEmptyTextIsCompared(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	os.WriteFile(a, []byte("x\n"), 0o600)
	os.WriteFile(b, []byte("\x1b[31m"), 0o600)
	side := func(name string) *Side {
		in, err := Load(name, capture.ArgOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { in.Close() })
		st, err := in.Stream("", render.NewWriter(new(bytes.Buffer)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := in.Clean(st, sanitize.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sa, sb := side(a), side(b)
	if sb.Text == nil || len(sb.Text) != 0 {
		t.Fatalf("side of %q: text %q (nil %v), want empty, not nil", "\x1b[31m", sb.Text, sb.Text == nil)
	}
	r := Compare(sa, sb, 3)
	if r.Text == nil || r.Text.Differing != 1 {
		t.Fatalf("text diff %+v, want one differing line", r.Text)
	}
	var out bytes.Buffer
	if err := r.WriteText(render.NewWriter(&out), false); err != nil || strings.Contains(out.String(), "is a report") {
		t.Errorf("WriteText: %v\n%s", err, out.String())
	}
}
