package main

import (
	"io"

	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newGlyphsCmd) }

func newGlyphsCmd(s *streams) *cobra.Command {
	var o render.StreamOptions
	var g grammarFlags
	var describe bool
	var cf *captureFlags
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

A file is loaded by format as clean loads it (asciinema casts, ttyrec,
script typescripts, CI logs; --format overrides sniffing): a recording
shows the terminal bytes it holds, offsets counted in the stream, not its
JSON text or frame headers; --format raw shows the file as it is. A
capture with several streams is shown stream by stream, each after a
"‹stream NAME, N bytes›" line (--stream picks one). Stdin is raw bytes
unless --format names a format.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			pol, err := g.options()
			if err != nil {
				return err
			}
			o.Policy = pol
			// Glyphs end with exactly one line feed.
			endLine := func(write func(w io.Writer) error) error {
				lw := &lastByteWriter{w: s.stdout, last: '\n'}
				if err := write(lw); err != nil {
					return err
				}
				if lw.last != '\n' {
					return s.out.Println()
				}
				return nil
			}
			return withStreams(s, args, cf, streamFuncs{
				at: func(r io.ReaderAt, size int64) error {
					if describe {
						return render.WriteDescriptions(s.stdout, r, size, o)
					}
					return endLine(func(w io.Writer) error { return render.WriteGlyphs(w, r, size, o) })
				},
				stream: func(r io.Reader) error {
					if describe {
						return render.WriteDescriptionsReader(s.stdout, r, o)
					}
					return endLine(func(w io.Writer) error { return render.WriteGlyphsReader(w, r, o) })
				},
			})
		},
	}
	f := cmd.Flags()
	f.BoolVar(&describe, "describe", false, "list each sequence with offset, length, name and description")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped instead of their size")
	f.BoolVar(&o.Chips, "chips", false, "show each sequence as one labelled chip")
	g.add(f)
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
