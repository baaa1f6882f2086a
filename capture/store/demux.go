package store

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// Demux is a push parser of the framed raw artifact format: bytes written
// to it in any split are parsed as they arrive, and each chunk record's
// bytes are passed on to Chunk without being held. It serves readers that
// must not hold a whole artifact (the cleaned-text index is built from the
// bytes the store writes) and checks the framing, not the digests
// ([DecodeArtifact] checks those).
//
// Memory is bounded by MaxManifest (the manifest and trailer are held
// whole); chunk bytes are passed on in the pieces they were written in.
type Demux struct {
	// Manifest, if set, is called once with the decoded manifest.
	Manifest func(m *Manifest) error
	// Chunk is called with consecutive pieces of each chunk record's bytes,
	// in artifact order, and the id of the record's stream. p is valid only
	// during the call.
	Chunk func(stream uint8, p []byte) error

	state   demuxState
	buf     []byte
	want    int   // bytes state collects into buf
	left    int64 // payload bytes left in the current chunk
	stream  uint8
	ids     map[uint8]bool
	trailer *Trailer
	err     error
}

type demuxState uint8

const (
	demuxHeader   demuxState = iota // magic, version, manifest length
	demuxManifest                   // manifest JSON
	demuxKind                       // record kind byte
	demuxChunkHdr                   // rest of a chunk header
	demuxPayload                    // chunk bytes
	demuxEndLen                     // trailer length
	demuxTrailer                    // trailer JSON
	demuxDone                       // nothing may follow
)

const headerLen = len(Magic) + 2 + 4

// Write parses p. After the first error, every call returns it; errors wrap
// [ErrFormat] or are the callbacks' own.
func (d *Demux) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && d.err == nil {
		if d.state == demuxPayload {
			k := int(min(d.left, int64(len(p))))
			if d.Chunk != nil {
				d.err = d.Chunk(d.stream, p[:k])
			}
			p, d.left = p[k:], d.left-int64(k)
			if d.left == 0 {
				d.expect(demuxKind, 1)
			}
			continue
		}
		if d.state == demuxDone {
			d.err = fmt.Errorf("%w: data after end record", ErrFormat)
			break
		}
		if d.want == 0 {
			d.expect(demuxHeader, headerLen)
		}
		k := min(d.want-len(d.buf), len(p))
		d.buf = append(d.buf, p[:k]...)
		p = p[k:]
		if len(d.buf) == d.want {
			d.err = d.step()
		}
	}
	if d.err != nil {
		return 0, d.err
	}
	return n, nil
}

// expect moves to state s, collecting n bytes.
func (d *Demux) expect(s demuxState, n int) {
	d.state, d.want, d.buf = s, n, d.buf[:0]
}

// step handles a complete part in buf.
func (d *Demux) step() error {
	switch d.state {
	case demuxHeader:
		n := binary.BigEndian.Uint32(d.buf[len(Magic)+2:])
		if !Sniff(d.buf) {
			return fmt.Errorf("%w: bad magic", ErrFormat)
		}
		if n > MaxManifest {
			return fmt.Errorf("%w: manifest of %d bytes is over %d", ErrFormat, n, MaxManifest)
		}
		d.state, d.want = demuxManifest, headerLen+int(n) // keep the header: decodeHeader checks it all
	case demuxManifest:
		m, err := decodeHeader(bufio.NewReader(bytes.NewReader(d.buf)))
		if err != nil {
			return err
		}
		d.ids = map[uint8]bool{}
		for _, s := range m.Streams {
			d.ids[s.ID] = true
		}
		if d.Manifest != nil {
			if err := d.Manifest(m); err != nil {
				return err
			}
		}
		d.expect(demuxKind, 1)
	case demuxKind:
		switch d.buf[0] {
		case recordChunk:
			d.expect(demuxChunkHdr, chunkHeader-1)
		case recordEnd:
			d.expect(demuxEndLen, 4)
		default:
			return fmt.Errorf("%w: unknown record kind 0x%02x", ErrFormat, d.buf[0])
		}
	case demuxChunkHdr:
		d.stream = d.buf[0]
		d.left = int64(binary.BigEndian.Uint32(d.buf[13:]))
		if !d.ids[d.stream] || d.left == 0 || d.left > MaxRecord {
			return fmt.Errorf("%w: bad chunk record header", ErrFormat)
		}
		d.state = demuxPayload
	case demuxEndLen:
		n := binary.BigEndian.Uint32(d.buf)
		if n > MaxManifest {
			return fmt.Errorf("%w: trailer of %d bytes is over %d", ErrFormat, n, MaxManifest)
		}
		d.expect(demuxTrailer, int(n))
		if n == 0 {
			return d.step()
		}
	case demuxTrailer:
		var t Trailer
		if err := json.Unmarshal(d.buf, &t); err != nil {
			return fmt.Errorf("%w: trailer: %v", ErrFormat, err)
		}
		d.trailer = &t
		d.state = demuxDone
	}
	return nil
}

// Trailer returns the artifact's trailer once the end record has been
// parsed, and an error wrapping [ErrFormat] before that (a truncated
// artifact) or the first error Write returned.
func (d *Demux) Trailer() (*Trailer, error) {
	switch {
	case d.err != nil:
		return nil, d.err
	case d.trailer == nil:
		return nil, fmt.Errorf("%w: no end record (truncated artifact)", ErrFormat)
	}
	return d.trailer, nil
}
