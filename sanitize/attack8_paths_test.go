package sanitize

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/text/transform"
)

// attack8Openers, attack8Edges and attack8VTFF build the inputs of the
// session-8 quick ways: control strings of every opener whose payloads
// run past the prefix a token keeps (decode.PrefixLen) and sometimes past
// the history (histLen) in printable ASCII (decode.Decoder.ExtendWord),
// with the bytes that end, abort or cut one (ESC, BEL, 9C, C2 9C, C1,
// CAN, SUB, cut and invalid UTF-8) between; and VT and FF alone, after
// CRs and embedded in sequences (moveDown).
var (
	attack8Openers = []string{"\x1b]0;", "\x1b]", "\x1b]8;;", "\x1b]52;c;", "\x1bP", "\x1bP1$r", "\x1b_", "\x1b^", "\x1bX", "\x1bk", "\x9d0;", "\xc2\x9d0;", "\x90", "\xc2\x90", "\x9f", "\x9e", "\x98", "\xc2\x9f"}
	attack8Edges   = []string{"\x1b", "\x07", "\x9c", "\xc2\x9c", "\xc2", "\x80", "\x9b", "\x85", "\x9d", "\xe2\x80", "\xff", "\x18", "\x1a", "\x7f", "\x00", "\x0b", "\x0c", "\r", "\n", "\t", "\x1b\\", "\x1b[", "\xed\xa0", "\xf0\x9f\x98", "é", "中"}
	attack8VTFF    = []string{"\x0b", "\x0c", "\r\x0b", "\r\r\x0c", "\x1b[1\x0bm", "\x1b[\x0c2J", "\x1b]0;a\x0bb\x07", "\x1bP\x0c\x1b\\", "\x1b\x0b(B", "\r\x1b[1\x0bm", "\x0b\r", "\x0c\n", "\r\x1b[2\x0cK\n"}
	attack8Ends    = []string{"\x07", "\x1b\\", "\x9c", "\xc2\x9c", "\x18", "", "\x1b", "\x1b[1m"}
)

// attack8String returns a control string of attack8's pieces: an
// opener, runs of 1 to 12 printable ASCII bytes with an edge byte now and
// then, up to 80 bytes or (one in eight) past histLen, and an end.
func attack8String(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(attack8Openers[r.IntN(len(attack8Openers))])
	n := r.IntN(80)
	if r.IntN(8) == 0 {
		n = histLen + r.IntN(200)
	}
	for b.Len() < n {
		if r.IntN(6) == 0 {
			b.WriteString(attack8Edges[r.IntN(len(attack8Edges))])
			continue
		}
		for range 1 + r.IntN(12) {
			b.WriteByte(byte(0x20 + r.IntN(0x60)))
		}
	}
	b.WriteString(attack8Ends[r.IntN(len(attack8Ends))])
	return b.String()
}

// attack8Input returns a random input of attack8's strings, VT and FF,
// edge bytes and the pieces of earlier rounds, after (sometimes) findings
// filled up to MaxFindings-2 to MaxFindings+1 and a run of SGRs dense
// enough for the record path.
func attack8Input(r *rand.Rand) []byte {
	var b []byte
	if r.IntN(3) == 0 {
		b = append(b, strings.Repeat("\x1b[6n", MaxFindings-2+r.IntN(4))...)
	}
	if r.IntN(2) == 0 {
		b = append(b, strings.Repeat("\x1b[1m\x1b[0mab", 20+r.IntN(200))...)
	}
	for range r.IntN(30) {
		switch r.IntN(7) {
		case 0:
			b = append(b, attack8String(r)...)
		case 1:
			b = append(b, attack8VTFF[r.IntN(len(attack8VTFF))]...)
		case 2:
			b = append(b, attack8Edges[r.IntN(len(attack8Edges))]...)
		case 3:
			b = append(b, attackPieces[r.IntN(len(attackPieces))]...)
		case 4:
			b = append(b, attack7Bits[r.IntN(len(attack7Bits))]...)
		case 5:
			b = append(b, attackInput(r, false)...)
		default:
			b = append(b, strings.Repeat("x", 1+r.IntN(20))...)
		}
	}
	return b
}

// attack8Cuts returns cuts of n bytes into Writes of one size from 1 to
// 17 bytes, of random sizes up to 17, or of those mixed with Writes of
// 512 to 2011 bytes (the record path's pieces), by kind (0, 1, 2).
func attack8Cuts(r *rand.Rand, n, kind int) []int {
	switch kind {
	case 0:
		return cutsEvery(1+r.IntN(17), n)
	case 1:
		return attackCuts(r, n, 1+r.IntN(17))
	}
	var cuts []int
	for c := 1 + r.IntN(17); c < n; {
		cuts = append(cuts, c)
		if r.IntN(3) == 0 {
			c += 512 + r.IntN(1500)
		} else {
			c += 1 + r.IntN(17)
		}
	}
	return cuts
}

