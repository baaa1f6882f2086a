package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/version"
)

// TestMCPServerVersion checks that bytelens mcp tells its client the
// version that bytelens version prints, and that requests piped in whole,
// the input ending at once, are answered.
func TestMCPServerVersion(t *testing.T) {
	withStore(t)
	code, out, errs := cli(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n", "mcp")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var res struct {
		Result struct {
			ServerInfo struct{ Name, Version string }
		}
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &res); err != nil {
		t.Fatalf("answer to initialize %q: %v", out, err)
	}
	if si, want := res.Result.ServerInfo, version.Current().Version; si.Name != "bytelens" || si.Version != want {
		t.Errorf("serverInfo %+v, want bytelens %q", si, want)
	}
}
