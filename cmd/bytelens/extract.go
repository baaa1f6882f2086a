package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// maxExtract is the most bytes one extract call shows as hex or text.
const maxExtract = 4096

type extractFlags struct {
	rng, as, stream, output string
	raw, asJSON             bool
	policy                  *sanitize.Options
}

func newExtractCmd(s *streams) *cobra.Command {
	f := &extractFlags{}
	cmd := &cobra.Command{
		Use:   "extract REF [--stream NAME] [--range START:END] [--as hex|text | --raw -o FILE]",
		Short: "Show a bounded range of a raw artifact as hex rows or cleaned text",
		Long: `Extract reads the raw artifact REF (restricted:sha256:<hex>) from the
store, checks its digest, and shows bytes START to END (END excluded) of one
stream, at most 4096 bytes per call:

  --as hex    offset and hex rows, no raw text (the default)
  --as text   the range cleaned by the sanitizer, which reads the stream
              from its start so that a range inside a control string
              shows none of its payload

Raw bytes are never written to a terminal: --raw -o FILE exports the
stream (or the range, of any size) to FILE, and refuses when FILE is a
terminal. A new FILE is created with mode 0600, an existing regular file
is replaced, and a pipe (-o /dev/stdout in a pipeline) is written as it
is. --stream artifact with --raw exports the whole framed artifact file.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runExtract(s, f, args[0]) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.rng, "range", "", "byte range `START:END` of the stream (END excluded; either may be omitted)")
	fs.StringVar(&f.as, "as", "hex", "show the range as `hex` or text")
	fs.StringVar(&f.stream, "stream", "stdout", "the stream `NAME`: stdout or stderr (or artifact with --raw)")
	fs.BoolVar(&f.raw, "raw", false, "export raw bytes to the file given by -o")
	fs.StringVarP(&f.output, "output", "o", "", "with --raw, write to `FILE` (never a terminal)")
	fs.BoolVar(&f.asJSON, "json", false, "print the range as a JSON object (schema bytelens.extract/v1): hex digits, or the cleaned text with --as text")
	f.policy = addPolicyFlags(fs)
	return cmd
}

func runExtract(s *streams, f *extractFlags, refArg string) error {
	ref, err := store.ParseRef(refArg)
	if err != nil {
		return usageError{err}
	}
	if f.raw != (f.output != "") {
		return usagef("--raw and -o FILE go together")
	}
	if !f.raw && f.as != "hex" && f.as != "text" {
		return usagef("--as must be hex or text")
	}
	if f.raw && f.asJSON {
		return usagef("--json shows hex or cleaned text; raw bytes go only to a file with --raw -o FILE")
	}
	if f.stream == "artifact" && (!f.raw || f.rng != "") {
		return usagef("--stream artifact exports the whole artifact: use it with --raw -o FILE and no --range")
	}
	sopts := *f.policy
	st, err := openStore()
	if err != nil {
		return err
	}
	if f.stream == "artifact" {
		fh, err := st.OpenRaw(ref)
		if err != nil {
			return err
		}
		defer fh.Close()
		return exportRaw(f.output, fh)
	}
	// The artifact is read once to check it; the range is then read
	// from the file, never the whole stream into memory.
	a, err := st.OpenArtifact(ref)
	if err != nil {
		return keyError(err)
	}
	defer a.Close()
	sm := a.Stream(f.stream)
	if sm == nil {
		return usagef("the artifact has no stream %s", strconv.Quote(f.stream))
	}
	limit := maxExtract
	if f.raw {
		limit = -1
	}
	start, end, err := store.ParseSpan(f.rng, int(sm.Len), limit)
	if err != nil {
		return usagef("--range: %v", err)
	}
	part := io.NewSectionReader(sm, int64(start), int64(end-start))
	switch {
	case f.raw:
		return exportRaw(f.output, part)
	case f.asJSON:
		x := extractResult{Schema: extractSchema, Ref: ref.String(), Stream: sm.Name, Start: start, End: end, StreamBytes: sm.Len, As: f.as}
		var b []byte
		if f.as == "text" {
			b, err = sanitize.CleanSpan(sm, int64(start), int64(end), sopts)
			x.Text = string(b)
		} else {
			b, err = io.ReadAll(part)
			x.Hex = hex.EncodeToString(b)
		}
		if err != nil {
			return err
		}
		return writeJSON(s.stdout, x)
	case f.as == "text":
		out, err := sanitize.CleanSpan(sm, int64(start), int64(end), sopts)
		if err != nil {
			return err
		}
		_, err = s.stdout.Write(out)
		return err
	default:
		b, err := io.ReadAll(part)
		if err != nil {
			return err
		}
		return render.WriteHexRows(s.stdout, b, int64(start))
	}
}

// extractSchema is the version of extract --json.
const extractSchema = "bytelens.extract/v1"

// extractResult is extract --json: bytes [Start, End) of one stream of the
// artifact Ref, as hex digits or as cleaned text, never as raw bytes.
type extractResult struct {
	Schema      string `json:"schema"`
	Ref         string `json:"ref"`
	Stream      string `json:"stream"`
	Start       int    `json:"start"`
	End         int    `json:"end"`
	StreamBytes int64  `json:"stream_bytes"` // stored bytes of the stream
	As          string `json:"as"`           // "hex" or "text"
	Hex         string `json:"hex,omitempty"`
	Text        string `json:"text,omitempty"`
}

// writeJSON writes v as indented JSON through safejson, with a final LF.
func writeJSON(w io.Writer, v any) error {
	b, err := safejson.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// exportRaw copies raw bytes from r to path, refusing a terminal. A new
// file is created with mode 0600 and an existing regular file is
// truncated; any other file (a pipe such as /dev/stdout in a pipeline, a
// FIFO, a device) is written as it is, without truncating.
func exportRaw(path string, r io.Reader) error {
	if path == "-" {
		return usagef("-o - is refused: raw bytes go to a file, never to standard output (to feed a pipe, use -o /dev/stdout)")
	}
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if isatty.IsTerminal(fh.Fd()) || isatty.IsCygwinTerminal(fh.Fd()) {
		fh.Close()
		return hintError{fmt.Errorf("refusing to write raw bytes to a terminal (%s)", strconv.Quote(path)),
			"use bytelens extract --as hex or --as text to look at them, or bytelens view"}
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return err
	}
	if fi.Mode().IsRegular() {
		if err := fh.Truncate(0); err != nil {
			fh.Close()
			return err
		}
	}
	if _, err := io.Copy(fh, r); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func newVerifyCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify REF FILE",
		Short: "Check whether a file holds the same bytes as a raw artifact or one of its streams",
		Long: `Verify checks the raw artifact REF in the store (its digest must match),
then compares the SHA-256 of FILE ("-" for stdin) with the digest of the
artifact file itself and with the digest of each stream's stored bytes.
It prints what matched and exits 0, or prints "no match" and exits 1.
A stream that passed the raw limit is matched by its stored prefix only.`,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error { return runVerify(s, args[0], args[1], asJSON) },
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON (schema bytelens.verify/v1)")
	return cmd
}

// verifySchema is the version of verify --json.
const verifySchema = "bytelens.verify/v1"

// verifyResult is what verify found.
type verifyResult struct {
	Schema     string `json:"schema"`
	Ref        string `json:"ref"`
	FileSHA256 string `json:"file_sha256"`
	FileBytes  int64  `json:"file_bytes"`
	Match      bool   `json:"match"`
	// Matches name what FILE holds: the artifact, or every stream whose
	// stored bytes it holds (two empty streams both match an empty file).
	Matches []verifyMatch `json:"matches"`
}

// verifyMatch is one thing a file matched.
type verifyMatch struct {
	// Name is "artifact" or a stream name.
	Name string `json:"name"`
	// StoredBytes and SeenBytes are a stream's stored and written byte
	// counts; Prefix says it passed the raw limit, so that only its stored
	// prefix was compared.
	StoredBytes int64 `json:"stored_bytes"`
	SeenBytes   int64 `json:"seen_bytes"`
	Prefix      bool  `json:"prefix,omitempty"`
}

func runVerify(s *streams, refArg, path string, asJSON bool) error {
	ref, err := store.ParseRef(refArg)
	if err != nil {
		return usageError{err}
	}
	st, err := openStore()
	if err != nil {
		return err
	}
	if done, err := verifySealed(s, st, ref, path); done { // keys.go
		return err
	}
	// The artifact and each stream are checked by a streaming hash; no
	// stream is read into memory.
	a, err := st.OpenArtifact(ref)
	if err != nil {
		return keyError(err)
	}
	defer a.Close()
	var r io.Reader = s.stdin
	if path != "-" {
		fh, err := os.Open(path)
		if err != nil {
			return fileError(path, err)
		}
		defer fh.Close()
		r = fh
	}
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return err
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	v := verifyResult{Schema: verifySchema, Ref: ref.String(), FileSHA256: hex.EncodeToString(sum[:]), FileBytes: n, Matches: []verifyMatch{}}
	if sum == ref {
		v.Matches = append(v.Matches, verifyMatch{Name: "artifact", StoredBytes: n, SeenBytes: n})
	} else {
		// A stream that passed the raw limit matches by its stored
		// prefix, never by an empty one: that holds none of it.
		for i := range a.Streams {
			sm := &a.Streams[i]
			if sm.SHA256 != sum || sm.Truncated() && sm.Len == 0 {
				continue
			}
			v.Matches = append(v.Matches, verifyMatch{Name: sm.Name, StoredBytes: sm.Len, SeenBytes: sm.Seen, Prefix: sm.Truncated()})
		}
	}
	v.Match = len(v.Matches) > 0
	if asJSON {
		err = writeJSON(s.stdout, v)
	} else {
		writeVerify(s.out, v)
		err = s.out.Err()
	}
	if err == nil && !v.Match {
		return exitError{exitFailure}
	}
	return err
}

// writeVerify prints what verify found for a person; write errors are
// kept in w.
func writeVerify(w *render.Writer, v verifyResult) {
	if !v.Match {
		w.Printf("no match: sha256:%s (%d bytes) is neither the artifact nor any of its streams\n", v.FileSHA256, v.FileBytes)
	}
	for _, m := range v.Matches {
		switch {
		case m.Name == "artifact":
			w.Printf("match: artifact %s (%d bytes)\n", v.Ref, m.StoredBytes)
		case m.Prefix:
			w.Printf("match: %s (the first %d of %d bytes; the stream passed the raw limit)\n", m.Name, m.StoredBytes, m.SeenBytes)
		case m.StoredBytes == 0:
			w.Printf("match: %s (0 bytes: the command wrote nothing to it)\n", m.Name)
		default:
			w.Printf("match: %s (%d bytes)\n", m.Name, m.StoredBytes)
		}
	}
}
