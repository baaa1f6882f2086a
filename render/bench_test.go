package render

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

func benchInput() []byte {
	var b strings.Builder
	for b.Len() < 1<<20 {
		for _, s := range hostileSeeds {
			b.WriteString(s)
		}
		b.WriteString("plain log line with some text in it, café 中文\n")
	}
	return []byte(b.String())
}

// BenchmarkRows renders hex and glyph cells for every 16-byte row of a
// 1 MiB window, as the viewer does for its visible rows.
func BenchmarkRows(b *testing.B) {
	in := benchInput()
	w := DecodeEnd(decode.Decoder{}, in)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for off := int64(0); off < int64(len(in)); off += 16 {
			HexCells(&w, off, 16)
			GlyphCells(&w, off, 16, GlyphOptions{})
		}
	}
}

// BenchmarkDecode measures building a window.
func BenchmarkDecode(b *testing.B) {
	in := benchInput()[:64<<10]
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Decode(decode.Decoder{}, in)
	}
}

func BenchmarkHexDump(b *testing.B) {
	in := benchInput()
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		HexDump(io.Discard, bytes.NewReader(in), int64(len(in)), HexOptions{})
	}
}

func BenchmarkWriteGlyphs(b *testing.B) {
	in := benchInput()
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		WriteGlyphs(io.Discard, bytes.NewReader(in), int64(len(in)), StreamOptions{Chips: true})
	}
}
