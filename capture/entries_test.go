package capture

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

func TestStoreEntries(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.FixedZone("x", 3600))
	raw := store.Entry{Kind: store.KindRaw, Ref: store.Ref{1}, Size: 7, ModTime: now, Argv: []string{"echo", "a b", "\x1b]52;c;eA==\x07"}}
	se := NewStoreEntry(raw)
	if se.Ref != raw.Ref.String() || se.Name != "" || se.Bytes != 7 || !se.Time.Equal(now) || se.Time.Location() != time.UTC ||
		!slices.Equal(se.MetadataCleaned, []string{"argv[2]"}) || se.Argv[1] != "a b" || se.Argv[2] == raw.Argv[2] {
		t.Errorf("NewStoreEntry(raw) = %+v", se)
	}
	if got := EntryCommand(raw); got != "echo 'a b' "+ShellQuote(raw.Argv[2:]) {
		t.Errorf("EntryCommand(raw) = %q", got)
	}
	if got := EntryName(raw); got != raw.Ref.String() {
		t.Errorf("EntryName(raw) = %q", got)
	}
	tmp := store.Entry{Kind: store.KindTemp, Name: "tmp 1", InProgress: true}
	if se := NewStoreEntry(tmp); se.Ref != "" || se.Name != "tmp 1" || !se.InProgress {
		t.Errorf("NewStoreEntry(temp) = %+v", se)
	}
	for _, tt := range []struct {
		e         store.Entry
		name, cmd string
	}{
		{tmp, "'tmp 1'", "(being written by a run)"},
		{store.Entry{Kind: store.KindTemp, Name: "t"}, "t", "(left by a run that died; store prune removes it)"},
		{store.Entry{Kind: store.KindEnvelope}, store.Ref{}.String(), "-"},
	} {
		if n, c := EntryName(tt.e), EntryCommand(tt.e); n != tt.name || c != tt.cmd {
			t.Errorf("%+v: name %q command %q; want %q %q", tt.e, n, c, tt.name, tt.cmd)
		}
	}
}

func TestSelect(t *testing.T) {
	c := &Capture{Streams: []Stream{{Name: StreamStdout}, {Name: StreamStderr}}}
	if sts, err := c.Select(""); err != nil || len(sts) != 2 || sts[1] != &c.Streams[1] {
		t.Errorf("Select all = %v, %v", sts, err)
	}
	if sts, err := c.Select(StreamStderr); err != nil || len(sts) != 1 || sts[0] != &c.Streams[1] {
		t.Errorf("Select stderr = %v, %v", sts, err)
	}
	_, err := c.Select("input")
	var ne *NoStreamError
	if !errors.As(err, &ne) || !errors.Is(err, ErrNoStream) || err.Error() != `capture has no stream "input" (it has stdout, stderr)` {
		t.Errorf("Select input = %v", err)
	}
}
