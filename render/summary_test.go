package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

func TestWriteSummary(t *testing.T) {
	_, r := sanitize.String("a\x1b]0;t\x07b\n", sanitize.Options{})
	var b bytes.Buffer
	err := WriteSummary(NewWriter(&b), Sprintf("%s", "in\x1b.log"), &r, []sanitize.LoaderRemoval{{Class: "timestamp", Count: 2, Bytes: 42}}, nil)
	got := b.String()
	for _, want := range []string{
		"in␛.log: 9 bytes in, 3 bytes of text out\npolicy: ",
		"\nremoved:\n  osc  1\n", "\nflags (what a terminal would have shown differently):\n  title ",
		"removed by the loader (recorder annotations, not terminal output):\n  timestamp  2  42 bytes\n",
		"findings:\n  0x00000001  1  title  OSC 0",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("WriteSummary lacks %q:\n%s", want, got)
		}
	}
	if err != nil {
		t.Error(err)
	}
	// A CSI left open after ESC [ is "CSI", without a space after it.
	b.Reset()
	_, r = sanitize.String("ab\x1b[", sanitize.Options{})
	WriteSummary(NewWriter(&b), Sprintf("x"), &r, nil, nil)
	if got := b.String(); !strings.Contains(got, "\nCSI final bytes:\n  CSI  1\n") || !strings.Contains(got, "  unterminated  CSI  2 bytes\n") {
		t.Errorf("bare CSI:\n%s", got)
	}
	b.Reset()
	_, r = sanitize.String("plain\n", sanitize.Options{})
	if WriteSummary(NewWriter(&b), Sprintf("x"), &r, nil, nil); !strings.Contains(b.String(), "nothing removed: the input was plain text\n") {
		t.Errorf("plain: %q", b.String())
	}
}
