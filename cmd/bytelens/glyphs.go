package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

func newGlyphsCmd(s *streams) *cobra.Command {
	var o render.StreamOptions
	var describe, asJSON bool
	var cf *captureFlags
	var g *policyFlags
	cmd := &cobra.Command{
		Use:   "glyphs [FILE]",
		Short: "Show every byte as a visible glyph, or list every sequence with --describe",
		Long: `glyphs prints a capture (FILE, or stdin when FILE is "-" or absent) as
escaped glyphs: text as itself with line feeds kept as line breaks, C0
controls as Control Pictures (␛ ␍ ␉), DEL ␡, raw C1 and invalid bytes as
<9B>, C1 in UTF-8 as <U+009B>, format characters as <U+202E>, escape
sequences as their bytes (␛[31m) or, with --chips, as one labelled chip
each (‹CSI 31m›). Control string payloads (OSC, DCS, APC, PM, SOS, ESC k)
are collapsed to their size (‹24 bytes›) unless --payloads. Text that
holds these glyphs itself (␛ ⋄ ‹ › ░ …) shows them escaped (<U+241B>), and
text spelled like an escape has its "<" written <3C> (the text "<9B>" shows
as <3C>9B>), so it cannot pass for a control.

--describe lists instead every control, sequence, string, invalid unit and
format character, one per line, with its offset in hex and decimal, its
length in bytes, its name and what it does (payload sizes, never payloads).
With --json each is one JSON object per line (JSON Lines, schema
bytelens.describe/v1, docs/json.md): stream, offset, length, count, name,
description.

A file is loaded by format as clean loads it (asciinema casts, ttyrec,
script typescripts, CI logs; --format overrides sniffing): a recording
shows the terminal bytes it holds, offsets counted in the stream, not its
JSON text or frame headers; --format raw shows the file as it is. A
capture with several streams is shown stream by stream, each after a
"‹stream NAME, N bytes›" line (--stream picks one). Stdin is raw bytes
unless --format names a format; from a pipe or terminal its glyphs are
shown line by line as the lines arrive (tail -f log | bytelens glyphs).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			pol, err := g.options()
			if err != nil {
				return err
			}
			o.Policy = pol
			if asJSON && !describe {
				return usagef("--json goes with --describe")
			}
			if !describe && (len(args) == 0 || args[0] == "-") && (cf.format == "" || cf.format == "raw") && regularSize(s.stdin) == 0 {
				if err := rawStdinFlags(cf); err != nil {
					return err
				}
				return streamGlyphs(s, o)
			}
			return withStreams(s, args, cf, !asJSON, func(name string, r io.ReaderAt, size int64) error {
				switch {
				case asJSON:
					return writeDescriptionsJSON(s.stdout, name, r, size, o)
				case describe:
					return render.WriteDescriptions(s.stdout, r, size, o)
				}
				lw := &lastByteWriter{w: s.stdout, last: '\n'}
				return finishGlyphs(s, lw, render.WriteGlyphs(lw, r, size, o))
			})
		},
	}
	f := cmd.Flags()
	g = addPolicyFlags(f, "c1", "apc-bel")
	f.BoolVar(&describe, "describe", false, "list each sequence with offset, length, name and description")
	f.BoolVar(&asJSON, "json", false, "with --describe, one JSON object per line (schema bytelens.describe/v1)")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped instead of their size")
	f.BoolVar(&o.Chips, "chips", false, "show each sequence as one labelled chip")
	cf = addCaptureFlags(f)
	return cmd
}

// lastByteWriter remembers the last byte written through it, so that the
// output can be ended with exactly one line feed.
type lastByteWriter struct {
	w    io.Writer
	last byte
}

func (l *lastByteWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.last = p[len(p)-1]
	}
	return l.w.Write(p)
}

// describeSchema is the version of glyphs --describe --json lines.
const describeSchema = "bytelens.describe/v1"

// describeLine is one line of glyphs --describe --json.
type describeLine struct {
	Schema      string `json:"schema"`
	Stream      string `json:"stream"`
	Offset      int64  `json:"offset"`
	Length      int64  `json:"length,omitempty"`
	Count       int64  `json:"count,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Unlisted counts controls executed inside the sequence at Offset
	// that are not listed; such a line has no length, name or description.
	Unlisted int64 `json:"unlisted,omitempty"`
}

// writeDescriptionsJSON writes render.Descriptions of one stream as JSON
// Lines through safejson.
func writeDescriptionsJSON(w io.Writer, stream string, r io.ReaderAt, size int64, o render.StreamOptions) error {
	bw := bufio.NewWriter(w)
	enc := safejson.NewEncoder(bw)
	name := render.TextString(stream).String()
	err := render.Descriptions(r, size, o, func(d *render.Description) error {
		return enc.Encode(describeLine{
			Schema: describeSchema, Stream: name, Offset: d.Off, Length: d.Len, Count: d.Count,
			Name: d.Name.String(), Description: d.Text.String(), Unlisted: d.Unlisted,
		})
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// maxGlyphPending is how many bytes streamGlyphs holds while a sequence
// or string stays open; past it the rest is spooled and shown at the end.
var maxGlyphPending = 16 << 20

// streamGlyphs shows stdin (a pipe or terminal) as glyphs while it
// arrives: each piece that ends with a line feed outside any sequence,
// string or UTF-8 unit is rendered and flushed at once, by itself, which
// gives the same glyphs as rendering the whole stream because the decoder
// starts there in ground state, as a fresh one does. While a sequence
// stays open the bytes are held, up to maxGlyphPending; then the rest of
// stdin is spooled and rendered at its end, starting from that ground
// state.
func streamGlyphs(s *streams, o render.StreamOptions) error {
	dec := decode.Decoder{LoneC1: o.Policy.C1 == sanitize.C1Lone, APCBEL: o.Policy.APCBEL}
	lw := &lastByteWriter{w: s.stdout, last: '\n'}
	var pending []byte
	show := func(p []byte) error {
		if len(p) == 0 {
			return nil
		}
		return render.WriteGlyphs(lw, bytes.NewReader(p), int64(len(p)), o)
	}
	nop := func(*decode.Token) {}
	buf := make([]byte, 64<<10)
	for {
		n, err := s.stdin.Read(buf)
		chunk := buf[:n]
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			dec.Feed(chunk[:i+1], nop)
			pending = append(pending, chunk[:i+1]...)
			chunk = chunk[i+1:]
			if dec.InGround() {
				if werr := show(pending); werr != nil {
					return werr
				}
				pending = pending[:0]
			}
		}
		dec.Feed(chunk, nop)
		pending = append(pending, chunk...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
		if len(pending) > maxGlyphPending {
			return withStdin(io.MultiReader(bytes.NewReader(pending), s.stdin), func(r io.ReaderAt, size int64) error {
				return finishGlyphs(s, lw, render.WriteGlyphs(lw, r, size, o))
			})
		}
	}
	return finishGlyphs(s, lw, show(pending))
}

// finishGlyphs ends glyph output with exactly one line feed.
func finishGlyphs(s *streams, lw *lastByteWriter, err error) error {
	if err != nil || lw.last == '\n' {
		return err
	}
	return s.out.Println()
}
