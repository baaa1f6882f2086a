package sanitize

import (
	"strings"
	"testing"
)

func TestCleanSpan(t *testing.T) {
	in := "ok \x1b]0;title\x07after\n" // the payload is bytes 7..11
	tests := []struct {
		start, end int64
		want       string
	}{
		{0, int64(len(in)), "ok after\n"},
		{7, 10, ""},   // inside the OSC payload
		{9, 15, "af"}, // across the payload end
		{3, 4, ""},    // the ESC opening the OSC
		{14, int64(len(in)), "fter\n"},
		{0, 0, ""},
	}
	for _, tt := range tests {
		got, err := CleanSpan(strings.NewReader(in), tt.start, tt.end, Options{})
		if err != nil || string(got) != tt.want {
			t.Errorf("CleanSpan(%d, %d) = %q, %v; want %q", tt.start, tt.end, got, err, tt.want)
		}
	}
}
