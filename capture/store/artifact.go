package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/safejson"
)

// The framed raw artifact format, version 1 (docs/artifact.md):
//
//	header  magic (10 bytes) | version u16 | manifest length u32 | manifest JSON
//	chunk   0x01 | stream id u8 | seq u32 | t_ns u64 | length u32 | bytes
//	end     0x00 | trailer length u32 | trailer JSON, then end of file
//
// Integers are big-endian.

// Magic is the first bytes of every raw artifact. The high byte and the
// CR LF SUB LF tail catch 7-bit channels and newline translation, as in PNG.
const Magic = "\x89BLRAW\r\n\x1a\n"

// Version is the format version this package writes and reads.
const Version = 1

// ArtifactSchema is the schema name in every manifest this package writes.
const ArtifactSchema = "bytelens.artifact/v1"

// Limits the decoder enforces, in bytes.
const (
	// MaxManifest is the largest manifest or trailer accepted.
	MaxManifest = 1 << 20
	// MaxRecord is the largest chunk record payload accepted.
	MaxRecord = 1 << 24
)

const (
	recordEnd   = 0x00
	recordChunk = 0x01
	chunkHeader = 1 + 1 + 4 + 8 + 4
)

// Standard stream ids, the file descriptor numbers of the streams.
const (
	StreamStdout uint8 = 1
	StreamStderr uint8 = 2
)

// Manifest is the JSON header of a raw artifact: what ran and which streams
// the records carry. It is written before any output is read.
type Manifest struct {
	// Schema is ArtifactSchema.
	Schema string `json:"schema"`
	// Argv is the command line, exact: control and format characters are
	// kept (JSON escapes them), unlike the cleaned argv of an envelope.
	// Arguments that are not valid UTF-8 hold U+FFFD in place of the
	// invalid bytes here, and ArgvBytes holds them exactly.
	Argv []string `json:"argv"`
	// Executable is the absolute path of the program that ran, exact (see
	// Argv); empty in artifacts written before it was recorded.
	Executable string `json:"executable,omitempty"`
	// Cwd is the working directory the command ran in, exact (see Argv).
	Cwd string `json:"cwd"`
	// Stdin is where standard input came from (the envelope's stdin),
	// exact (see Argv); empty in artifacts written before it was recorded.
	Stdin string `json:"stdin,omitempty"`
	// ArgvBytes, CwdBytes and StdinBytes are set only when the value is
	// not valid UTF-8, which a JSON string cannot carry: the exact bytes
	// (base64 in JSON), all of argv's elements when any of them is
	// invalid. [Manifest.ExactArgv] and the like prefer them.
	ArgvBytes  [][]byte `json:"argv_bytes,omitempty"`
	CwdBytes   []byte   `json:"cwd_bytes,omitempty"`
	StdinBytes []byte   `json:"stdin_bytes,omitempty"`
	// Started is when the command was started; record times are offsets
	// from it.
	Started time.Time `json:"started"`
	// Streams lists the streams in the order readers should present them.
	Streams []StreamDesc `json:"streams"`
	// MaxRaw is the per-stream limit on stored bytes the collector used;
	// negative means no limit.
	MaxRaw int64 `json:"max_raw"`
}

// SetExact sets Argv, Cwd and Stdin to the exact values given, and the
// *Bytes fields for those that are not valid UTF-8.
func (m *Manifest) SetExact(argv []string, cwd, stdin string) {
	m.Argv, m.Cwd, m.Stdin = slices.Clone(argv), cwd, stdin
	m.ArgvBytes, m.CwdBytes, m.StdinBytes = nil, nil, nil
	if slices.ContainsFunc(argv, func(a string) bool { return !utf8.ValidString(a) }) {
		for _, a := range argv {
			m.ArgvBytes = append(m.ArgvBytes, []byte(a))
		}
	}
	if !utf8.ValidString(cwd) {
		m.CwdBytes = []byte(cwd)
	}
	if !utf8.ValidString(stdin) {
		m.StdinBytes = []byte(stdin)
	}
}

// ExactArgv returns the command line exactly as run: from ArgvBytes when
// set, else Argv.
func (m *Manifest) ExactArgv() []string {
	if m.ArgvBytes == nil {
		return slices.Clone(m.Argv)
	}
	out := make([]string, len(m.ArgvBytes))
	for i, b := range m.ArgvBytes {
		out[i] = string(b)
	}
	return out
}

