// Package extract takes bytes out of the raw artifacts of the store
// without letting them reach a terminal, and checks files against them:
// Range shows a bounded range of a stream as hex digits or as cleaned
// text, Export copies raw bytes to a file that is not a terminal, and
// Verify says whether a file holds an artifact or one of its streams.
// These are bytelens extract and bytelens verify; their JSON forms
// (schemas Schema and VerifySchema) are documented in docs/json.md.
package extract

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/mattn/go-isatty"
)

// MaxRange is the most bytes that one Range call shows.
const MaxRange = 4096

// Schema is the version of a Result's JSON form.
const Schema = "bytelens.extract/v1"

// StreamArtifact is the stream name that Export takes for the whole
// framed artifact file.
const StreamArtifact = "artifact"

var (
	// ErrNoStream is returned, wrapped with the name asked for, for a
	// stream that the artifact does not have.
	ErrNoStream = errors.New("the artifact has no stream")
	// ErrTerminal is returned by Export for a file that is a terminal or
	// any other device but the sinks (sinks): the kernel log
	// (/dev/kmsg, whose messages reach the system console), a console, a
	// serial line or a printer shows or passes on what it is given, and
	// a disk is overwritten.
	ErrTerminal = errors.New("refusing to write raw bytes to a terminal or device")
	// ErrSameFile is returned by Export for a path in the store (the
	// artifact's own file, which writing would destroy before it was
	// read, another artifact's, a cleaned text) or a link to the
	// artifact's file from outside it.
	ErrSameFile = errors.New("refusing to write raw bytes into the store")
)

// RangeError is a START:END range that is malformed or that the stream
// does not hold (store.ParseSpan's error).
type RangeError struct{ Err error }

// Error returns store.ParseSpan's words: the offsets and the stream's
// length, never its bytes.
func (e *RangeError) Error() string { return e.Err.Error() }

// Unwrap returns store.ParseSpan's error (store.ErrSpanSyntax for a
// malformed range).
func (e *RangeError) Unwrap() error { return e.Err }

// Result is bytes [Start, End) of one stream of the artifact Ref, as hex
// digits (As "hex") or as cleaned text (As "text"), never as raw bytes.
// Stream is the stream's name as the manifest gives it, escaped
// (render.Line): the artifact's writer chose it.
type Result struct {
	Schema      string      `json:"schema"`
	Ref         string      `json:"ref"`
	Stream      render.Safe `json:"stream"`
	Start       int         `json:"start"`
	End         int         `json:"end"`
	StreamBytes int64       `json:"stream_bytes"` // stored bytes of the stream
	As          string      `json:"as"`           // "hex" or "text"
	Hex         string      `json:"hex,omitempty"`
	Text        string      `json:"text,omitempty"`

	dump []byte // the range as bytelens hex shows it, for As "hex"
}

// Range returns the range rng ("START:END", END excluded, either may be
// omitted; see store.ParseSpan) of stream of the artifact ref, at most
// MaxRange bytes, as hex (as "hex") or cleaned under opts from the
// stream's start (as "text", sanitize.CleanSpan: a range inside a control
// string shows none of its payload). The artifact is checked against its
// digest first; the range is read from the file, never the whole stream
// into memory. Errors: *RangeError, ErrNoStream, and the store's.
func Range(st *store.Store, ref store.Ref, stream, rng, as string, opts sanitize.Options) (*Result, error) {
	a, sm, err := openStream(st, ref, stream)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	start, end, err := span(sm, rng, MaxRange)
	if err != nil {
		return nil, err
	}
	x := &Result{Schema: Schema, Ref: ref.String(), Stream: render.LineString(sm.Name), Start: start, End: end, StreamBytes: sm.Len, As: as}
	if as == "text" {
		b, err := sanitize.CleanSpan(sm, int64(start), int64(end), opts)
		x.Text = string(b)
		return x, err
	}
	raw, err := io.ReadAll(io.NewSectionReader(sm, int64(start), int64(end-start)))
	if err != nil {
		return nil, err
	}
	x.Hex = hex.EncodeToString(raw)
	var dump bytes.Buffer
	o := render.HexOptions{Skip: int64(start), Length: int64(end - start), Policy: opts, NoSqueeze: true}
	if err := render.HexDump(&dump, sm, sm.Len, o); err != nil {
		return nil, err
	}
	x.dump = dump.Bytes()
	return x, nil
}

