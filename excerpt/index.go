// Package excerpt keeps the cleaned text of each stream of a raw artifact
// beside it in the restricted store, with a line index, and answers
// bounded questions about it: lines from..to, the lines matching a pattern
// with context, the removal report of a record or of a line range, and
// whether a digest is the record's. Answers never re-read the raw bytes,
// so they work when the raw artifact is encrypted and the reader holds no
// key, and they never hold raw bytes: every line is cleaned text, tied to
// the byte span of the raw stream it came from.
//
// The cleaned text is written while the store writes the artifact (a
// [store.Sidecar], see [Sidecar]), from the same plaintext.
//
// Files of a record, in the store's clean/<hex>/ directory:
//
//	meta.json     Meta: policy, exit status, per-stream counts, reports, digests
//	NAME.txt      the cleaned text of stream NAME
//	NAME.idx      the line index of NAME: one 16-byte entry per line and one
//	              after the last, each the line's offset in NAME.txt and the
//	              offset in the raw stream where its span begins, both
//	              big-endian uint64
package excerpt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
)

// MetaSchema is the schema name of meta.json.
const MetaSchema = "bytelens.clean/v1"

// MaxLines is the number of lines indexed per stream. Past it the cleaned
// text is no longer kept (the stream is still cleaned and its report
// complete) and StreamMeta.Truncated is set: an index entry is 16 bytes,
// so a stream of empty lines cannot make the index 16 times its size
// without bound.
const MaxLines = 1 << 22

const entrySize = 16

// Meta describes a record's cleaned text.
type Meta struct {
	Schema string `json:"schema"`
	// Ref is the raw artifact's reference.
	Ref string `json:"ref"`
	// Policy is the sanitizer options, in sanitize.ParsePolicy's form.
	Policy string `json:"policy"`
	// Command is the command line, cleaned and shell-quoted.
	Command string `json:"command"`
	// ExitCode, Signal and TimedOut are the trailer's.
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
	// Streams are in the artifact's manifest order.
	Streams []StreamMeta `json:"streams"`
}

// StreamMeta describes the cleaned text of one stream.
type StreamMeta struct {
	Name string `json:"name"`
	// Lines is the number of indexed lines; a last line without LF counts.
	Lines int64 `json:"lines"`
	// BytesRaw is the number of raw bytes stored (and cleaned), BytesSeen
	// the number the command wrote (more when the stream passed the raw
	// limit), BytesClean the cleaned text kept, all in bytes.
	BytesRaw   int64 `json:"bytes_raw"`
	BytesSeen  int64 `json:"bytes_seen"`
	BytesClean int64 `json:"bytes_clean"`
	// SHA256 is the lowercase hex SHA-256 of the stored raw bytes.
	SHA256 string `json:"sha256"`
	// Truncated is set when the stream had more than MaxLines lines: the
	// text and index stop there.
	Truncated bool `json:"truncated,omitempty"`
	// Report is the removal report of the stored raw bytes.
	Report sanitize.Report `json:"report"`
}

// Sidecar returns a store sidecar factory ([store.Store.SetSidecar]) that
// keeps the cleaned text of every artifact written, cleaned under opts.
func Sidecar(opts sanitize.Options) func(*store.Store) (store.Sidecar, error) {
	return func(st *store.Store) (store.Sidecar, error) {
		dir, err := st.NewCleanTemp()
		if err != nil {
			return nil, err
		}
		ix := &indexer{st: st, dir: dir, opts: opts, ids: map[uint8]*streamIndex{}}
		ix.demux.Manifest = ix.manifest
		ix.demux.Chunk = func(id uint8, p []byte) error { return ix.ids[id].feed(p) }
		return ix, nil
	}
}

// indexer is the sidecar: it parses the framed artifact and cleans each
// stream into its text and index files.
type indexer struct {
	st    *store.Store
	dir   string
	opts  sanitize.Options
	demux store.Demux
	meta  Meta
	ids   map[uint8]*streamIndex
	order []*streamIndex
}

func (ix *indexer) Write(p []byte) (int, error) { return ix.demux.Write(p) }

func (ix *indexer) manifest(m *store.Manifest) error {
	ix.meta = Meta{Schema: MetaSchema, Policy: ix.opts.String()}
	ix.meta.Command, _ = capture.CleanField(capture.ShellQuote(m.Argv))
	for _, sd := range m.Streams {
		s, err := newStreamIndex(ix.dir, sd.Name, ix.opts)
		if err != nil {
			return err
		}
		ix.ids[sd.ID] = s
		ix.order = append(ix.order, s)
	}
	return nil
}

func (ix *indexer) Commit(r store.Ref) error {
	t, err := ix.demux.Trailer()
	if err != nil {
		ix.Abort()
		return err
	}
	ix.meta.Ref = r.String()
	ix.meta.ExitCode, ix.meta.Signal, ix.meta.TimedOut = t.ExitCode, t.Signal, t.TimedOut
	for i, s := range ix.order {
		sm, err := s.finish()
		if err != nil {
			ix.Abort()
			return err
		}
		if i < len(t.Streams) {
			sm.BytesSeen, sm.SHA256 = t.Streams[i].Seen, t.Streams[i].SHA256
		}
		ix.meta.Streams = append(ix.meta.Streams, sm)
	}
	js, err := safejson.Marshal(ix.meta)
	if err == nil {
		err = os.WriteFile(filepath.Join(ix.dir, "meta.json"), js, 0o600)
	}
	if err == nil {
		err = ix.st.CommitClean(ix.dir, r)
	}
	if err != nil {
		ix.Abort()
	}
	return err
}

