// Package dump writes the byte streams of a capture for a person, as
// bytelens hex and bytelens glyphs show them: hex rows, escaped glyphs,
// a description of each sequence, or those descriptions as JSON Lines.
// Every byte of output comes from render (text and glyphs) or safejson
// (JSON), so no byte of a stream reaches the terminal unescaped.
package dump

import (
	"errors"
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
)

// A Dumper writes one stream to w: At the first size bytes of r (a file,
// a capture's stream named stream), Reader the bytes of a pipe or
// terminal as they arrive, in bounded memory. Its errors are r's and w's.
type Dumper interface {
	At(w io.Writer, stream string, r io.ReaderAt, size int64) error
	Reader(w io.Writer, r io.Reader) error
	// headed reports whether each of several streams is preceded by a
	// heading line (not in JSON Lines, whose lines name their stream).
	headed() bool
}

// Hex writes hex rows with a glyph column (render.HexDump).
type Hex render.HexOptions

// Glyphs writes each byte as a visible glyph (render.WriteGlyphs).
type Glyphs render.StreamOptions

// Descriptions writes a line per control, sequence, string, invalid unit
// and format character (render.WriteDescriptions).
type Descriptions render.StreamOptions

// DescriptionsJSON writes the descriptions as JSON Lines, one
// render.DescribeLine (schema render.DescribeSchema) per line, through
// safejson: in 64 KiB blocks to a regular file, a line at a time to a
// pipe or terminal (iostreams.DataWriter), so that its reader sees each
// as it comes.
type DescriptionsJSON render.StreamOptions

// At implements Dumper.
func (o Hex) At(w io.Writer, _ string, r io.ReaderAt, size int64) error {
	return render.HexDump(w, r, size, render.HexOptions(o))
}

// Reader implements Dumper.
func (o Hex) Reader(w io.Writer, r io.Reader) error {
	return render.HexDumpReader(w, r, render.HexOptions(o))
}

// At implements Dumper.
func (o Glyphs) At(w io.Writer, _ string, r io.ReaderAt, size int64) error {
	return render.WriteGlyphs(w, r, size, render.StreamOptions(o))
}

// Reader implements Dumper.
func (o Glyphs) Reader(w io.Writer, r io.Reader) error {
	return render.WriteGlyphsReader(w, r, render.StreamOptions(o))
}

// At implements Dumper.
func (o Descriptions) At(w io.Writer, _ string, r io.ReaderAt, size int64) error {
	return render.WriteDescriptions(w, r, size, render.StreamOptions(o))
}

// Reader implements Dumper.
func (o Descriptions) Reader(w io.Writer, r io.Reader) error {
	return render.WriteDescriptionsReader(w, r, render.StreamOptions(o))
}

// At implements Dumper.
func (o DescriptionsJSON) At(w io.Writer, stream string, r io.ReaderAt, size int64) error {
	return writeJSONLines(w, stream, func(fn func(*render.Description) error) error {
		return render.Descriptions(r, size, render.StreamOptions(o), fn)
	})
}

// Reader names the stream capture.StreamOutput, as raw stdin is named.
// Reader implements Dumper.
func (o DescriptionsJSON) Reader(w io.Writer, r io.Reader) error {
	return writeJSONLines(w, capture.StreamOutput, func(fn func(*render.Description) error) error {
		return render.DescriptionsReader(r, render.StreamOptions(o), fn)
	})
}

func (Hex) headed() bool              { return true }
func (Glyphs) headed() bool           { return true }
func (Descriptions) headed() bool     { return true }
func (DescriptionsJSON) headed() bool { return false }

// writeJSONLines writes the descriptions that each yields as JSON Lines
// for stream into w.
func writeJSONLines(w io.Writer, stream string, each func(fn func(*render.Description) error) error) error {
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

// Streams writes each of sts with d into w. When there are several, each
// is preceded by a heading line "‹stream NAME, N bytes›" (unless d writes
// JSON Lines), which the capture's text cannot imitate (render escapes ‹
// and › in text), and followed by an empty line before the next heading.
func Streams(w io.Writer, sts []*capture.Stream, d Dumper) error {
	out := render.NewWriter(w)
	for i, st := range sts {
		if len(sts) > 1 && d.headed() {
			if i > 0 {
				out.Println()
			}
			if err := out.Printf("‹stream %s, %d bytes›\n", st.Name, st.Len); err != nil {
				return err
			}
		}
		if err := d.At(w, st.Name, st.Data, st.Len); err != nil {
			return err
		}
	}
	return nil
}

// Stdin writes r, raw standard input (or a FIFO or device read as it),
// with d into w: a regular file by its size (d.At, stream
// capture.StreamOutput), anything else (a pipe, a terminal) as it
// arrives (d.Reader), neither spooled nor kept, so that the first rows
// come out at once. Reading stops with iostreams.ErrOutputGone when w is
// a pipe that nobody reads any more; other errors are wrapped as
// "reading stdin: ...".
func Stdin(w io.Writer, r io.Reader, d Dumper) error {
	if sr := iostreams.RegularSection(r); sr != nil {
		return d.At(w, capture.StreamOutput, sr, sr.Size())
	}
	err := d.Reader(w, iostreams.UntilGone(r, w))
	switch {
	case errors.Is(err, iostreams.ErrOutputGone):
		return err
	case err != nil:
		return render.Errorf("reading stdin: %w", err)
	}
	return nil
}
