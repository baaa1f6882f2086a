package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture"
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

	tests := []cliCase{
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
		{name: "hex ascii", args: []string{"hex", "--ascii", in}, contains: []string{"|ok$^^########^\\^|"}},
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
			out, errs := tc.run(t)
			if !tc.canaries && strings.Contains(out, "CANARY") {
				t.Errorf("payload text in output:\n%s", out)
			}
			if tc.code == 1 && strings.Count(errs, "error:") != 1 {
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

// streamBytes returns the bytes of stream name of the capture at path, as
// the capture package loads them.
func streamBytes(t *testing.T, path, name string) []byte {
	t.Helper()
	c, err := capture.Open(path, capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st := c.Stream(name)
	if st == nil {
		t.Fatalf("%s has no stream %s", path, name)
	}
	b, err := io.ReadAll(st.Reader())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHexAndGlyphsLoadCaptures checks that hex and glyphs show a
// recording's terminal bytes, exactly as they show the same bytes given
// raw, and never the recording's own bytes: no JSON escapes or payload
// text of a cast, no ttyrec frame header.
func TestHexAndGlyphsLoadCaptures(t *testing.T) {
	const samples, rec = "../../capture/testdata/samples/", "../../capture/testdata/rec/"
	// Payload text in the recordings, none of which may appear by default.
	canaries := []string{"evil-title", "pwned-title", "ZWNobyBwd25lZA", "evil.example", "example.com", `\u001b`, `\u0007`}
	modes := [][]string{
		{"glyphs"}, {"glyphs", "--chips"}, {"glyphs", "--describe"},
		{"hex"}, {"hex", "--ascii", "--width", "7"}, {"hex", "-s", "5", "-n", "40"},
	}
	for _, file := range []string{samples + "asciinema-v2.cast", samples + "asciinema-v3.cast", rec + "hostile.cast", rec + "ls-color.cast", rec + "hostile.tty", rec + "git-log.tty", samples + "ttyrec.tty"} {
		raw := string(streamBytes(t, file, capture.StreamOutput))
		for _, m := range modes {
			t.Run(filepath.Base(file)+" "+strings.Join(m, " "), func(t *testing.T) {
				code, got, errs := runCLI(t, "", append(m, file)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				code, want, errs := runCLI(t, raw, m...)
				if code != 0 {
					t.Fatalf("exit %d on the raw stream: %s", code, errs)
				}
				if got != want {
					t.Errorf("output differs from the raw stream's:\n got %q\nwant %q", got, want)
				}
				for _, c := range canaries {
					if strings.Contains(got, c) {
						t.Errorf("payload or file text %q in output:\n%s", c, got)
					}
				}
				assertTerminalSafe(t, got)
			})
		}
	}

	// --describe finds the sequences a cast holds, which its JSON hides.
	_, out, _ := runCLI(t, "", "glyphs", "--describe", rec+"hostile.cast")
	for _, want := range []string{"OSC 0: set icon name and window title, 13 payload bytes", "OSC 52: clipboard write", "OSC 8: hyperlink open", "SGR: bold, foreground magenta"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, out)
		}
	}

	// A ttyrec's frame headers are not terminal data: the dump starts with
	// the first frame's payload.
	_, out, _ = runCLI(t, "", "hex", rec+"hostile.tty")
	if !strings.HasPrefix(out, "0x00000000  73 67 72 3a 20 1b 5b 31") || strings.Contains(out, "39 1f 0c 6b") {
		t.Errorf("hex of hostile.tty shows frame headers:\n%s", out)
	}

	// --format raw shows the file as it is, headers and JSON included.
	for _, file := range []string{rec + "hostile.tty", samples + "asciinema-v2.cast"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"hex", "glyphs"} {
			_, got, _ := runCLI(t, "", cmd, "--format", "raw", file)
			_, want, _ := runCLI(t, string(b), cmd)
			if got != want {
				t.Errorf("%s --format raw %s differs from the file's bytes:\n got %q\nwant %q", cmd, file, got, want)
			}
		}
	}
	_, out, _ = runCLI(t, "", "hex", "--format", "raw", rec+"hostile.tty")
	if !strings.HasPrefix(out, "0x00000000  39 1f 0c 6b fd 54 0a 00  c8 00 00 00") {
		t.Errorf("hex --format raw lacks the first frame header:\n%s", out)
	}

	// Stdin with --format is loaded as a capture too.
	b, err := os.ReadFile(rec + "hostile.cast")
	if err != nil {
		t.Fatal(err)
	}
	_, got, _ := runCLI(t, string(b), "glyphs", "--format", "asciicast")
	_, want, _ := runCLI(t, "", "glyphs", rec+"hostile.cast")
	if got != want || strings.Contains(got, "pwned-title") {
		t.Errorf("glyphs --format asciicast on stdin:\n got %q\nwant %q", got, want)
	}
}

// TestHexAndGlyphsStreams checks the per-stream headings of a capture with
// an output and an input stream, --stream, and the loader's notes.
func TestHexAndGlyphsStreams(t *testing.T) {
	const cast = "../../capture/testdata/samples/asciinema-v2-stdin.cast"
	out := string(streamBytes(t, cast, capture.StreamOutput))
	in := string(streamBytes(t, cast, capture.StreamInput))
	for _, cmd := range [][]string{{"glyphs"}, {"glyphs", "--describe"}, {"hex"}} {
		_, o, _ := runCLI(t, out, cmd...)
		_, i, _ := runCLI(t, in, cmd...)
		want := fmt.Sprintf("‹stream output, %d bytes›\n%s\n‹stream input, %d bytes›\n%s", len(out), o, len(in), i)
		code, got, errs := runCLI(t, "", append(cmd, cast)...)
		if code != 0 || got != want {
			t.Errorf("%v: exit %d, stdout\n%q\nwant\n%q", cmd, code, got, want)
		}
		if !strings.Contains(errs, "note: asciicast-v2 capture is lossy") {
			t.Errorf("%v: stderr %q lacks the lossy note", cmd, errs)
		}
		code, got, _ = runCLI(t, "", append(cmd, "--stream", "input", cast)...)
		if code != 0 || got != i {
			t.Errorf("%v --stream input: exit %d, stdout %q, want %q", cmd, code, got, i)
		}
	}
	code, _, errs := runCLI(t, "", "hex", "--stream", "stderr", cast)
	if code != 2 || !strings.Contains(errs, `no stream "stderr"`) {
		t.Errorf("unknown stream: exit %d, stderr %q", code, errs)
	}
}

// TestGlyphsLookalikes checks that text imitating the glyphs' own markers
// is shown escaped, so it cannot pass for a control, a chip or a size.
func TestGlyphsLookalikes(t *testing.T) {
	in := "␛]0;T␇ ⋄ ‹CSI 31m› ‹5 bytes› ░ ␦ ␢ ›"
	want := "<U+241B>]0;T<U+2407> <U+22C4> <U+2039>CSI 31m<U+203A> <U+2039>5 bytes<U+203A> <U+2591> <U+2426> <U+2422> <U+203A>\n"
	for _, args := range [][]string{{"glyphs"}, {"glyphs", "--chips"}, {"glyphs", "--payloads"}} {
		if _, got, _ := runCLI(t, in, args...); got != want {
			t.Errorf("%v: %q, want %q", args, got, want)
		}
	}
	_, got, _ := runCLI(t, "‹›", "hex")
	if want := "0x00000000  e2 80 b9 e2 80 ba                                 |‹››‹››|\n0x00000006\n"; got != want {
		t.Errorf("hex: %q, want %q", got, want)
	}
}
