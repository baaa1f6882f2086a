package render

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/bytelens/bytelens/internal/hostile"
)

// streamInputs are inputs whose stream rendering must equal the rendering
// from an io.ReaderAt: hostile random bytes, and sequences longer than
// what a stream keeps of them (maxHeld), open across many pages.
func streamInputs(short bool) map[string][]byte {
	rng := rand.New(rand.NewPCG(6, 1))
	in := map[string][]byte{
		"empty":         nil,
		"one byte":      []byte("x"),
		"long OSC":      []byte("a\x1b]52;c;" + strings.Repeat("Q", maxHeld+headHeld) + "\x07b\n"),
		"long DCS open": []byte("a\x1bP1;2q" + strings.Repeat("#", maxHeld+headHeld)),
		"long CSI":      []byte("a\x1b[" + strings.Repeat("1;", maxHeld/2+headHeld) + "m\n"),
		"page edge ST":  append(append([]byte("\x1b]0;t"), bytes.Repeat([]byte("x"), pageSize-6)...), "\x1b\\<9B>"...),
		"lookalike":     append(bytes.Repeat([]byte("y"), pageSize-2), "<U+202E>"...),
	}
	n := 4
	if short {
		n = 1
	}
	for i := range n {
		in["hostile "+string(rune('a'+i))] = hostile.Bytes(rng, pageSize/2+rng.IntN(2*pageSize))
	}
	return in
}

func TestStreamRenderingMatchesReaderAt(t *testing.T) {
	for name, data := range streamInputs(testing.Short()) {
		t.Run(name, func(t *testing.T) {
			for _, o := range []StreamOptions{{}, {Chips: true}, {Payloads: true}} {
				var want, got bytes.Buffer
				if err := WriteGlyphs(&want, bytes.NewReader(data), int64(len(data)), o); err != nil {
					t.Fatal(err)
				}
				if err := WriteGlyphsReader(&got, iotest.HalfReader(bytes.NewReader(data)), o); err != nil {
					t.Fatalf("%+v: %v", o, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("glyphs %+v differ from the stream: %d bytes, want %d", o, got.Len(), want.Len())
				}
				want.Reset()
				got.Reset()
				WriteDescriptions(&want, bytes.NewReader(data), int64(len(data)), o)
				if err := WriteDescriptionsReader(&got, iotest.HalfReader(bytes.NewReader(data)), o); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("descriptions differ from the stream (%v)", err)
				}
			}
			for _, o := range []HexOptions{{}, {Width: 7, Skip: 100, Length: 70000}, {NoSqueeze: true, Payloads: true, Skip: 1 << 30}} {
				var want, got bytes.Buffer
				if err := HexDump(&want, bytes.NewReader(data), int64(len(data)), o); err != nil {
					t.Fatal(err)
				}
				if err := HexDumpReader(&got, iotest.HalfReader(bytes.NewReader(data)), o); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("hex %+v differs from the stream (%v):\n%.300s\nwant\n%.300s", o, err, got.Bytes(), want.Bytes())
				}
			}
		})
	}
}

// TestStreamRenderingIsIncremental checks that rows come out while the
// stream is still open, and that a control string too long to keep for
// its payload is one clear error.
func TestStreamRenderingIsIncremental(t *testing.T) {
	for name, run := range map[string]func(io.Writer, io.Reader) error{
		"hex":    func(w io.Writer, r io.Reader) error { return HexDumpReader(w, r, HexOptions{}) },
		"glyphs": func(w io.Writer, r io.Reader) error { return WriteGlyphsReader(w, r, StreamOptions{}) },
	} {
		t.Run(name, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- run(outW, inR); outW.Close() }()
			go inW.Write(bytes.Repeat([]byte("y\n"), pageSize)) // stays open after it
			line, err := bufio.NewReader(outR).ReadString('\n')
			if err != nil || !strings.Contains(line, "y") {
				t.Errorf("first line %q, %v", line, err)
			}
			inW.Close()
			go io.Copy(io.Discard, outR)
			if err := <-done; err != nil {
				t.Error(err)
			}
		})
	}
	huge := io.MultiReader(strings.NewReader("\x1b]52;c;"), io.LimitReader(neverEnding('Q'), maxHeldPayloads+1))
	err := WriteGlyphsReader(io.Discard, huge, StreamOptions{Payloads: true})
	if err == nil || !strings.Contains(err.Error(), "read it from a file") {
		t.Errorf("payload over the limit: %v", err)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
