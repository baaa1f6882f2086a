package capture

import (
	"fmt"
	"io"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

// loadArtifact loads a bytelens raw artifact (docs/artifact.md): stdout
// and stderr as separate streams, one frame event per chunk the collector
// read, with its time, and the exit status. The artifact is decoded and
// checked whole (store.DecodeArtifact): its stored bytes are held in
// memory, up to MaxDecoded.
func (l *loader) loadArtifact() error {
	if l.size > l.maxDecoded {
		return fmt.Errorf("raw artifact of %d bytes exceeds the %d-byte limit for decoded captures", l.size, l.maxDecoded)
	}
	a, err := store.DecodeArtifact(io.NewSectionReader(l.r, 0, l.size))
	if err != nil {
		return err
	}
	l.c.Format = FormatArtifact
	l.c.Timed = true
	l.c.Start = a.Manifest.Started
	l.c.ExitCode, l.c.ExitKnown = a.Trailer.ExitCode, a.Trailer.Signal == "" && a.Trailer.ExitCode >= 0
	l.meta("command", ShellQuote(a.Manifest.Argv))
	l.meta("cwd", a.Manifest.Cwd)
	for i := range a.Streams {
		s := &a.Streams[i]
		b := l.memStream(s.Name)
		if !l.appendMem(b, s.Data, 0) {
			break
		}
		if s.Truncated() {
			l.c.Truncated = true
			l.warnf(0, -1, "stream %s: the collector read %d bytes and kept the first %d (--max-raw)", s.Name, s.Seen, len(s.Data))
		}
	}
	for _, ch := range a.Chunks {
		b := l.stream(ch.Stream)
		if ch.Offset+int64(ch.Length) > b.n {
			continue // past what was kept
		}
		l.event(b, Event{Kind: EventFrame, Off: ch.Offset, Len: int64(ch.Length), Time: max(ch.T, 0), Label: fmt.Sprintf("chunk %d", ch.Seq)})
	}
	if l.c.ExitKnown {
		for _, b := range l.streams {
			l.event(b, Event{Kind: EventExit, Off: b.n, Time: time.Duration(a.Trailer.DurationNS), Code: a.Trailer.ExitCode})
		}
	}
	return nil
}

// OpenArtifact opens the raw artifact that ref names in the restricted
// store s, after checking its SHA-256 against ref (store.ErrCorrupt when
// it does not match: the blob is never shown). The capture holds the
// stored bytes in memory; Close releases nothing but is safe to call.
func OpenArtifact(s *store.Store, ref store.Ref) (*Capture, error) {
	f, err := s.OpenRaw(ref)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	c, err := Load(f, fi.Size(), OpenOptions{Format: FormatArtifact.String()})
	if err != nil {
		return nil, err
	}
	c.Path = ref.String()
	return c, nil
}
