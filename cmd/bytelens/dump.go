package main

import (
	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// withStreams writes each stream of the FILE argument ("-" or none is
// stdin) with d (job.Env.Dump), loaded as clean and report load it; raw
// stdin, and a FIFO or device named as FILE, are read as they arrive.
func withStreams(s *streams, args []string, cf *command.Capture, d dump.Dumper) error {
	in, err := cf.OpenArg(args, capture.ArgOptions{Specials: true})
	if err != nil {
		return err
	}
	defer in.Close()
	return s.env().Dump(s.stdout, in, cf.Stream, d)
}

func newHexCmd(s *streams) *cobra.Command {
	var o render.HexOptions
	var cf *command.Capture
	var g *sanitize.Options
	cmd := withHelp("hex", &cobra.Command{
		Use:  "hex [FILE]",
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
			return withStreams(s, args, cf, dump.Hex(o))
		},
	})
	f := cmd.Flags()
	g = addPolicyFlags(f, "c1", "apc-bel")
	f.IntVarP(&o.Width, "width", "w", 16, "bytes per row")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped in the glyph column")
	f.BoolVar(&o.ASCII, "ascii", false, "ASCII-only glyphs, for fonts without Control Pictures")
	f.BoolVarP(&o.NoSqueeze, "no-squeeze", "v", false, "print every row, even identical ones")
	f.Int64VarP(&o.Skip, "skip", "s", 0, "first byte offset to show (decoded from the last CAN, SUB or ESC before it, where every parser state agrees)")
	f.Int64VarP(&o.Length, "length", "n", 0, "number of bytes to show (0: to the end)")
	cf = command.CaptureFlags(f, s.stdin, keys.OpenStore)
	return cmd
}

func newGlyphsCmd(s *streams) *cobra.Command {
	var o render.StreamOptions
	var describe, asJSON bool
	var cf *command.Capture
	var g *sanitize.Options
	cmd := withHelp("glyphs", &cobra.Command{
		Use:  "glyphs [FILE]",
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Policy, o.EndLine = *g, true
			var d dump.Dumper = dump.Glyphs(o)
			switch {
			case asJSON && !describe:
				return usagef("--json goes with --describe")
			case asJSON:
				d = dump.DescriptionsJSON(o)
			case describe:
				d = dump.Descriptions(o)
			}
			return withStreams(s, args, cf, d)
		},
	})
	f := cmd.Flags()
	g = addPolicyFlags(f, "c1", "apc-bel")
	f.BoolVar(&describe, "describe", false, "list each sequence with offset, length, name and description")
	f.BoolVar(&asJSON, "json", false, "with --describe, one JSON object per line (schema bytelens.describe/v1)")
	f.BoolVar(&o.Payloads, "payloads", false, "show control-string payload bytes escaped instead of their size")
	f.BoolVar(&o.Chips, "chips", false, "show each sequence as one labelled chip")
	cf = command.CaptureFlags(f, s.stdin, keys.OpenStore)
	return cmd
}
