package store

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sort"
)

// Index is a raw artifact read once from start to end and checked as
// [DecodeArtifact] checks it, which keeps where each stream's bytes lie in
// the artifact instead of the bytes: memory is the chunk list, whatever
// the artifact's size. Stream bytes are then read by range from the
// artifact (an [io.ReaderAt], such as the file, or a decrypting reader
// over it).
type Index struct {
	// Manifest is the artifact's header.
	Manifest Manifest
	// Streams describes each manifest stream, in manifest order.
	Streams []IndexStream
	// Chunks lists the stored chunks in the order they were read.
	Chunks []Chunk
	// Trailer is the artifact's end record.
	Trailer Trailer
	// Size is the artifact's length in bytes.
	Size int64
	// Digest is the SHA-256 of the whole artifact, its reference.
	Digest Ref
}

// IndexStream is one stream of an [Index].
type IndexStream struct {
	// ID is the stream id in chunk records.
	ID uint8
	// Name is the stream's name, such as "stdout".
	Name string
	// Len is the number of bytes stored, the first Len bytes of the
	// stream.
	Len int64
	// Seen is the number of bytes the collector read, at least Len.
	Seen int64
	// SHA256 is the digest of the stored bytes, checked against them.
	SHA256 [sha256.Size]byte

	src  io.ReaderAt
	segs []span
}

// span maps stream bytes [off, off+n) to artifact bytes [src, src+n).
type span struct{ off, src, n int64 }

// Truncated reports whether the stream passed the raw limit, so it holds
// only a prefix of what the command wrote.
func (s *IndexStream) Truncated() bool { return s.Seen > s.Len }

// Segments calls f for each run of the stream's bytes in the artifact, in
// stream order: stream offset off, artifact offset src, length n, in
// bytes.
func (s *IndexStream) Segments(f func(off, src, n int64)) {
	for _, g := range s.segs {
		f(g.off, g.src, g.n)
	}
}

// ReadAt implements [io.ReaderAt] over the stream's stored bytes, reading
// from the artifact.
func (s *IndexStream) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("store: negative offset")
	}
	if off >= s.Len {
		return 0, io.EOF
	}
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].off+s.segs[i].n > off })
	n := 0
	for n < len(p) && i < len(s.segs) {
		g := s.segs[i]
		within := off - g.off
		m := int(min(int64(len(p)-n), g.n-within))
		k, err := s.src.ReadAt(p[n:n+m], g.src+within)
		n += k
		off += int64(k)
		if k < m {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
		i++
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Reader returns a reader over the stream's stored bytes.
func (s *IndexStream) Reader() *io.SectionReader { return io.NewSectionReader(s, 0, s.Len) }

// Stream returns the stream named name, or nil if there is none.
func (x *Index) Stream(name string) *IndexStream {
	for i := range x.Streams {
		if x.Streams[i].Name == name {
			return &x.Streams[i]
		}
	}
	return nil
}

// ReadIndex reads the raw artifact of size bytes in r once, in order, and
// returns its index, with streams that read from r. It checks what
// [DecodeArtifact] checks, and hashes the whole artifact into
// Index.Digest; it does not compare the digest with a reference
// ([Store.OpenArtifact] does). Errors wrap [ErrFormat] or [ErrCorrupt].
func ReadIndex(r io.ReaderAt, size int64) (*Index, error) {
	whole := sha256.New()
	cr := &countingReader{r: io.TeeReader(io.NewSectionReader(r, 0, size), whole)}
	br := bufio.NewReaderSize(cr, 64<<10)
	m, err := decodeHeader(br)
	if err != nil {
		return nil, err
	}
	x := &Index{Manifest: *m, Size: size}
	hashes := make([]hash.Hash, len(m.Streams))
	for i, s := range m.Streams {
		hashes[i] = sha256.New()
		x.Streams = append(x.Streams, IndexStream{ID: s.ID, Name: s.Name, src: r})
	}
	pos := func() int64 { return cr.n - int64(br.Buffered()) }
	err = readRecords(br, m, &x.Trailer, func(i int, c Chunk) error {
		s := &x.Streams[i]
		src, n := pos(), int64(c.Length)
		if k, _ := io.CopyN(hashes[i], br, n); k != n {
			return fmt.Errorf("%w: chunk %d cut short", ErrFormat, c.Seq)
		}
		if k := len(s.segs); k > 0 && s.segs[k-1].src+s.segs[k-1].n == src {
			s.segs[k-1].n += n
		} else {
			s.segs = append(s.segs, span{off: s.Len, src: src, n: n})
		}
		c.Offset = s.Len
		x.Chunks = append(x.Chunks, c)
		s.Len += n
		return nil
	})
	if err != nil {
		return nil, err
	}
	checks := make([]streamCheck, len(x.Streams))
	for i := range x.Streams {
		s := &x.Streams[i]
		copy(s.SHA256[:], hashes[i].Sum(nil))
		checks[i] = streamCheck{id: s.ID, name: s.Name, stored: s.Len, sum: s.SHA256}
	}
	seen, err := checkTrailer(&x.Trailer, checks, len(x.Chunks))
	if err != nil {
		return nil, err
	}
	for i := range x.Streams {
		x.Streams[i].Seen = seen[i]
	}
	copy(x.Digest[:], whole.Sum(nil))
	return x, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ArtifactFile is a raw artifact of the store opened for reading by range:
// its [Index], whose streams read from the open file. Close it when done.
type ArtifactFile struct {
	*Index
	f *os.File
}

// File returns the artifact file, positioned nowhere in particular; read
// it with ReadAt or through an io.SectionReader.
func (a *ArtifactFile) File() *os.File { return a.f }

// Close closes the artifact file.
func (a *ArtifactFile) Close() error { return a.f.Close() }

// OpenArtifact opens the raw artifact r and reads it once to index and
// check it: its SHA-256 must be r (else [ErrCorrupt]; its bytes are never
// returned) and its records must be well formed and agree with the
// trailer. Memory is the chunk list, not the artifact. Errors are those of
// [Store.ReadRaw] and [ReadIndex].
func (s *Store) OpenArtifact(r Ref) (*ArtifactFile, error) {
	f, err := s.openRawFile(r) // seal.go: decrypted when encrypted at rest
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	x, err := ReadIndex(f, fi.Size())
	if err != nil {
		err = fmt.Errorf("%s: %w", r, err)
	}
	// A blob that does not parse may be corrupt rather than malformed:
	// the digest decides first, as for ReadRaw.
	if d, herr := digestOf(x, f); herr == nil && d != r {
		err = fmt.Errorf("%w: %s does not match its digest", ErrCorrupt, r)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &ArtifactFile{Index: x, f: f}, nil
}

// digestOf returns the index's digest, or, without an index, the SHA-256
// of the whole file.
func digestOf(x *Index, f *os.File) (Ref, error) {
	if x != nil {
		return x.Digest, nil
	}
	h := sha256.New()
	var d Ref
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, 1<<62)); err != nil {
		return d, err
	}
	copy(d[:], h.Sum(nil))
	return d, nil
}