// ExactCwd returns the working directory exactly: CwdBytes when set, else
// Cwd.
func (m *Manifest) ExactCwd() string {
	if m.CwdBytes != nil {
		return string(m.CwdBytes)
	}
	return m.Cwd
}

// ExactStdin returns the stdin name exactly: StdinBytes when set, else
// Stdin.
func (m *Manifest) ExactStdin() string {
	if m.StdinBytes != nil {
		return string(m.StdinBytes)
	}
	return m.Stdin
}

// StreamDesc names a stream id used by chunk records.
type StreamDesc struct {
	// ID is the stream id in chunk records, 1 to 255.
	ID uint8 `json:"id"`
	// Name is the stream's name, such as "stdout".
	Name string `json:"name"`
}

// Trailer is the JSON end record of a raw artifact: totals per stream and
// how the command ended. Its presence marks the artifact complete.
type Trailer struct {
	// Streams holds one entry per manifest stream.
	Streams []StreamEnd `json:"streams"`
	// Chunks is the number of chunks the collector read across all
	// streams, stored or not.
	Chunks int64 `json:"chunks"`
	// ExitCode is the command's exit code, or -1 if it did not exit
	// normally.
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended the command ("SIGKILL"), or is
	// empty.
	Signal string `json:"signal,omitempty"`
	// TimedOut reports that the collector killed the command's process
	// group at its time limit.
	TimedOut bool `json:"timed_out,omitempty"`
	// DurationNS is the run time in nanoseconds.
	DurationNS int64 `json:"duration_ns"`
}

// StreamEnd gives a stream's totals in a trailer.
type StreamEnd struct {
	// ID is the stream id.
	ID uint8 `json:"id"`
	// Seen is the number of bytes the collector read from the stream.
	Seen int64 `json:"seen"`
	// Stored is the number of bytes kept in chunk records, a prefix of
	// the stream; it is less than Seen when the stream passed MaxRaw.
	Stored int64 `json:"stored"`
	// SHA256 is the lowercase hex SHA-256 of the stored bytes.
	SHA256 string `json:"sha256"`
}

// Chunk is one read by the collector: which stream, where in it, and when.
type Chunk struct {
	// Seq numbers the reads across all streams in the order the collector
	// made them, from 0. Chunks past the raw limit are not stored, so
	// stored chunks may skip numbers.
	Seq uint32
	// Stream is the name of the stream the chunk came from.
	Stream string
	// Offset is the chunk's position in its stream, in bytes.
	Offset int64
	// Length is the number of bytes stored for the chunk.
	Length int
	// T is the time of the read, from Manifest.Started.
	T time.Duration
}

// Stream is the stored bytes of one stream of an artifact.
type Stream struct {
	// ID is the stream id in chunk records.
	ID uint8
	// Name is the stream's name, such as "stdout".
	Name string
	// Data is the stored bytes, the first Stored bytes of the stream.
	Data []byte
	// Seen is the number of bytes the collector read, at least len(Data).
	Seen int64
}

// Truncated reports whether the stream passed the raw limit, so Data holds
// only a prefix of what the command wrote.
func (s *Stream) Truncated() bool { return s.Seen > int64(len(s.Data)) }

// Artifact is a decoded raw artifact.
type Artifact struct {
	// Manifest is the artifact's header.
	Manifest Manifest
	// Streams holds each manifest stream's bytes, in manifest order.
	Streams []Stream
	// Chunks lists the stored chunks in the order they were read.
	Chunks []Chunk
	// Trailer is the artifact's end record.
	Trailer Trailer
}

// Stream returns the stream named name, or nil if there is none.
func (a *Artifact) Stream(name string) *Stream {
	for i := range a.Streams {
		if a.Streams[i].Name == name {
			return &a.Streams[i]
		}
	}
	return nil
}

// Sniff reports whether prefix, the first bytes of a file, begins a raw
// artifact. It needs len(Magic) bytes to say yes.
func Sniff(prefix []byte) bool { return bytes.HasPrefix(prefix, []byte(Magic)) }

