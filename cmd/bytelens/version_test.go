package main

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestReadVersion(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/bytelens/bytelens", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-29T11:47:47Z"}, {Key: "vcs.modified", Value: "true"},
		},
	}
	tests := []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{bi, true, "v1.2.0 (revision 0123abcd, 2026-11-29T11:47:47Z, modified; go1.26.0)"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, true, "(devel) (go1.26.0)"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1\x1b]0;x\a"}}, true, "v1␛]0;x␇"},
		{nil, false, "(unknown)"},
	}
	for _, tt := range tests {
		if got := readVersion(tt.bi, tt.ok).Safe().String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestVersionCommands(t *testing.T) {
	want := "bytelens " + currentVersion().Safe().String() + "\n"
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != want || errs != "" {
			t.Errorf("%v: exit %d %q %q, want %q", args, code, out, errs, want)
		}
	}
	code, out, _ := runCLI(t, "", "version", "--json")
	var v buildVersion
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Module != "github.com/bytelens/bytelens" || v.Go == "" {
		t.Errorf("version --json: exit %d %v %q", code, err, out)
	}
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string // the first lines, in order
	}{
		{[]string{"clean", "--cr", ""}, []string{"lines", "overwrite", "drop"}},
		{[]string{"report", "--format-chars", ""}, []string{"strip", "keep", "escape"}},
		{[]string{"hex", "--c1", ""}, []string{"introducers", "lone"}},
		{[]string{"glyphs", "--format", ""}, []string{"raw", "asciicast-v1"}},
		{[]string{"clean", "--stream", ""}, []string{"output", "input", "stdout", "stderr"}},
		{[]string{"extract", "--as", ""}, []string{"hex", "text"}},
		{[]string{"diff", "--b-policy", "cr=drop,"}, []string{"cr=drop,cr=lines", "cr=drop,cr=overwrite"}},
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
