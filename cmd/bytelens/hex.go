package main

import (
	"fmt"
	"github.com/bytelens/bytelens/capture"
	"io"
	"os"

	"github.com/bytelens/bytelens/render"
	"github.com/spf13/cobra"
)

func newHexCmd(s *streams) *cobra.Command {
	var o render.HexOptions
	var cf *captureFlags
	var g *policyFlags
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
			pol, err := g.options()
			if err != nil {
				return err
			}
			o.Policy = pol
			if o.Width < 1 || o.Width > 256 {
				return usagef("--width must be between 1 and 256, not %d", o.Width)
			}
			if o.Skip < 0 || o.Length < 0 {
				return usagef("--skip and --length must not be negative")
			}
			return withStreams(s, args, cf, true, func(_ string, r io.ReaderAt, size int64) error {
				return render.HexDump(s.stdout, r, size, o)
			})
		},
	}
	f := cmd.Flags()
	g = addPolicyFlags(f, "c1", "apc-bel")
	f.IntVarP(&o.Width, "width", "w", 16, "bytes per row")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped in the glyph column")
	f.BoolVar(&o.ASCII, "ascii", false, "ASCII-only glyphs, for fonts without Control Pictures")
	f.BoolVarP(&o.NoSqueeze, "no-squeeze", "v", false, "print every row, even identical ones")
	f.Int64VarP(&o.Skip, "skip", "s", 0, "first byte offset to show (earlier bytes are still decoded for context)")
	f.Int64VarP(&o.Length, "length", "n", 0, "number of bytes to show (0: to the end)")
	cf = addCaptureFlags(f)
	return cmd
}

// withStreams calls fn with the bytes of each stream of the FILE argument
// ("-" or none is stdin), loaded as clean and report load it (openCapture):
// a recording gives the terminal bytes it holds, not the file's own bytes
// (JSON text, frame headers), and --format raw gives the file as it is.
// With headings set and several streams shown, each is preceded by a
// heading line "‹stream NAME, N bytes›", which the capture's text cannot
// imitate (render escapes ‹ and › in text); fn gets the stream's name. Raw stdin, and a FIFO or device named as FILE,
// are read as stdin is (withStdin); with --format they are loaded like
// stdin too.
func withStreams(s *streams, args []string, cf *captureFlags, headings bool, fn func(name string, r io.ReaderAt, size int64) error) error {
	if len(args) > 0 && args[0] != "-" {
		if st, err := os.Stat(args[0]); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
			f, err := os.Open(args[0])
			if err != nil {
				return fileError(args[0], err)
			}
			defer f.Close()
			s = s.withStdin(f)
			args = nil
		}
	}
	c, raw, _, err := openCapture(s, args, cf)
	if err != nil {
		return err
	}
	if c == nil {
		return withStdin(raw, func(r io.ReaderAt, size int64) error { return fn(capture.StreamOutput, r, size) })
	}
	defer c.Close()
	warnCapture(s.stderr, c)
	sts, err := pickStreams(c, cf.stream)
	if err != nil {
		return err
	}
	for i, st := range sts {
		if headings && len(sts) > 1 {
			if i > 0 {
				s.out.Println()
			}
			if err := s.out.Printf("‹stream %s, %d bytes›\n", st.Name, st.Len); err != nil {
				return err
			}
		}
		if err := fn(st.Name, st.Data, st.Len); err != nil {
			return err
		}
	}
	return nil
}

// withStdin spools r, unless it is a regular file, and calls fn.
func withStdin(r io.Reader, fn func(r io.ReaderAt, size int64) error) error {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil {
				return fn(io.NewSectionReader(f, pos, st.Size()-pos), st.Size()-pos)
			}
		}
	}
	tmp, err := os.CreateTemp("", "bytelens-stdin-*")
	if err != nil {
		return fmt.Errorf("spooling stdin: %w", err)
	}
	// Unlinked at once where the system allows it, so that no copy of the
	// raw bytes outlives the command.
	removed := os.Remove(tmp.Name()) == nil
	defer func() {
		tmp.Close()
		if !removed {
			os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, r)
	if err != nil {
		return fmt.Errorf("reading stdin: %w", err)
	}
	return fn(tmp, n)
}