// ArtifactWriter writes a raw artifact to an underlying writer: the header
// at creation, one record per chunk, and the trailer at Finish. It keeps the
// per-stream totals and hashes the trailer needs. It is not safe for
// concurrent use; the collector serialises calls so that record order is
// read order.
type ArtifactWriter struct {
	w       *bufio.Writer
	streams map[uint8]*streamState
	order   []uint8
	chunks  int64
	lastSeq int64
	err     error
}

type streamState struct {
	seen, stored int64
	h            hash.Hash
}

// NewArtifactWriter writes the header with manifest m to w and returns a
// writer for the records. m.Schema is set to ArtifactSchema if empty. It
// fails if m names no stream, a stream id 0, a duplicate id or an empty
// name.
func NewArtifactWriter(w io.Writer, m Manifest) (*ArtifactWriter, error) {
	if m.Schema == "" {
		m.Schema = ArtifactSchema
	}
	if err := checkStreams(m.Streams); err != nil {
		return nil, err
	}
	js, err := safejson.Marshal(m)
	if err != nil {
		return nil, err
	}
	if len(js) > MaxManifest {
		return nil, fmt.Errorf("store: manifest is %d bytes, over %d", len(js), MaxManifest)
	}
	aw := &ArtifactWriter{w: bufio.NewWriterSize(w, 64<<10), streams: map[uint8]*streamState{}, lastSeq: -1}
	for _, s := range m.Streams {
		aw.streams[s.ID] = &streamState{h: sha256.New()}
		aw.order = append(aw.order, s.ID)
	}
	var hdr [len(Magic) + 2 + 4]byte
	copy(hdr[:], Magic)
	binary.BigEndian.PutUint16(hdr[len(Magic):], Version)
	binary.BigEndian.PutUint32(hdr[len(Magic)+2:], uint32(len(js)))
	aw.write(hdr[:])
	aw.write(js)
	return aw, aw.err
}

func checkStreams(ss []StreamDesc) error {
	if len(ss) == 0 {
		return fmt.Errorf("%w: manifest names no stream", ErrFormat)
	}
	seen := map[uint8]bool{}
	names := map[string]bool{}
	for _, s := range ss {
		if s.ID == 0 || seen[s.ID] || s.Name == "" || names[s.Name] {
			return fmt.Errorf("%w: bad stream list in manifest", ErrFormat)
		}
		seen[s.ID], names[s.Name] = true, true
	}
	return nil
}

func (aw *ArtifactWriter) write(p []byte) {
	if aw.err == nil {
		_, aw.err = aw.w.Write(p)
	}
}

// Chunk accounts for a read of seen bytes from stream at time t and writes
// a record storing p, the first len(p) of those bytes: len(p) < seen when
// the read crossed the raw limit, and an empty p (past the limit) writes no
// record but still counts. seq must increase from call to call. The first
// error from the underlying writer is kept and returned by this and every
// later call.
func (aw *ArtifactWriter) Chunk(stream uint8, seq uint32, t time.Duration, p []byte, seen int) error {
	st, ok := aw.streams[stream]
	if !ok {
		return fmt.Errorf("store: unknown stream id %d", stream)
	}
	if int64(seq) <= aw.lastSeq {
		return fmt.Errorf("store: chunk seq %d not after %d", seq, aw.lastSeq)
	}
	if len(p) > MaxRecord || len(p) > seen {
		return fmt.Errorf("store: chunk of %d bytes (seen %d) out of range", len(p), seen)
	}
	if t < 0 {
		t = 0
	}
	aw.lastSeq = int64(seq)
	aw.chunks++
	st.seen += int64(seen)
	if len(p) == 0 {
		return aw.err
	}
	st.stored += int64(len(p))
	st.h.Write(p)
	var hdr [chunkHeader]byte
	hdr[0] = recordChunk
	hdr[1] = stream
	binary.BigEndian.PutUint32(hdr[2:], seq)
	binary.BigEndian.PutUint64(hdr[6:], uint64(t))
	binary.BigEndian.PutUint32(hdr[14:], uint32(len(p)))
	aw.write(hdr[:])
	aw.write(p)
	return aw.err
}

// Stored returns the number of bytes stored so far for stream.
func (aw *ArtifactWriter) Stored(stream uint8) int64 {
	if st, ok := aw.streams[stream]; ok {
		return st.stored
	}
	return 0
}

