package sanitize

import (
	"bytes"
	"testing"

	"github.com/bytelens/bytelens/safejson"
)

// writeSizeSeeds are inputs whose sequences short Writes cut: SGRs, an
// OSC 8 link, a string of 44 bytes, controls embedded in a CSI, cut UTF-8
// characters, 8-bit and UTF-8 C1 introducers, aborted CSIs, strings of
// every kind, a run of CRs, text with a blank and words that Writes of
// 4 to 8 bytes take whole (TakeWord).
var writeSizeSeeds = []string{
	"\x1b[1;31mred\x1b[0m \x1b[38;5;208mx\x1b[m\r\n",
	"\x1b]8;;http://example.com/\x1b\\link\x1b]8;;\x1b\\ after",
	"\x1b]0;" + string(bytes.Repeat([]byte("t"), 40)) + "\a text",
	"\x1b[1\n2m\x1b[3\t4mé\x1b[0m",
	"ab\xe2\x82\xac\x1b[mcd\xf0\x9f\x98\x80\x1b[1m",
	"\x9b31m\xc2\x9b0m\x1b[1\x1b[2m\x1b[1\xc3\xa9",
	"\x1bP1$r\x1b\\\x1b_x\x1b\\\x1b^y\x1b\\\x1bX\x1b\\\r\rx",
	"plain words, then \u00e9t\u00e9 and \u2028 and a\u00a0blank\n",
}

// writeSizes cleans p through a Writer in Writes whose sizes come from
// sizes in turn (each 1 to 16 bytes), and returns the text and the report
// as JSON, and InGround and Settled after each Write.
func writeSizes(t *testing.T, p []byte, o Options, sizes []byte, path pathChoice) (out, rep []byte, ground []bool) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, o)
	w.c.path = path
	for i := 0; len(p) > 0; i++ {
		n := 1 + int(sizes[i%len(sizes)]%16)
		n = min(n, len(p))
		if k, err := w.Write(p[:n]); k != n || err != nil {
			t.Fatalf("Write of %d bytes: %d, %v", n, k, err)
		}
		ground = append(ground, w.InGround(), w.Settled())
		p = p[n:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := safejson.Marshal(w.Report())
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), rep, ground
}

// FuzzWriteSizes: any input written in Writes of 1 to 16 bytes (the
// sizes drawn from sizes in turn), under the policies of quickPolicies,
// gives the text and the JSON report (safejson, as the command writes
// it), offsets of findings included, that Bytes gives for it whole, and
// InGround and Settled after each Write that the token path (Feed for
// every byte, no quick way) gives. (carry9, session 9: written for a
// carry of open tokens across Writes, measured and reverted;
// BENCHMARKS.md.)
func FuzzWriteSizes(f *testing.F) {
	for i, s := range writeSizeSeeds {
		f.Add([]byte(s), []byte{byte(i), 6, 2, 0, 9}, uint8(i))
	}
	f.Fuzz(func(t *testing.T, p, sizes []byte, pol uint8) {
		if len(sizes) == 0 {
			sizes = []byte{6}
		}
		o := quickPolicies[int(pol)%len(quickPolicies)]
		whole, wrep := Bytes(p, o)
		want, err := safejson.Marshal(wrep)
		if err != nil {
			t.Fatal(err)
		}
		out, rep, ground := writeSizes(t, p, o, sizes, pathAuto)
		if !bytes.Equal(out, whole) {
			t.Fatalf("%q %v sizes %v: Writes give %q, Bytes %q", p, o, sizes, out, whole)
		}
		if !bytes.Equal(rep, want) {
			t.Fatalf("%q %v sizes %v: report differs:\nWrites %s\n Bytes %s", p, o, sizes, rep, want)
		}
		_, _, tground := writeSizes(t, p, o, sizes, pathTokens)
		if !bytes.Equal(boolBytes(ground), boolBytes(tground)) {
			t.Fatalf("%q %v sizes %v: InGround, Settled %v, token path %v", p, o, sizes, ground, tground)
		}
	})
}

func boolBytes(b []bool) []byte {
	out := make([]byte, len(b))
	for i, v := range b {
		if v {
			out[i] = 1
		}
	}
	return out
}