// writeAt is writeCut without frames for a stream whose first byte
// written is at stream offset off, as if off bytes of nothing open had
// come before; the findings' offsets are given from that byte.
func writeAt(p []byte, o Options, cuts []int, path pathChoice, off int64) written {
	var buf bytes.Buffer
	w := NewWriter(&buf, o)
	w.c.path = path
	c := w.c
	c.dec.Restart(off)
	c.sh.Restart(off)
	c.next, c.at, c.fmt.prevEnd, c.base = off, off, off, off
	var res written
	prev := 0
	for _, cut := range append(cuts, len(p)) {
		w.Write(p[prev:cut])
		res.ground = append(res.ground, w.InGround())
		prev = cut
	}
	w.Close()
	res.out, res.rep = buf.Bytes(), w.Report()
	for i := range res.rep.Findings {
		res.rep.Findings[i].Offset -= off
	}
	return res
}

// transformCut cleans p through a Transformer fed at cuts, its dst 7
// bytes long.
func transformCut(p []byte, o Options, cuts []int) ([]byte, Report) {
	tr := NewTransformer(o)
	var out []byte
	var dst [7]byte
	prev := 0
	all := append(cuts, len(p))
	for k, cut := range all {
		for src := p[prev:cut]; ; {
			nDst, nSrc, err := tr.Transform(dst[:], src, k == len(all)-1)
			out, src = append(out, dst[:nDst]...), src[nSrc:]
			if err != transform.ErrShortDst {
				break
			}
		}
		prev = cut
	}
	return out, tr.Report()
}

// TestAttack8Paths: random inputs of attack8's pieces under random
// options (CRScreen among them), in Writes of 1 to 17 bytes and mixed
// with record-path pieces, at stream offsets just below 1<<31 and 1<<32
// and past them (quickRecords keeps offsets from its first record in 32
// bits; offered hashes the offset): the record path and the choice by
// piece give what the token path gives at offset 0 (text, report,
// InGround after each Write), and so do Bytes and the Transformer; the
// text holds no control.
func TestAttack8Paths(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 90
	}
	offsets := []int64{0, 1<<31 - 3, 1<<31 - 700, 1<<32 - 5, 3 << 31}
	attackPathsAt(t, rand.New(rand.NewPCG(83, 84)), n, offsets, []pathChoice{pathRecords, pathAuto}, func(p []byte, o Options, cuts []int, want written) {
		checkInvariants(t, p, want.out)
		if b, rep := Bytes(p, o); !bytes.Equal(b, want.out) || !reflect.DeepEqual(rep, want.rep) {
			t.Fatalf("%q %v: Bytes gives %q %+v, want %q %+v", p, o, b, rep, want.out, want.rep)
		}
		if b, rep := transformCut(p, o, cuts); !bytes.Equal(b, want.out) || !reflect.DeepEqual(rep, want.rep) {
			t.Fatalf("%q %v cuts %v: Transformer gives %q %+v, want %q %+v", p, o, cuts, b, rep, want.out, want.rep)
		}
	})
}

// attackPathsAt writes n of attack8's random inputs under random options
// (CRScreen one time in ten) and Writes, each through the paths given at
// a stream offset drawn from offsets, and fails unless each gives what
// the token path gives at offset 0 (text, report, InGround after each
// Write); also, when not nil, it calls check with that result.
func attackPathsAt(t *testing.T, r *rand.Rand, n int, offsets []int64, paths []pathChoice, check func(p []byte, o Options, cuts []int, want written)) {
	t.Helper()
	for i := range n {
		o := attackOptions(r)
		if i%10 == 0 {
			o.CR = CRScreen
		}
		p := attack8Input(r)
		cuts := attack8Cuts(r, len(p), i%3)
		want := writeAt(p, o, cuts, pathTokens, 0)
		for _, path := range paths {
			off := offsets[r.IntN(len(offsets))]
			got := writeAt(p, o, cuts, path, off)
			if !bytes.Equal(got.out, want.out) || !reflect.DeepEqual(got.rep, want.rep) || !reflect.DeepEqual(got.ground, want.ground) {
				t.Fatalf("%q %v cuts %v, path %d at offset %d:\n got %q %+v %v\nwant %q %+v %v", p, o, cuts, path, off, got.out, got.rep, got.ground, want.out, want.rep, want.ground)
			}
		}
		if check != nil {
			check(p, o, cuts, want)
		}
	}
}
