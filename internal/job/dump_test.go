package job

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/render"
)

// TestDump checks that Dump writes raw stdin as it is read, the streams
// of a capture that --stream picks, and refuses a stream it lacks.
func TestDump(t *testing.T) {
	d := dump.Glyphs(render.StreamOptions{EndLine: true})
	e, _ := env()
	var raw bytes.Buffer
	if err := e.Dump(&raw, open(t, "-", "a\x1b[31mb\n", capture.ArgOptions{}), "", d); err != nil || !strings.Contains(raw.String(), "a") || strings.Contains(raw.String(), "\x1b") {
		t.Errorf("raw stdin: %q, %v", raw.String(), err)
	}
	cast := samples + "asciinema-v2-stdin.cast"
	var all, one bytes.Buffer
	if err := e.Dump(&all, open(t, cast, "", capture.ArgOptions{}), "", d); err != nil {
		t.Fatal(err)
	}
	if err := e.Dump(&one, open(t, cast, "", capture.ArgOptions{}), capture.StreamInput, d); err != nil || one.Len() == 0 || one.Len() >= all.Len() {
		t.Errorf("--stream input: %d bytes of %d, %v", one.Len(), all.Len(), err)
	}
	if err := e.Dump(&one, open(t, cast, "", capture.ArgOptions{}), capture.StreamStderr, d); !errors.Is(err, capture.ErrNoStream) {
		t.Errorf("missing stream: %v, want capture.ErrNoStream", err)
	}
}
