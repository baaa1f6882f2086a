package decode

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bytelens/bytelens/internal/hostile"
)

// sparse returns a stream of n bytes in which the grammar's bytes are
// rare: runs of text between hostile fragments, so synchronizing points
// lie far apart and strings stay open across long runs.
func sparse(r *rand.Rand, n int) []byte {
	var p []byte
	for len(p) < n {
		if r.IntN(3) == 0 {
			p = append(p, hostile.Bytes(r, 1+r.IntN(6))...)
		} else {
			p = append(p, bytes.Repeat([]byte("text é "), 1+r.IntN(8))...)
		}
	}
	return p[:n]
}

// after returns the tokens d emits for p, End included.
func after(d Decoder, p []byte) []Token {
	var ts []Token
	emit := func(t *Token) { ts = append(ts, *t) }
	d.Feed(p, emit)
	d.End(emit)
	return ts
}

// TestSkipEqualsFeed checks Skip against Feed: a decoder that skipped a
// prefix, in random chunks, emits for the rest of the stream exactly what
// one that decoded the prefix from 0 emits.
func TestSkipEqualsFeed(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	opts := []Decoder{{}, {LoneC1: true, APCBEL: true}, {MaxPayload: 3}}
	for i := range 3000 {
		var p []byte
		if i%2 == 0 {
			p = hostile.Bytes(r, 1+r.IntN(300))
		} else {
			p = sparse(r, 1+r.IntN(600))
		}
		cut := r.IntN(len(p) + 1)
		for _, o := range opts {
			full := o
			full.Feed(p[:cut], func(*Token) {})
			skip := o
			for rest := p[:cut]; len(rest) > 0; {
				n := min(len(rest), 1+r.IntN(80))
				skip.Skip(rest[:n])
				rest = rest[n:]
			}
			if skip.Offset() != full.Offset() {
				t.Fatalf("%q cut %d: offset %d, want %d", p, cut, skip.Offset(), full.Offset())
			}
			if got, want := after(skip, p[cut:]), after(full, p[cut:]); !slices.Equal(got, want) {
				t.Fatalf("%q cut %d (LoneC1 %v, APCBEL %v, MaxPayload %d):\n got %q\nwant %q", p, cut, o.LoneC1, o.APCBEL, o.MaxPayload, sigs(got), sigs(want))
			}
		}
	}
}

// TestSyncConverges starts decoders in many states (each fed a different
// random prefix) and feeds them all the bytes from a synchronizing point
// on: each must then agree with a decoder restarted in ground there.
func TestSyncConverges(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	for range 2000 {
		p := sparse(r, 1+r.IntN(200))
		k := LastSync(p)
		if k < 0 {
			continue
		}
		var want Decoder
		want.Restart(int64(k))
		want.Feed(p[k:], func(*Token) {})
		tail := hostile.Bytes(r, r.IntN(60))
		wantTail := after(want, tail)
		for range 8 {
			var d Decoder
			d.Feed(hostile.Bytes(r, k), func(*Token) {})
			d.Feed(p[k:], func(*Token) {})
			if got := after(d, tail); !slices.Equal(got, wantTail) {
				t.Fatalf("%q sync %d, tail %q:\n got %q\nwant %q", p, k, tail, sigs(got), sigs(wantTail))
			}
		}
	}
}

func TestLastSync(t *testing.T) {
	for _, c := range []struct {
		p    string
		want int
	}{
		{"", -1},
		{"text", -1},
		{"\x1b", -1}, // the string case needs the byte after ESC
		{"a\x1b[", 1},
		{"a\x1b[1m\x1b", 1},
		{"\x18ab", 0},
		{"\x1b[\x1a", 2},
		{"\x1b]0;t\x18\x1bx", 6},
		{"\x9d0;t\x9c", -1}, // C1 introducers and ST do not synchronize
	} {
		if got := LastSync([]byte(c.p)); got != c.want {
			t.Errorf("LastSync(%q) = %d, want %d", c.p, got, c.want)
		}
	}
}
