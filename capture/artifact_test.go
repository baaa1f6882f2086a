package capture

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
)

// TestArtifactRoundTrip runs a command through the collector into a store
// and opens its raw artifact as a capture: the streams hold the command's
// exact bytes, chunks are frame events, the exit status is known.
func TestArtifactRoundTrip(t *testing.T) {
	st, err := store.Open(t.TempDir() + "/store")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `printf 'out\033[31mred\033]0;T\007\n'; printf 'err\033[1m\n' >&2; exit 3`)
	env, err := Run(context.Background(), cmd, RunOptions{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := store.ParseRef(env.RawArtifact)
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenArtifact(st, ref)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Format != FormatArtifact || !c.ExitKnown || c.ExitCode != 3 || !c.Timed {
		t.Errorf("format %v exit %v/%d timed %v", c.Format, c.ExitKnown, c.ExitCode, c.Timed)
	}
	for name, want := range map[string]string{StreamStdout: "out\x1b[31mred\x1b]0;T\x07\n", StreamStderr: "err\x1b[1m\n"} {
		s := c.Stream(name)
		if s == nil {
			t.Fatalf("no stream %s", name)
		}
		got, _ := io.ReadAll(s.Reader())
		if !bytes.Equal(got, []byte(want)) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
		if len(s.Events) == 0 || s.Events[0].Kind != EventFrame {
			t.Errorf("%s: events %+v", name, s.Events)
		}
	}
	// Sniffing finds the format without being told.
	f, err := st.OpenRaw(ref)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	if got, _ := Sniff(f, fi.Size()); got != FormatArtifact {
		t.Errorf("Sniff = %v", got)
	}
}