// WriteText writes the range for a person: as bytelens hex shows it
// (render.HexDump: offsets, hex digits, the glyph column classed in the
// stream's context, payloads drawn ░), or the cleaned text as it is.
func (x *Result) WriteText(w io.Writer) error {
	if x.As == "text" {
		_, err := io.WriteString(w, x.Text)
		return err
	}
	_, err := w.Write(x.dump)
	return err
}

// openStream opens and checks the artifact ref and finds its stream.
func openStream(st *store.Store, ref store.Ref, stream string) (*store.ArtifactFile, *store.IndexStream, error) {
	a, err := st.OpenArtifact(ref)
	if err != nil {
		return nil, nil, err
	}
	sm := a.Stream(stream)
	if sm == nil {
		a.Close()
		return nil, nil, fmt.Errorf("%w %s", ErrNoStream, strconv.Quote(stream))
	}
	return a, sm, nil
}

// span parses rng for the stream sm, as a *RangeError on failure.
func span(sm *store.IndexStream, rng string, limit int) (start, end int, err error) {
	start, end, err = store.ParseSpan(rng, int(sm.Len), limit)
	if err != nil {
		return 0, 0, &RangeError{err}
	}
	return start, end, nil
}

// Export copies the raw bytes of range rng of stream of the artifact ref
// (any size; the whole stream for ""), or with stream StreamArtifact the
// whole artifact file (rng must then be ""), to path. It refuses a
// terminal or device other than /dev/null, /dev/zero and /dev/full
// (ErrTerminal) before opening it, since opening a device can act (a tape
// rewinds, a serial line raises DTR), and any path in the store, or a
// hard link to the artifact's own file (ErrSameFile). A new file is
// created with mode 0600 and an existing regular file is truncated; a
// pipe (/dev/stdout in a pipeline), a FIFO or a socket is written as it
// is.
func Export(st *store.Store, ref store.Ref, stream, rng, path string) error {
	var r io.Reader
	if stream == StreamArtifact {
		fh, err := st.OpenRaw(ref)
		if err != nil {
			return err
		}
		defer fh.Close()
		r = fh
	} else {
		a, sm, err := openStream(st, ref, stream)
		if err != nil {
			return err
		}
		defer a.Close()
		start, end, err := span(sm, rng, -1)
		if err != nil {
			return err
		}
		r = io.NewSectionReader(sm, int64(start), int64(end-start))
	}
	intoStore := fmt.Errorf("%w (%s)", ErrSameFile, strconv.Quote(path))
	if st.Holds(path) {
		return intoStore
	}
	refused := fmt.Errorf("%w (%s)", ErrTerminal, strconv.Quote(path))
	if fi, err := os.Stat(path); err == nil && device(fi) {
		return refused
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	fi, err := fh.Stat()
	if isatty.IsTerminal(fh.Fd()) || isatty.IsCygwinTerminal(fh.Fd()) || err == nil && device(fi) {
		fh.Close() // the path was swapped for a device after the check
		return refused
	}
	if err == nil && st.IsBlob(ref, fi) {
		fh.Close()
		return intoStore
	}
	if err == nil && fi.Mode().IsRegular() {
		err = fh.Truncate(0)
	}
	if err == nil {
		_, err = io.Copy(fh, r)
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// sinks are the devices that raw bytes may be written to: they discard
// them (/dev/null, /dev/zero) or fail every write (/dev/full, a full disk
// for tests).
var sinks = [...]string{"/dev/null", "/dev/zero", "/dev/full"}

// device reports whether fi is a character or block device other than
// the sinks.
func device(fi os.FileInfo) bool {
	if fi.Mode()&os.ModeDevice == 0 {
		return false
	}
	for _, s := range sinks {
		if sfi, err := os.Stat(s); err == nil && os.SameFile(fi, sfi) {
			return false
		}
	}
	return true
}
