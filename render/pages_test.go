package render

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/bytelens/bytelens/internal/hostile"
)

// testHold are hold limits small enough for short tests and larger than
// what drawing a token reads again (maxSequenceShown, escapeMax).
var testHold = holdLimits{max: 3 * pageSize, head: 1024, tail: 1024, maxPayloads: 8 * pageSize}

// streamInputs are inputs whose stream rendering must equal the rendering
// from an io.ReaderAt: hostile random bytes, and sequences longer than
// what a stream keeps of them (testHold.max), open across many pages.
func streamInputs(short bool) map[string][]byte {
	rng := rand.New(rand.NewPCG(6, 1))
	in := map[string][]byte{
		"empty":         nil,
		"one byte":      []byte("x"),
		"long OSC":      []byte("a\x1b]52;c;" + strings.Repeat("Q", 5*pageSize) + "\x07b\n"),
		"long DCS open": []byte("a\x1bP1;2q" + strings.Repeat("#", 5*pageSize)),
		"long CSI":      []byte("a\x1b[" + strings.Repeat("1;", 2*pageSize) + "m\n"),
		"page edge ST":  append(append([]byte("\x1b]0;t"), bytes.Repeat([]byte("x"), pageSize-6)...), "\x1b\\<9B>"...),
		"lookalike":     append(bytes.Repeat([]byte("y"), pageSize-2), "<U+202E>"...),
	}
	n := 4
	if short {
		n = 1
	}
	for i := range n {
		in["hostile "+string(rune('a'+i))] = hostile.Bytes(rng, pageSize+rng.IntN(pageSize/2))
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
				if err := writeGlyphs(&got, newStreamPages(iotest.HalfReader(bytes.NewReader(data)), o.Payloads, testHold), math.MaxInt64, o, true); err != nil {
					t.Fatalf("%+v: %v", o, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("glyphs %+v differ from the stream: %d bytes, want %d", o, got.Len(), want.Len())
				}
				want.Reset()
				got.Reset()
				WriteDescriptions(&want, bytes.NewReader(data), int64(len(data)), o)
				if err := writeDescriptions(&got, newStreamPages(iotest.HalfReader(bytes.NewReader(data)), false, testHold), o, true); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("descriptions differ from the stream (%v)", err)
				}
			}
			for _, o := range []HexOptions{{}, {Width: 7, Skip: 100, Length: 70000}, {NoSqueeze: true, Payloads: true, Skip: 1 << 30}} {
				var want, got bytes.Buffer
				if err := HexDump(&want, bytes.NewReader(data), int64(len(data)), o); err != nil {
					t.Fatal(err)
				}
				if err := hexDump(&got, newStreamPages(iotest.HalfReader(bytes.NewReader(data)), false, testHold), decoderFor(o.Policy), o, true); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
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
	huge := io.MultiReader(strings.NewReader("\x1b]52;c;"), io.LimitReader(neverEnding('Q'), int64(testHold.maxPayloads)+1))
	err := writeGlyphs(io.Discard, newStreamPages(huge, true, testHold), math.MaxInt64, StreamOptions{Payloads: true}, true)
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