func (ix *indexer) Abort() {
	for _, s := range ix.order {
		s.close()
	}
	ix.order = nil
	os.RemoveAll(ix.dir)
}

// streamIndex cleans one stream. Raw bytes are fed in pieces that end
// after each byte that can end a line (LF, VT, FF, CR), so that the
// cleaned bytes one piece produces can be tied to it: a line's raw span
// begins where the piece that produced its first cleaned byte begins
// (after the last such byte before it), and ends where the next line's
// begins. The spans tile the stream; a removed control before the text of
// a line belongs to that line. A control string whose payload holds one of
// those bytes is split between two spans. Under sanitize.CRScreen a line
// comes out when it scrolls off the screen model, long after the piece
// that drew it: its span begins at the first byte that drew a character
// on it (sanitize.Writer.LineInput), or where the line before it begins
// when that is later, so the spans still tile the stream.
type streamIndex struct {
	name      string
	san       *sanitize.Writer
	text, idx *os.File
	tw, iw    *bufio.Writer
	raw       int64 // raw bytes fed
	piece     int64 // raw offset after the last line-ending byte fed: where the current piece began
	out       int64 // cleaned bytes kept
	lines     int64
	lineStart bool  // the next cleaned byte begins a line
	lineRaw   int64 // the raw offset of the last line's entry
	full      bool  // MaxLines reached
	stop      int64 // with full, the raw offset where the first line not indexed begins
	err       error
}

func newStreamIndex(dir, name string, opts sanitize.Options) (*streamIndex, error) {
	if name != filepath.Base(name) || name == "meta" {
		return nil, fmt.Errorf("excerpt: bad stream name")
	}
	s := &streamIndex{name: name, lineStart: true}
	var err error
	if s.text, err = os.OpenFile(filepath.Join(dir, name+".txt"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
		return nil, err
	}
	if s.idx, err = os.OpenFile(filepath.Join(dir, name+".idx"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
		s.text.Close()
		return nil, err
	}
	s.tw, s.iw = bufio.NewWriterSize(s.text, 32<<10), bufio.NewWriterSize(s.idx, 16<<10)
	s.san = sanitize.NewWriter(s, opts)
	return s, nil
}

// isBreak reports whether b can end a cleaned line: LF, VT, FF, CR.
func isBreak(b byte) bool { return b >= '\n' && b <= '\r' }

// feed cleans p, the next raw bytes of the stream.
func (s *streamIndex) feed(p []byte) error {
	for len(p) > 0 {
		k := len(p)
		for i, b := range p {
			if isBreak(b) {
				k = i + 1
				break
			}
		}
		s.san.Write(p[:k]) // writes to s, which keeps its own error
		s.raw += int64(k)
		if isBreak(p[k-1]) && s.san.InGround() {
			s.piece = s.raw // a break inside a control string's payload ends no line
		}
		p = p[k:]
	}
	return s.err
}

// Write receives the cleaned bytes the current piece produced. It never
// fails; a file error is kept and returned by feed and finish.
func (s *streamIndex) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && !s.full && s.err == nil {
		if s.lineStart {
			if s.lines == MaxLines {
				s.full, s.stop = true, s.piece
				break
			}
			start := s.piece
			if in, ok := s.san.LineInput(s.out); ok {
				start = max(in, s.lineRaw)
			}
			if s.lines == 0 {
				start = 0 // what was removed before the first text belongs to line 1
			}
			s.entry(s.out, start)
			s.lineRaw = start
			s.lines++
			s.lineStart = false
		}
		k := len(p)
		for i, b := range p {
			if b == '\n' {
				k, s.lineStart = i+1, true
				break
			}
		}
		_, s.err = s.tw.Write(p[:k])
		s.out += int64(k)
		p = p[k:]
	}
	return n, nil
}

func (s *streamIndex) entry(clean, raw int64) {
	var e [entrySize]byte
	binary.BigEndian.PutUint64(e[:], uint64(clean))
	binary.BigEndian.PutUint64(e[8:], uint64(raw))
	if _, err := s.iw.Write(e[:]); err != nil && s.err == nil {
		s.err = err
	}
}

// finish ends the stream: the last entry, flushed and closed files.
func (s *streamIndex) finish() (StreamMeta, error) {
	s.san.Close()
	end := s.raw
	if s.full {
		end = s.stop
	}
	s.entry(s.out, end)
	err := errors.Join(s.err, s.tw.Flush(), s.iw.Flush(), s.text.Close(), s.idx.Close())
	sm := StreamMeta{Name: s.name, Lines: s.lines, BytesRaw: s.raw, BytesSeen: s.raw, BytesClean: s.out, Truncated: s.full, Report: s.san.Report()}
	return sm, err
}

func (s *streamIndex) close() {
	s.text.Close()
	s.idx.Close()
}
