package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newExtractCmd, newVerifyCmd) }

// maxExtract is the most bytes one extract call shows as hex or text.
const maxExtract = 4096

type extractFlags struct {
	rng, as, stream, output string
	raw                     bool
	policy                  *policyFlags
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
	if f.stream == "artifact" && (!f.raw || f.rng != "") {
		return usagef("--stream artifact exports the whole artifact: use it with --raw -o FILE and no --range")
	}
	sopts, err := f.policy.options()
	if err != nil {
		return err
	}
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
	start, end, err := parseRange(f.rng, int(sm.Len), limit)
	if err != nil {
		return err
	}
	part := io.NewSectionReader(sm, int64(start), int64(end-start))
	switch {
	case f.raw:
		return exportRaw(f.output, part)
	case f.as == "text":
		out, err := cleanRange(sm, int64(start), part, sopts)
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
		return writeHexRows(s.out, b, start)
	}
}

// parseRange parses "START:END" (decimal or 0x hex; START defaults to 0,
// END to START+limit or the end of the stream) for a stream of n bytes.
// A range over limit bytes (limit >= 0), or that starts or explicitly
// ends past the stream, is a usage error that gives the stream's length;
// the default END is cut to n.
func parseRange(s string, n, limit int) (start, end int, err error) {
	bad := usagef("--range wants START:END byte offsets, such as 0:4096 or 0x100:0x200")
	if s == "" {
		s = ":"
	}
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, bad
	}
	num := func(x string) (int, bool) {
		v, err := strconv.ParseInt(x, 0, 64)
		return int(v), err == nil && v >= 0 && v <= 1<<40
	}
	if a != "" {
		if start, ok = num(a); !ok {
			return 0, 0, bad
		}
	}
	switch {
	case b != "":
		if end, ok = num(b); !ok {
			return 0, 0, bad
		}
	case limit >= 0:
		end = start + limit
	default:
		end = n
	}
	if end < start {
		return 0, 0, usagef("--range: END %d is before START %d", end, start)
	}
	if limit >= 0 && end-start > limit {
		return 0, 0, usagef("--range: %d bytes asked, at most %d per call", end-start, limit)
	}
	switch {
	case start > n || start == n && n > 0:
		return 0, 0, usagef("--range: START %d is past the end of the stream, which holds %d bytes", start, n)
	case b != "" && end > n:
		return 0, 0, usagef("--range: END %d is past the end of the stream, which holds %d bytes", end, n)
	}
	return start, min(end, n), nil
}

// cleanRange returns the cleaned text that part, the bytes of stream from
// start on, produces when the stream is cleaned from its beginning, so the
// parser is in the right state at start (a range inside a control string
// shows none of its payload). The bytes before start are streamed through
// the cleaner, not held.
func cleanRange(stream io.ReaderAt, start int64, part io.Reader, opts sanitize.Options) ([]byte, error) {
	var out bytes.Buffer
	sw := &switchWriter{}
	w := sanitize.NewWriter(sw, opts)
	if _, err := io.Copy(w, io.NewSectionReader(stream, 0, start)); err != nil {
		return nil, err
	}
	sw.w = &out
	if _, err := io.Copy(w, part); err != nil {
		return nil, err
	}
	w.Close()
	return out.Bytes(), nil
}

// switchWriter discards until w is set.
type switchWriter struct{ w io.Writer }

func (s *switchWriter) Write(p []byte) (int, error) {
	if s.w == nil {
		return len(p), nil
	}
	return s.w.Write(p)
}

// writeHexRows writes p as rows of an offset and up to 16 hex bytes, with
// no text column: nothing of p is written as characters.
func writeHexRows(w *render.Writer, p []byte, base int) error {
	for off := 0; off < len(p); off += 16 {
		row := p[off:min(off+16, len(p))]
		half := row[:min(8, len(row))]
		w.Printf("%08x  % x", base+off, half)
		if len(row) > 8 {
			w.Printf("  % x", row[8:])
		}
		w.Printf("\n")
	}
	return w.Err()
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
	return &cobra.Command{
		Use:   "verify REF FILE",
		Short: "Check whether a file holds the same bytes as a raw artifact or one of its streams",
		Long: `Verify checks the raw artifact REF in the store (its digest must match),
then compares the SHA-256 of FILE ("-" for stdin) with the digest of the
artifact file itself and with the digest of each stream's stored bytes.
It prints what matched and exits 0, or prints "no match" and exits 1.
A stream that passed the raw limit is matched by its stored prefix only.`,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error { return runVerify(s, args[0], args[1]) },
	}
}

func runVerify(s *streams, refArg, path string) error {
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
	if sum == ref {
		return s.out.Printf("match: artifact %s (%d bytes)\n", ref, n)
	}
	// Every stream with these bytes is named: two empty streams both
	// match an empty file. A stream that passed the raw limit matches by
	// its stored prefix, never by an empty one: that holds none of it.
	matched := false
	for i := range a.Streams {
		sm := &a.Streams[i]
		if sm.SHA256 != sum || sm.Truncated() && sm.Len == 0 {
			continue
		}
		matched = true
		switch {
		case sm.Truncated():
			s.out.Printf("match: %s (the first %d of %d bytes; the stream passed the raw limit)\n", sm.Name, sm.Len, sm.Seen)
		case sm.Len == 0:
			s.out.Printf("match: %s (0 bytes: the command wrote nothing to it)\n", sm.Name)
		default:
			s.out.Printf("match: %s (%d bytes)\n", sm.Name, sm.Len)
		}
	}
	if matched {
		return s.out.Err()
	}
	s.out.Printf("no match: sha256:%s (%d bytes) is neither the artifact nor any of its streams\n", hex.EncodeToString(sum[:]), n)
	if err := s.out.Err(); err != nil {
		return err
	}
	return exitError{exitFailure}
}