// Finish fills in t's stream totals and chunk count, writes the end record
// and flushes. The caller sets the exit fields of t. It does not close the
// underlying writer.
func (aw *ArtifactWriter) Finish(t Trailer) error {
	t.Streams = t.Streams[:0]
	for _, id := range aw.order {
		st := aw.streams[id]
		t.Streams = append(t.Streams, StreamEnd{ID: id, Seen: st.seen, Stored: st.stored, SHA256: hex.EncodeToString(st.h.Sum(nil))})
	}
	t.Chunks = aw.chunks
	js, err := safejson.Marshal(t)
	if err != nil {
		return err
	}
	var hdr [5]byte
	hdr[0] = recordEnd
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(js)))
	aw.write(hdr[:])
	aw.write(js)
	if aw.err == nil {
		aw.err = aw.w.Flush()
	}
	return aw.err
}

// DecodeArtifact reads a whole raw artifact from r and checks it: magic,
// version, manifest, every record, the trailer, nothing after it, and that
// each stream's stored bytes match the trailer's length and SHA-256.
// Errors wrap [ErrFormat] for bytes that do not follow the format and
// [ErrCorrupt] for records that disagree with the trailer. It does not check
// the artifact's own digest; [Store.Load] does. Memory use is the size of
// the stored stream bytes plus the chunk list; [ReadIndex] reads an
// artifact of any size.
func DecodeArtifact(r io.Reader) (*Artifact, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	m, err := decodeHeader(br)
	if err != nil {
		return nil, err
	}
	a := &Artifact{Manifest: *m}
	for _, s := range a.Manifest.Streams {
		a.Streams = append(a.Streams, Stream{ID: s.ID, Name: s.Name})
	}
	err = readRecords(br, m, &a.Trailer, func(i int, c Chunk) error {
		s := &a.Streams[i]
		c.Offset = int64(len(s.Data))
		s.Data = append(s.Data, make([]byte, c.Length)...)
		if _, err := io.ReadFull(br, s.Data[c.Offset:]); err != nil {
			return fmt.Errorf("%w: chunk %d cut short", ErrFormat, c.Seq)
		}
		a.Chunks = append(a.Chunks, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	checks := make([]streamCheck, len(a.Streams))
	for i, s := range a.Streams {
		checks[i] = streamCheck{id: s.ID, name: s.Name, stored: int64(len(s.Data)), sum: sha256.Sum256(s.Data)}
	}
	seen, err := checkTrailer(&a.Trailer, checks, len(a.Chunks))
	if err != nil {
		return nil, err
	}
	for i := range a.Streams {
		a.Streams[i].Seen = seen[i]
	}
	return a, nil
}

// readRecords reads the records that follow the header from br up to the
// end record, which it decodes into t, and checks that nothing follows.
// For each chunk record it checks the header and calls chunk with the
// manifest index of its stream and the chunk's seq, stream name, time
// and length (Offset is the caller's); chunk must consume the chunk's
// Length bytes from br.
func readRecords(br *bufio.Reader, m *Manifest, t *Trailer, chunk func(i int, c Chunk) error) error {
	index := map[uint8]int{}
	for i, s := range m.Streams {
		index[s.ID] = i
	}
	lastSeq, lastT := int64(-1), time.Duration(0)
	for {
		kind, err := br.ReadByte()
		if err != nil {
			return fmt.Errorf("%w: no end record (truncated artifact)", ErrFormat)
		}
		switch kind {
		case recordChunk:
			var h [chunkHeader - 1]byte
			if _, err := io.ReadFull(br, h[:]); err != nil {
				return fmt.Errorf("%w: short chunk record", ErrFormat)
			}
			i, ok := index[h[0]]
			seq := binary.BigEndian.Uint32(h[1:])
			tns := binary.BigEndian.Uint64(h[5:])
			n := binary.BigEndian.Uint32(h[13:])
			switch {
			case !ok:
				return fmt.Errorf("%w: chunk %d names unknown stream %d", ErrFormat, seq, h[0])
			case int64(seq) <= lastSeq:
				return fmt.Errorf("%w: chunk seq %d not after %d", ErrFormat, seq, lastSeq)
			case tns > uint64(1<<63-1) || time.Duration(tns) < lastT:
				return fmt.Errorf("%w: chunk %d goes back in time", ErrFormat, seq)
			case n == 0 || n > MaxRecord:
				return fmt.Errorf("%w: chunk %d length %d out of range", ErrFormat, seq, n)
			}
			if err := chunk(i, Chunk{Seq: seq, Stream: m.Streams[i].Name, Length: int(n), T: time.Duration(tns)}); err != nil {
				return err
			}
			lastSeq, lastT = int64(seq), time.Duration(tns)
		case recordEnd:
			var l [4]byte
			if _, err := io.ReadFull(br, l[:]); err != nil {
				return fmt.Errorf("%w: short end record", ErrFormat)
			}
			if err := readJSON(br, binary.BigEndian.Uint32(l[:]), t, "trailer"); err != nil {
				return err
			}
			if _, err := br.ReadByte(); err != io.EOF {
				return fmt.Errorf("%w: data after end record", ErrFormat)
			}
			return nil
		default:
			return fmt.Errorf("%w: unknown record kind 0x%02x", ErrFormat, kind)
		}
	}
}

// decodeHeader reads and checks the magic, version and manifest.
func decodeHeader(br *bufio.Reader) (*Manifest, error) {
	var hdr [len(Magic) + 2 + 4]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return nil, fmt.Errorf("%w: short header", ErrFormat)
	}
	if !Sniff(hdr[:]) {
		return nil, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	if v := binary.BigEndian.Uint16(hdr[len(Magic):]); v != Version {
		return nil, fmt.Errorf("%w: unsupported version %d", ErrFormat, v)
	}
	var m Manifest
	if err := readJSON(br, binary.BigEndian.Uint32(hdr[len(Magic)+2:]), &m, "manifest"); err != nil {
		return nil, err
	}
	if m.Schema != ArtifactSchema {
		return nil, fmt.Errorf("%w: manifest schema is not %s", ErrFormat, ArtifactSchema)
	}
	if err := checkStreams(m.Streams); err != nil {
		return nil, err
	}
	if m.ArgvBytes != nil && len(m.ArgvBytes) != len(m.Argv) {
		return nil, fmt.Errorf("%w: manifest argv_bytes has %d elements, argv %d", ErrFormat, len(m.ArgvBytes), len(m.Argv))
	}
	return &m, nil
}

func readJSON(br *bufio.Reader, n uint32, v any, what string) error {
	if n > MaxManifest {
		return fmt.Errorf("%w: %s of %d bytes is over %d", ErrFormat, what, n, MaxManifest)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(br, buf); err != nil {
		return fmt.Errorf("%w: %s cut short", ErrFormat, what)
	}
	if err := json.Unmarshal(buf, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrFormat, what, err)
	}
	return nil
}

// streamCheck is what the records of one stream held.
type streamCheck struct {
	id     uint8
	name   string
	stored int64
	sum    [sha256.Size]byte
}

// checkTrailer checks the trailer t against what the records held, stream
// by stream in manifest order, and chunks, the number of chunk records. It
// returns each stream's Seen.
func checkTrailer(t *Trailer, streams []streamCheck, chunks int) ([]int64, error) {
	if len(t.Streams) != len(streams) {
		return nil, fmt.Errorf("%w: trailer lists %d streams, manifest %d", ErrCorrupt, len(t.Streams), len(streams))
	}
	seen := make([]int64, len(streams))
	for i, s := range streams {
		e := t.Streams[i]
		switch {
		case e.ID != s.id:
			return nil, fmt.Errorf("%w: trailer stream order differs from manifest", ErrCorrupt)
		case e.Stored != s.stored || e.Seen < e.Stored:
			return nil, fmt.Errorf("%w: stream %s holds %d bytes, trailer says %d of %d", ErrCorrupt, s.name, s.stored, e.Stored, e.Seen)
		case e.SHA256 != hex.EncodeToString(s.sum[:]):
			return nil, fmt.Errorf("%w: stream %s does not match its trailer digest", ErrCorrupt, s.name)
		}
		seen[i] = e.Seen
	}
	if t.Chunks < int64(chunks) {
		return nil, fmt.Errorf("%w: trailer counts %d chunks, %d stored", ErrCorrupt, t.Chunks, chunks)
	}
	return seen, nil
}
