package capture

import (
	"fmt"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

// loadArtifact loads a bytelens raw artifact (docs/artifact.md): stdout
// and stderr as separate streams, one frame event per chunk the collector
// read, with its time, and the exit status. The artifact is read once and
// checked whole (store.ReadIndex); its streams are then served from the
// source by range, so an artifact of any size loads in the memory of its
// chunk list.
func (l *loader) loadArtifact() error {
	x, err := store.ReadIndex(l.r, l.size)
	if err != nil {
		return err
	}
	l.fromIndex(x)
	return nil
}

// fromIndex builds the capture from the index of an artifact that l's
// source holds.
func (l *loader) fromIndex(x *store.Index) {
	l.c.Format = FormatArtifact
	l.c.Timed = true
	l.c.Start = x.Manifest.Started
	l.c.ExitCode, l.c.ExitKnown = x.Trailer.ExitCode, x.Trailer.Signal == "" && x.Trailer.ExitCode >= 0
	l.meta("command", ShellQuote(x.Manifest.Argv))
	l.meta("cwd", x.Manifest.Cwd)
	for i := range x.Streams {
		s := &x.Streams[i]
		b := l.stream(s.Name)
		s.Segments(func(_, src, n int64) { l.addSource(b, src, n) })
		if s.Truncated() {
			l.c.Truncated = true
			l.warnf(0, -1, "stream %s: the collector read %d bytes and kept the first %d (--max-raw)", s.Name, s.Seen, s.Len)
		}
	}
	for _, ch := range x.Chunks {
		l.event(l.stream(ch.Stream), Event{Kind: EventFrame, Off: ch.Offset, Len: int64(ch.Length), Time: max(ch.T, 0), Label: fmt.Sprintf("chunk %d", ch.Seq)})
	}
	if l.c.ExitKnown {
		for _, b := range l.streams {
			l.event(b, Event{Kind: EventExit, Off: b.n, Time: time.Duration(x.Trailer.DurationNS), Code: x.Trailer.ExitCode})
		}
	}
}

// OpenArtifact opens the raw artifact that ref names in the restricted
// store s, after checking its SHA-256 against ref (store.ErrCorrupt when
// it does not match: the blob is never shown). The artifact is read once
// to check it; its streams then read from the open file, so artifacts of
// any size open in the memory of their chunk list. Close the capture when
// done.
func OpenArtifact(s *store.Store, ref store.Ref) (*Capture, error) {
	a, err := s.OpenArtifact(ref)
	if err != nil {
		return nil, err
	}
	l := newLoader(a.File(), a.Size, OpenOptions{})
	l.fromIndex(a.Index)
	c := l.finish()
	c.Path = ref.String()
	c.closer = a
	return c, nil
}
