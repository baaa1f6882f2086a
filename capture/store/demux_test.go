package store

import (
	"bytes"
	"errors"
	"testing"
)

// Demux passes on each stream's bytes exactly as DecodeArtifact reads
// them, wherever the artifact is split, and refuses what follows the end.
func TestDemuxSplits(t *testing.T) {
	b := sampleArtifact(t)
	a, err := DecodeArtifact(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for cut := 0; cut <= len(b); cut++ {
		got := map[uint8][]byte{}
		var m *Manifest
		d := &Demux{
			Manifest: func(x *Manifest) error { m = x; return nil },
			Chunk:    func(id uint8, p []byte) error { got[id] = append(got[id], p...); return nil },
		}
		if _, err := d.Write(b[:cut]); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if _, err := d.Write(b[cut:]); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		tr, err := d.Trailer()
		if err != nil || m == nil || tr.ExitCode != a.Trailer.ExitCode {
			t.Fatalf("cut %d: trailer %v, %v", cut, tr, err)
		}
		for _, s := range a.Streams {
			if !bytes.Equal(got[s.ID], s.Data) {
				t.Fatalf("cut %d: stream %s: %q, want %q", cut, s.Name, got[s.ID], s.Data)
			}
		}
	}
	d := &Demux{}
	if _, err := d.Write(append(append([]byte{}, b...), 0)); !errors.Is(err, ErrFormat) {
		t.Errorf("byte after end: %v", err)
	}
	d = &Demux{}
	d.Write(b[:len(b)-1])
	if _, err := d.Trailer(); !errors.Is(err, ErrFormat) {
		t.Errorf("truncated: %v", err)
	}
}
