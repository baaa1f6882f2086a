package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

func TestWriteGate(t *testing.T) {
	_, r := sanitize.String("a\x1b]52;c;eA==\x07b\x1b]52;c;eA==\x07\x1b[6n", sanitize.Options{})
	var b bytes.Buffer
	if !WriteGate(NewWriter(&b), LineString("stdout"), &r, nil, []string{"clipboard", "title"}) {
		t.Error("clipboard: no failure")
	}
	if got := b.String(); strings.Count(got, "bytelens: fail-on: stream stdout: clipboard at offset 0x") != 2 || strings.Contains(got, "title") {
		t.Errorf("WriteGate = %q", got)
	}
	b.Reset()
	if WriteGate(NewWriter(&b), LineString("stdout"), &r, nil, []string{"title"}) || b.Len() != 0 {
		t.Errorf("title: failed, wrote %q", b.String())
	}
	// Past MaxGateListed, occurrences are counted.
	_, r = sanitize.String(strings.Repeat("\x1b]52;c;eA==\x07", MaxGateListed+3), sanitize.Options{})
	b.Reset()
	WriteGate(NewWriter(&b), LineString("out\x1b"), &r, nil, []string{"clipboard"})
	if got := b.String(); strings.Count(got, " at offset ") != MaxGateListed || !strings.Contains(got, "stream out␛: clipboard: 3 more without offsets listed\n") {
		t.Errorf("WriteGate capped = %q", got)
	}
	// Kept non-ASCII blanks gate too, counted: they have no findings.
	_, r = sanitize.String("a\u00a0b\u3000c d", sanitize.Options{})
	b.Reset()
	if !WriteGate(NewWriter(&b), LineString("stdout"), &r, nil, []string{"nonascii_blanks"}) || b.String() != "bytelens: fail-on: stream stdout: nonascii_blanks: 2 more without offsets listed\n" {
		t.Errorf("WriteGate nonascii_blanks = %q", b.String())
	}
	// A loader anomaly gates with the capture offset of its first.
	loader := []sanitize.LoaderAnomaly{{Class: sanitize.LoaderJenkinsNoteMalformed, Count: 3, FirstOffset: 22}}
	b.Reset()
	if !WriteGate(NewWriter(&b), LineString("output"), &r, loader, sanitize.ReportClasses()) ||
		!strings.Contains(b.String(), "bytelens: fail-on: stream output: jenkins_note_malformed at capture offset 0x16 (22), first of 3\n") {
		t.Errorf("WriteGate loader = %q", b.String())
	}
	b.Reset()
	if WriteGate(NewWriter(&b), LineString("output"), &r, loader, []string{"title"}) || b.Len() != 0 {
		t.Errorf("WriteGate loader, title: %q", b.String())
	}
}

func TestWriteSwallowed(t *testing.T) {
	var b bytes.Buffer
	_, r := sanitize.String("ok", sanitize.Options{})
	WriteSwallowed(NewWriter(&b), LineString("stdout"), &r)
	if b.Len() != 0 {
		t.Errorf("nothing swallowed: %q", b.String())
	}
	_, r = sanitize.String("ok\x1b]0;open title", sanitize.Options{})
	WriteSwallowed(NewWriter(&b), LineString("stdout"), &r)
	if got := b.String(); !strings.HasPrefix(got, "bytelens: warning: stream stdout: ") || !strings.Contains(got, " swallowed by the ") ||
		!strings.Contains(got, "at offset 0x2, left open") || strings.Contains(got, "--c1 lone") {
		t.Errorf("WriteSwallowed = %q", got)
	}
}

// TestWriteSwallowedNames checks the exact warning for each kind of
// sequence or string left open at the end, with nothing of its own or
// with a number or parameters, and opened by ESC, a raw C1 byte or a C1
// control in UTF-8.
func TestWriteSwallowedNames(t *testing.T) {
	const (
		end  = ", left open; a terminal would not have shown them\n"
		hint = "hint: if a raw 0x80-0x9F byte opened it and the input is 8-bit text (Latin-1, CP1252), --c1 lone keeps such bytes from opening strings\n"
	)
	tests := []struct{ in, want string }{
		{"ab\x1b", "1 byte at the end was swallowed by the ESC at offset 0x2" + end},
		{"ab\x1b[", "2 bytes up to the end were swallowed by the CSI at offset 0x2" + end},
		{"ab\x1b[?", "3 bytes up to the end were swallowed by the CSI ? at offset 0x2" + end},
		{"ab\x1b[31;1", "6 bytes up to the end were swallowed by the CSI 31;1 at offset 0x2" + end},
		{"ab\x1b]", "2 bytes up to the end were swallowed by the OSC at offset 0x2" + end},
		{"ab\x1b]2;x", "5 bytes up to the end were swallowed by the OSC 2 title at offset 0x2" + end},
		{"ab\x1bP", "2 bytes up to the end were swallowed by the DCS at offset 0x2" + end},
		{"ab\x1b_", "2 bytes up to the end were swallowed by the APC at offset 0x2" + end},
		{"ab\x1b^x", "3 bytes up to the end were swallowed by the PM at offset 0x2" + end},
		{"ab\x1bXx", "3 bytes up to the end were swallowed by the SOS at offset 0x2" + end},
		// Only a raw C1 byte, which --c1 lone reads as a single control,
		// gets the hint; its UTF-8 encoding opens strings under lone too.
		{"ab\x90x", "2 bytes up to the end were swallowed by the DCS at offset 0x2" + end + hint},
		{"ab\x9b31", "3 bytes up to the end were swallowed by the CSI 31 at offset 0x2" + end + hint},
		{"ab\x9d", "1 byte at the end was swallowed by the OSC at offset 0x2" + end + hint},
		{"ab\xc2\x9dx", "3 bytes up to the end were swallowed by the OSC at offset 0x2" + end},
		{"ab\xc2\x9f", "2 bytes up to the end were swallowed by the APC at offset 0x2" + end},
	}
	for _, tc := range tests {
		_, r := sanitize.String(tc.in, sanitize.Options{})
		var b bytes.Buffer
		WriteSwallowed(NewWriter(&b), LineString("stdout"), &r)
		if want := "bytelens: warning: stream stdout: " + tc.want; b.String() != want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, b.String(), want)
		}
	}
}
