package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// payloadCanaryInput holds canary words inside PM, OSC 52, OSC 0, DCS,
// APC, SOS, ESC k and OSC 8 payloads.
const payloadCanaryInput = "ok\n\x1b^PMCANARY\x1b\\\x1b]52;c;CLIPCANARY\x07\x1b]0;TITLECANARY\x07" +
	"\x1bPDCSCANARY\x1b\\\x1b_APCCANARY\x1b\\\x1bXSOSCANARY\x1b\\\x1bkSCREENCANARY\x1b\\" +
	"\x1b]8;;http://LINKCANARY/\x1b\\label\x1b]8;;\x1b\\\x1b[31mred\x1b[0m\n"

// assertTerminalSafe fails if out holds anything but graphic runes,
// spaces and LF.
func assertTerminalSafe(t *testing.T, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not valid UTF-8: %q", out)
	}
	for _, r := range out {
		if r != '\n' && r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r)) {
			t.Fatalf("output holds %U: %q", r, out)
		}
	}
}

func TestHexAndGlyphs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.bin")
	if err := os.WriteFile(in, []byte(payloadCanaryInput), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "zeros.bin")
	if err := os.WriteFile(big, make([]byte, 200<<10), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		stdout   string   // exact, when not empty
		contains []string // substrings of stdout
		canaries bool     // whether payload canaries may appear
		stderr   string   // substring
	}{
		{name: "glyphs stdin", stdin: "a\x1b[1mb\r\n", args: []string{"glyphs"}, stdout: "a␛[1mb␍\n"},
		{name: "glyphs dash", stdin: "x\x9by", args: []string{"glyphs", "-"}, stdout: "x<9B>y\n"},
		{name: "glyphs chips", stdin: "a\x1b[1mb", args: []string{"glyphs", "--chips"}, stdout: "a‹CSI 1m›b\n"},
		{name: "glyphs file", args: []string{"glyphs", in},
			contains: []string{"␛^‹8 bytes›␛\\", "␛]52;‹12 bytes›␇", "label", "␛[31mred"}},
		{name: "glyphs payloads", args: []string{"glyphs", "--payloads", in},
			contains: []string{"PMCANARY", "52;c;CLIPCANARY", "http://LINKCANARY/"}, canaries: true},
		{name: "glyphs chips payloads", args: []string{"glyphs", "--chips", "--payloads", in},
			contains: []string{"‹OSC 52 write: 52;c;CLIPCANARY›"}, canaries: true},
		{name: "describe", args: []string{"glyphs", "--describe", in},
			contains: []string{
				"0x00000003            3       12  PM                    PM: privacy message, 8 payload bytes, ended by ST\n",
				"OSC 52: clipboard write, 15 payload bytes, ended by BEL",
				"OSC 8: hyperlink open (target not shown)",
				"SGR: foreground red",
			}},
		{name: "hex", args: []string{"hex", in},
			contains: []string{"0x00000000  6f 6b 0a 1b 5e 50 4d 43  41 4e 41 52 59 1b 5c 1b  |ok␊␛^░░░░░░░░␛\\␛|\n", "49 50 43 41 4e 41 52 59"}},
		{name: "hex payloads", args: []string{"hex", "--payloads", "--width", "32", in}, contains: []string{"PMCANARY"}, canaries: true},
		{name: "hex ascii", args: []string{"hex", "--ascii", in}, contains: []string{"|ok_^^########^\\^|"}},
		{name: "hex skip length", args: []string{"hex", "-s", "3", "-n", "4", in},
			stdout: "0x00000003  1b 5e 50 4d                                       |␛^░░|\n0x00000007\n"},
		{name: "hex stdin", stdin: "\x00\x01ab", args: []string{"hex"},
			stdout: "0x00000000  00 01 61 62                                       |␀␁ab|\n0x00000004\n"},
		{name: "hex squeeze", args: []string{"hex", big},
			stdout: "0x00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀|\n" +
				"* 12799 identical rows, 0x00000010-0x00031fff\n0x00032000\n"},
		{name: "hex empty", stdin: "", args: []string{"hex"}, stdout: "0x00000000\n"},
		{name: "missing file", args: []string{"hex", filepath.Join(dir, "nope")}, code: 1, stderr: "no such file"},
		{name: "missing file glyphs", args: []string{"glyphs", filepath.Join(dir, "nope")}, code: 1, stderr: "no such file"},
		{name: "directory", args: []string{"glyphs", dir}, code: 1, stderr: "is a directory"},
		{name: "bad width", args: []string{"hex", "--width", "0", in}, code: 2, stderr: "--width"},
		{name: "bad c1", args: []string{"glyphs", "--c1", "sometimes", in}, code: 2, stderr: "invalid c1 policy"},
		{name: "c1 lone", stdin: "\x9bX", args: []string{"glyphs", "--c1", "lone", "--chips"}, stdout: "<9B>X\n"},
		{name: "too many args", args: []string{"hex", in, in}, code: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if tc.stdout != "" && out != tc.stdout {
				t.Errorf("stdout %q, want %q", out, tc.stdout)
			}
			for _, c := range tc.contains {
				if !strings.Contains(out, c) {
					t.Errorf("stdout lacks %q:\n%s", c, out)
				}
			}
			if !tc.canaries && strings.Contains(out, "CANARY") {
				t.Errorf("payload text in output:\n%s", out)
			}
			if tc.stderr != "" && !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr %q lacks %q", errs, tc.stderr)
			}
			if code == 1 && strings.Count(errs, "error:") != 1 {
				t.Errorf("want one error line, got %q", errs)
			}
			assertTerminalSafe(t, out)
		})
	}
}

func TestHexPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	p := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(p, []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "", "hex", p)
	if code != 1 || !strings.Contains(errs, "permission denied") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}
