package main

import (
	"errors"
	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"io"
	"os"

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

// streamFuncs show one stream: at from an io.ReaderAt of known size (a
// file, a capture's stream, named), stream from a pipe read as it arrives
// (stdin, the output stream). noHeadings leaves out the heading line
// before each of several streams (for JSON Lines, which name the stream).
type streamFuncs struct {
	at         func(name string, r io.ReaderAt, size int64) error
	stream     func(r io.Reader) error
	noHeadings bool
}

// withStreams calls fn with the bytes of each stream of the FILE argument
// ("-" or none is stdin), loaded as clean and report load it (openCapture):
// a recording gives the terminal bytes it holds, not the file's own bytes
// (JSON text, frame headers), and --format raw gives the file as it is.
// When several streams are shown, each is preceded by a heading line
// "‹stream NAME, N bytes›", which the capture's text cannot imitate (render
// escapes ‹ and › in text). Raw stdin, and a FIFO or device named as FILE,
// are read as stdin is (withStdin); with --format they are loaded like
// stdin too.
func withStreams(s *streams, args []string, cf *captureFlags, fn streamFuncs) error {
	if len(args) > 0 && args[0] != "-" {
		if st, err := os.Stat(args[0]); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
			f, err := os.Open(args[0])
			if err != nil {
				return fileError(args[0], err)
			}
			defer f.Close()
			cp := *s
			cp.stdin = f
			s = &cp
			args = nil
		}
	}
	c, raw, _, err := openCapture(s, args, cf)
	if err != nil {
		return err
	}
	if c == nil {
		return withStdin(raw, s.stdout, fn)
	}
	defer c.Close()
	warnCapture(s.stderr, c)
	sts, err := pickStreams(c, cf.stream)
	if err != nil {
		return err
	}
	for i, st := range sts {
		if len(sts) > 1 && !fn.noHeadings {
			if i > 0 {
				s.out.Println()
			}
			if err := s.out.Printf("‹stream %s, %d bytes›\n", st.Name, st.Len); err != nil {
				return err
			}
		}
		if err := fn.at(st.Name, st.Data, st.Len); err != nil {
			return err
		}
	}
	return nil
}

// withStdin shows r: a regular file by its size, anything else (a pipe, a
// terminal, a FIFO) as a stream, read as it arrives and not spooled, so
// the first rows come out at once and nothing is kept on disk. Reading
// stops when stdout is a pipe that nobody reads any more (iostreams.OutputGone).
func withStdin(r io.Reader, stdout io.Writer, fn streamFuncs) error {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil {
				return fn.at(capture.StreamOutput, io.NewSectionReader(f, pos, st.Size()-pos), st.Size()-pos)
			}
		}
	}
	err := fn.stream(&untilGone{r: r, gone: iostreams.OutputGone(stdout)})
	switch {
	case errors.Is(err, errOutputGone):
		return exitError{exitFailure} // as quiet as SIGPIPE
	case err != nil:
		return render.Errorf("reading stdin: %w", err)
	}
	return nil
}

// errOutputGone is the error of an untilGone whose output is gone.
var errOutputGone = errors.New("standard output was closed")

// untilGone reads r until gone is closed.
type untilGone struct {
	r    io.Reader
	gone <-chan struct{}
}

func (u *untilGone) Read(p []byte) (int, error) {
	select {
	case <-u.gone:
		return 0, errOutputGone
	default:
		return u.r.Read(p)
	}
}
