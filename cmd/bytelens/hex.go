package main

import (
	"io"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func newHexCmd(s *streams) *cobra.Command {
	var o render.HexOptions
	var cf *captureFlags
	var g *sanitize.Options
	cmd := &cobra.Command{
		Use:   "hex [FILE]",
		Short: "Hex dump with a safe glyph column, classed by the parser",
		Long: `hex dumps the bytes of a capture (FILE, or stdin when FILE is "-" or
absent): the offset, 16 bytes in hex, and a glyph column in which every
byte is one cell: printable ASCII as itself, C0 controls as Control
Pictures (␛ ␍ ␇), DEL ␡, raw C1 ⋄, invalid UTF-8 ␦, a UTF-8 character on
its lead byte with › on its continuation bytes (‹ when it cannot be drawn
in one cell, or when it is one of these glyphs itself), format characters
␢. Payload bytes of control strings (OSC, DCS, APC, PM, SOS, ESC k) are
drawn ░ unless --payloads; the hex digits are always shown. Runs of
identical rows are squeezed into one "* N identical rows" line. The file
is read in bounded pages, whatever its size.

hex shows the capture's stream bytes; --format raw shows the file as it
is. A file is loaded by format as clean loads it (asciinema casts, ttyrec,
script typescripts, CI logs; --format overrides sniffing): a recording
is dumped as the terminal bytes it holds, offsets counted in the stream,
not its JSON text or frame headers. A capture with several streams is
dumped stream by stream, each after a "‹stream NAME, N bytes›" line
(--stream picks one). Stdin is raw bytes unless --format names a format.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Policy = *g
			o.FromStart = func() {
				s.stderr.Printf("bytelens: note: no CAN, SUB or ESC in the 64 MiB before offset %d to start from: reading from 0\n", o.Skip)
			}
			if o.Width < 1 || o.Width > 256 {
				return usagef("--width must be between 1 and 256, not %d", o.Width)
			}
			if o.Skip < 0 || o.Length < 0 {
				return usagef("--skip and --length must not be negative")
			}
			return withStreams(s, args, cf, streamFuncs{
				at:     func(_ string, r io.ReaderAt, size int64) error { return render.HexDump(s.stdout, r, size, o) },
				stream: func(r io.Reader) error { return render.HexDumpReader(s.stdout, r, o) },
			})
		},
	}
	f := cmd.Flags()
	g = addPolicyFlags(f, "c1", "apc-bel")
	f.IntVarP(&o.Width, "width", "w", 16, "bytes per row")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped in the glyph column")
	f.BoolVar(&o.ASCII, "ascii", false, "ASCII-only glyphs, for fonts without Control Pictures")
	f.BoolVarP(&o.NoSqueeze, "no-squeeze", "v", false, "print every row, even identical ones")
	f.Int64VarP(&o.Skip, "skip", "s", 0, "first byte offset to show (decoded from the last CAN, SUB or ESC before it, where every parser state agrees)")
	f.Int64VarP(&o.Length, "length", "n", 0, "number of bytes to show (0: to the end)")
	cf = addCaptureFlags(f)
	return cmd
}
