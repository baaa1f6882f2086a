package main

import (
	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func newHexCmd(s *streams) *cobra.Command {
	var o render.HexOptions
	var cf *captureFlags
	var g *sanitize.Options
	cmd := &cobra.Command{
		Use:     "hex [FILE]",
		Short:   "Hex dump with a safe glyph column, classed by the parser",
		Long:    help("hex"),
		Example: help("hex.example"),
		Args:    cobra.MaximumNArgs(1),
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
			return withStreams(s, args, cf, dump.Hex(o))
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
