package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// assertInertJSON fails when out holds a raw C1, U+2028, U+2029 or format
// character, which some terminal would act on or which hides text.
func assertInertJSON(t *testing.T, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("JSON output is not valid UTF-8: %q", out)
	}
	for i, r := range out {
		if r >= 0x80 && r <= 0x9F || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
			t.Fatalf("raw U+%04X at %d in JSON output %q", r, i, out)
		}
	}
}

// TestJSONOutputsEscape runs every JSON output over names and text that
// hold characters a terminal acts on, and checks they come out escaped.
func TestJSONOutputsEscape(t *testing.T) {
	withStore(t)
	dir := t.TempDir()
	hostile := filepath.Join(dir, "a\u202eb\u0085c\u2028.bin")
	if err := os.WriteFile(hostile, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "r.json")
	for _, tc := range []struct {
		name string
		args []string
		want string // an escape the output must hold
	}{
		{"run envelope", []string{"run", "--format-chars", "keep", "--", "printf", "x\u202ey\u2029"}, `x\u202ey\u2029`},
		// a side's name and a corpus case's are escaped as the messages
		// escape them (render.Safe, render.LineString)
		{"diff json", []string{"diff", "--json", hostile, hostile}, `a\u003cU+202E\u003eb\u003cU+0085\u003ec\u003cU+2028\u003e.bin`},
		{"diff corpus json", []string{"diff", "--json", "--corpus", dir, "--b-policy", "cr=drop", "--all"}, `a\u003cU+202E\u003eb\u003cU+0085\u003ec\u003cU+2028\u003e.bin`},
		{"clean report", []string{"clean", "--report", report, hostile}, ""},
		{"store ls", []string{"store", "ls", "--json"}, `"ref"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, out, _ := cli(t, "", tc.args...)
			assertInertJSON(t, out)
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %s: %q", tc.want, out)
			}
		})
	}
}
