package main

import (
	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func newGlyphsCmd(s *streams) *cobra.Command {
	var o render.StreamOptions
	var describe, asJSON bool
	var cf *captureFlags
	var g *sanitize.Options
	cmd := &cobra.Command{
		Use:     "glyphs [FILE]",
		Short:   "Show every byte as a visible glyph, or list every sequence with --describe",
		Long:    help("glyphs"),
		Example: help("glyphs.example"),
		Args:    cobra.MaximumNArgs(1),
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
