package job

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
)

// TestListStore checks both shapes of the store listing: aligned columns
// under a header, and one JSON object per line.
func TestListStore(t *testing.T) {
	es := []store.Entry{{Kind: store.KindTemp, Name: "tmp/raw-1.tmp", Size: 42, ModTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}
	var data, text bytes.Buffer
	if err := ListStore(&data, render.NewWriter(&text), es, false); err != nil || data.Len() != 0 {
		t.Fatalf("columns: %v, %q on data", err, data.String())
	}
	lines := strings.Split(text.String(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "REFERENCE") || !strings.Contains(lines[1], "42") || !strings.Contains(lines[1], "2026-01-02T03:04:05Z") {
		t.Errorf("columns %q", text.String())
	}
	text.Reset()
	if err := ListStore(&data, render.NewWriter(&text), es, true); err != nil || text.Len() != 0 || strings.Count(data.String(), "\n") != 1 || !strings.Contains(data.String(), `"bytes":42`) {
		t.Errorf("JSON %q, %v", data.String(), err)
	}
}
