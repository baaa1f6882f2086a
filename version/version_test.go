package version

import (
	"runtime/debug"
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
		if got := Read(tt.bi, tt.ok).Safe().String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}
