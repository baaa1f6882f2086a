package render

import (
	"bytes"
	"testing"
)

func TestWriteHexRows(t *testing.T) {
	tests := []struct {
		p    string
		base int64
		want string
	}{
		{"", 0, ""},
		{"ok \x1b", 0, "00000000  6f 6b 20 1b\n"},
		{"after", 30, "0000001e  61 66 74 65 72\n"},
		{"0123456789abcdefXY", 0x100, "00000100  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66\n00000110  58 59\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteHexRows(&b, []byte(tt.p), tt.base); err != nil || b.String() != tt.want {
			t.Errorf("WriteHexRows(%q, %d) = %q, %v; want %q", tt.p, tt.base, b.String(), err, tt.want)
		}
	}
}
