package main

import (
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/safejson"

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
			if asJSON && !describe {
				return usagef("--json goes with --describe")
			}
			if asJSON {
				return withStreams(s, args, cf, streamFuncs{
					at: func(name string, r io.ReaderAt, size int64) error {
						return writeDescriptionsJSON(s.stdout, name, func(fn func(*render.Description) error) error {
							return render.Descriptions(r, size, o, fn)
						})
					},
					stream: func(r io.Reader) error {
						return writeDescriptionsJSON(s.stdout, capture.StreamOutput, func(fn func(*render.Description) error) error {
							return render.DescriptionsReader(r, o, fn)
						})
					},
					noHeadings: true,
				})
			}
			if describe {
				return withStreams(s, args, cf, streamFuncs{
					at:     func(_ string, r io.ReaderAt, size int64) error { return render.WriteDescriptions(s.stdout, r, size, o) },
					stream: func(r io.Reader) error { return render.WriteDescriptionsReader(s.stdout, r, o) },
				})
			}
			return withStreams(s, args, cf, streamFuncs{
				at:     func(_ string, r io.ReaderAt, size int64) error { return render.WriteGlyphs(s.stdout, r, size, o) },
				stream: func(r io.Reader) error { return render.WriteGlyphsReader(s.stdout, r, o) },
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

// writeDescriptionsJSON writes the descriptions that each yields as JSON
// Lines (render.DescribeLine) through safejson, in blocks to a regular
// file and a line at a time to a pipe or terminal, so that its reader sees
// them as they come.
func writeDescriptionsJSON(w io.Writer, stream string, each func(fn func(*render.Description) error) error) error {
	bw := iostreams.NewDataWriter(w)
	enc := safejson.NewEncoder(bw)
	err := each(func(d *render.Description) error {
		if err := enc.Encode(d.JSONLine(stream)); err != nil {
			return err
		}
		return bw.EndChunk()
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
