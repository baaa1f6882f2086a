package render

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/hostile"
	"github.com/bytelens/bytelens/sanitize"
)

// skipCapture returns a random capture of about n bytes: text runs
// between hostile fragments, with now and then a long control string, so
// that synchronizing points lie anywhere from a few bytes to pages apart.
func skipCapture(r *rand.Rand, n int) []byte {
	var p []byte
	for len(p) < n {
		switch r.IntN(12) {
		case 0:
			// An OSC 52 whose payload spans pages, BEL- or un-terminated.
			p = append(p, "\x1b]52;c;"...)
			p = append(p, bytes.Repeat([]byte("QUJD"), r.IntN(40000))...)
			if r.IntN(2) == 0 {
				p = append(p, '\a')
			}
		case 1, 2, 3:
			p = append(p, hostile.Bytes(r, 1+r.IntN(20))...)
		default:
			p = append(p, bytes.Repeat([]byte("log line é \r\n"), 1+r.IntN(400))...)
		}
	}
	return p
}

// TestHexSkipExact checks that hex -s is exact: for random captures and
// offsets, the dump from Skip equals a dump whose decoder was fed every
// byte before Skip, and, for a Skip on a row, the tail of the dump from 0.
func TestHexSkipExact(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 7))
	n := 20
	if testing.Short() {
		n = 6
	}
	for i := range n {
		data := skipCapture(r, 1000+r.IntN(200_000))
		pol := sanitize.Options{}
		if i%3 == 1 {
			pol = sanitize.Options{C1: sanitize.C1Lone, APCBEL: true}
		}
		o := HexOptions{NoSqueeze: true, Payloads: i%2 == 0, Policy: pol}
		var full bytes.Buffer
		if err := HexDump(&full, bytes.NewReader(data), int64(len(data)), o); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			o.Skip = r.Int64N(int64(len(data)) + 1)
			if r.IntN(2) == 0 {
				o.Skip -= o.Skip % 16
			}
			var got, want bytes.Buffer
			if err := HexDump(&got, bytes.NewReader(data), int64(len(data)), o); err != nil {
				t.Fatal(err)
			}
			// The reference decodes everything before Skip.
			dec := decoderFor(o.Policy)
			dec.Feed(data[:o.Skip], func(*decode.Token) {})
			src := &sizedPages{r: bytes.NewReader(data), size: int64(len(data)), off: o.Skip}
			if err := hexDump(&want, src, dec, o, false); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("capture %d, skip %d: differs from decoding from 0:\n%.400s\nwant\n%.400s", i, o.Skip, got.Bytes(), want.Bytes())
			}
			if o.Skip%16 == 0 {
				at := bytes.Index(full.Bytes(), append(appendOffset([]byte("\n"), o.Skip), ' '))
				if o.Skip == 0 {
					at = -1
				}
				if tail := full.Bytes()[at+1:]; !bytes.Equal(got.Bytes(), tail) {
					t.Fatalf("capture %d, skip %d: not the tail of the dump from 0:\n%.400s\nwant\n%.400s", i, o.Skip, got.Bytes(), tail)
				}
			}
		}
	}
}

// TestHexSkipFromStart checks the way back: a capture with no
// synchronizing byte in reach before Skip is read from 0, and says so,
// and one whose only synchronizing bytes are further back than that is
// still exact.
func TestHexSkipFromStart(t *testing.T) {
	data := append([]byte("\x9d0;title "), bytes.Repeat([]byte("x"), 300_000)...)
	data = append(data, "\x9c\x1b[1mend"...)
	for _, c := range []struct {
		skip, back int64
		from       bool
	}{{160_000, 1000, true}, {160_000, 1 << 20, false}, {int64(len(data)) - 3, 1000, false}} {
		called := false
		dec, err := decoderBefore(bytes.NewReader(data), c.skip, decode.Decoder{}, c.back, func() { called = true })
		if err != nil {
			t.Fatal(err)
		}
		if called != c.from {
			t.Errorf("skip %d back %d: FromStart called %v, want %v", c.skip, c.back, called, c.from)
		}
		want := decode.Decoder{}
		want.Feed(data[:c.skip], func(*decode.Token) {})
		var w1, w2 Window
		w1.decode(dec, data[c.skip:], true)
		w2.decode(want, data[c.skip:], true)
		if !slices.Equal(w1.Tokens, w2.Tokens) {
			t.Errorf("skip %d back %d: tokens %v, want %v", c.skip, c.back, w1.Tokens, w2.Tokens)
		}
	}
}

// TestHexSkipPageBoundary checks that a dump from Skip ends its pages
// where a dump from 0 does: a character cut by a page end is drawn the
// same in both.
func TestHexSkipPageBoundary(t *testing.T) {
	for _, mid := range []string{"é", "\u200b", "\x1b[31m"} {
		data := append(bytes.Repeat([]byte("a"), pageSize-1), mid...)
		data = append(data, bytes.Repeat([]byte("b"), 100)...)
		var full, got bytes.Buffer
		o := HexOptions{NoSqueeze: true}
		if err := HexDump(&full, bytes.NewReader(data), int64(len(data)), o); err != nil {
			t.Fatal(err)
		}
		o.Skip = pageSize - 16
		if err := HexDump(&got, bytes.NewReader(data), int64(len(data)), o); err != nil {
			t.Fatal(err)
		}
		tail := full.Bytes()[bytes.Index(full.Bytes(), appendOffset([]byte("\n"), o.Skip))+1:]
		if !bytes.Equal(got.Bytes(), tail) {
			t.Errorf("%q at the page end:\n%s\nwant\n%s", mid, got.Bytes(), tail)
		}
	}
}

// TestHexPageEndCharacter checks that a character cut by a page end is
// drawn on its lead byte, as one cut by a row end inside a page is, from
// a file and from a stream.
func TestHexPageEndCharacter(t *testing.T) {
	glyphs := func(dump []byte, row int64) string {
		i := bytes.Index(dump, appendOffset([]byte("\n"), row))
		line := dump[i+1:]
		line = line[:bytes.IndexByte(line, '\n')]
		return string(line[bytes.IndexByte(line, '|'):])
	}
	for _, mid := range []string{"é", "€", "😀", "\u200b"} {
		inPage := append(bytes.Repeat([]byte("a"), 15), mid...)
		inPage = append(inPage, bytes.Repeat([]byte("b"), 40)...)
		atEnd := append(bytes.Repeat([]byte("a"), pageSize-1), mid...)
		atEnd = append(atEnd, bytes.Repeat([]byte("b"), 40)...)
		o := HexOptions{NoSqueeze: true}
		var want, file, stream bytes.Buffer
		if err := HexDump(&want, bytes.NewReader(inPage), int64(len(inPage)), o); err != nil {
			t.Fatal(err)
		}
		if err := HexDump(&file, bytes.NewReader(atEnd), int64(len(atEnd)), o); err != nil {
			t.Fatal(err)
		}
		if err := HexDumpReader(&stream, bytes.NewReader(atEnd), o); err != nil {
			t.Fatal(err)
		}
		for _, row := range []int64{0, 16} {
			w := glyphs(want.Bytes(), row)
			if g := glyphs(file.Bytes(), pageSize-16+row); g != w {
				t.Errorf("%q cut by the page end, row %d from a file: %s, want %s", mid, row, g, w)
			}
			if g := glyphs(stream.Bytes(), pageSize-16+row); g != w {
				t.Errorf("%q cut by the page end, row %d from a stream: %s, want %s", mid, row, g, w)
			}
		}
	}
}
