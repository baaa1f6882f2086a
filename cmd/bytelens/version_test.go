package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/version"
)

func TestVersionCommands(t *testing.T) {
	want := "bytelens " + currentVersion().Safe().String() + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != want || errs != "" {
			t.Errorf("%v: exit %d %q %q, want %q", args, code, out, errs, want)
		}
	}
	code, out, _ := runCLI(t, "", "version", "--json")
	var v version.Info
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Module != "github.com/bytelens/bytelens" || v.Go == "" {
		t.Errorf("version --json: exit %d %v %q", code, err, out)
	}
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string // the first lines, in order
	}{
		{[]string{"clean", "--cr", ""}, []string{"lines", "screen", "drop", "overwrite"}},
		{[]string{"report", "--format-chars", ""}, []string{"strip", "keep", "escape"}},
		{[]string{"hex", "--c1", ""}, []string{"introducers", "lone"}},
		{[]string{"glyphs", "--format", ""}, []string{"raw", "asciicast-v1"}},
		{[]string{"clean", "--stream", ""}, []string{"output", "input", "stdout", "stderr"}},
		{[]string{"extract", "--as", ""}, []string{"hex", "text"}},
		{[]string{"diff", "--b-policy", "cr=drop,"}, []string{"cr=drop,cr=lines", "cr=drop,cr=screen", "cr=drop,cr=drop", "cr=drop,cr=overwrite"}},
	}
	for _, tt := range tests {
		code, out, _ := runCLI(t, "", append([]string{"__complete"}, tt.args...)...)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) < len(tt.want) || strings.Join(lines[:len(tt.want)], ",") != strings.Join(tt.want, ",") {
			t.Errorf("__complete %q: exit %d\n%s\nwant first %q", tt.args, code, out, tt.want)
		}
	}
}

func TestCompleteRefs(t *testing.T) {
	withStore(t)
	ref := collect(t)
	for _, tc := range []struct {
		word string
		ref  bool
	}{{"rest", true}, {"restricted:sha256:", true}, {ref[:25], true}, {"re", false}, {"", false}, {"README", false}} {
		_, out, _ := runCLI(t, "", "__complete", "view", tc.word)
		if strings.Contains(out, ref) != tc.ref {
			t.Errorf("__complete view %q: %q (want the reference: %v)", tc.word, out, tc.ref)
		}
	}
}
