package sanitize

import (
	"bytes"
	"encoding/json"
	"testing"
)

// carrySeeds are inputs whose sequences short Writes cut: SGRs, an OSC 8
// link, a string past carryMax, a control embedded in a CSI, a cut
// UTF-8 character, 8-bit and UTF-8 C1 introducers, an aborted CSI.
var carrySeeds = []string{
	"\x1b[1;31mred\x1b[0m \x1b[38;5;208mx\x1b[m\r\n",
	"\x1b]8;;http://example.com/\x1b\\link\x1b]8;;\x1b\\ after",
	"\x1b]0;" + string(bytes.Repeat([]byte("t"), 40)) + "\a text",
	"\x1b[1\n2m\x1b[3\t4mé\x1b[0m",
	"ab\xe2\x82\xac\x1b[mcd\xf0\x9f\x98\x80\x1b[1m",
	"\x9b31m\xc2\x9b0m\x1b[1\x1b[2m\x1b[1\xc3\xa9",
	"\x1bP1$r\x1b\\\x1b_x\x1b\\\x1b^y\x1b\\\x1bX\x1b\\\r\rx",
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
	rep, err := json.Marshal(w.Report())
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), rep, ground
}

// FuzzCarryWrites: any input written in Writes of 1 to 16 bytes (the
// sizes drawn from sizes) gives the text and the JSON report, offsets of
// findings included, that Bytes gives for it whole, and InGround and
// Settled after each Write that the token path (Feed for every byte, no
// carry) gives.
func FuzzCarryWrites(f *testing.F) {
	for i, s := range carrySeeds {
		f.Add([]byte(s), []byte{byte(i), 6, 2, 0, 9}, uint8(i))
	}
	f.Fuzz(func(t *testing.T, p, sizes []byte, pol uint8) {
		if len(sizes) == 0 {
			sizes = []byte{6}
		}
		o := quickPolicies[int(pol)%len(quickPolicies)]
		whole, wrep := Bytes(p, o)
		want, err := json.Marshal(wrep)
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

// TestCarryHolds: Writes of 1 to 9 bytes through sequences carry their
// open token (the Writer holds it, the decoder is between tokens) and
// give what Bytes gives; a token longer than carryMax, or with a control
// embedded, is not carried; Frame and Close feed the carried bytes.
func TestCarryHolds(t *testing.T) {
	w := NewWriter(&bytes.Buffer{}, Options{})
	w.Write([]byte("ab\x1b[1;3"))
	if w.carryN != 5 || !w.c.dec.InGround() || w.InGround() || w.Settled() {
		t.Fatalf("after an open CSI: carried %d, decoder in ground %v, InGround %v, Settled %v; want 5, true, false, false", w.carryN, w.c.dec.InGround(), w.InGround(), w.Settled())
	}
	if r := w.Report(); r.BytesIn != 7 {
		t.Errorf("BytesIn %d with bytes carried, want 7", r.BytesIn)
	}
	w.Write([]byte("1m"))
	if w.carryN != 0 || !w.InGround() {
		t.Fatalf("after the CSI ends: carried %d, InGround %v", w.carryN, w.InGround())
	}
	w.Write([]byte("\x1b[1\n"))
	if w.carryN != 0 {
		t.Errorf("a CSI with an LF embedded carried %d bytes, want 0", w.carryN)
	}
	w.Write([]byte("m\x1b]0;" + string(bytes.Repeat([]byte("t"), carryMax))))
	if w.carryN != 0 {
		t.Errorf("a string past carryMax carried %d bytes, want 0", w.carryN)
	}
	w.Write([]byte("\a\x1b["))
	w.Frame()
	if w.carryN != 0 {
		t.Errorf("Frame left %d bytes carried", w.carryN)
	}
	w.Write([]byte("m"))
	if r := w.Report(); r.Anomalies.Split != 1 {
		t.Errorf("a CSI split by Frame after its bytes were carried: Split %d, want 1", r.Anomalies.Split)
	}

	for _, s := range carrySeeds {
		p := []byte(s)
		whole, wrep := Bytes(p, Options{})
		want, _ := json.Marshal(wrep)
		for size := byte(0); size < 9; size++ {
			out, rep, _ := writeSizes(t, p, Options{}, []byte{size}, pathAuto)
			if !bytes.Equal(out, whole) || !bytes.Equal(rep, want) {
				t.Fatalf("%q in Writes of %d: %q %s, Bytes %q %s", p, size+1, out, rep, whole, want)
			}
		}
	}
}
