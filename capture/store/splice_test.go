package store

import (
	"bytes"
	"io"
	"testing"
)

func TestSplice(t *testing.T) {
	src := []byte("0123456789abcdefghij")
	s := Splice{Src: bytes.NewReader(src)}
	for _, r := range [][2]int64{{2, 2}, {4, 1}, {10, 4}, {0, 1}, {19, 1}} {
		s.Add(r[0], r[1])
	}
	want := []byte("234abcd0j")
	if s.Len() != int64(len(want)) || s.Runs() != 4 {
		t.Fatalf("Len %d, Runs %d: want %d and 4 (2..4 and 4..5 merged)", s.Len(), s.Runs(), len(want))
	}
	for off := 0; off <= len(want); off++ {
		for n := 0; n <= len(want)-off+2; n++ {
			p := make([]byte, n)
			k, err := s.ReadAt(p, int64(off))
			wantN := min(n, len(want)-off)
			if k != wantN || !bytes.Equal(p[:k], want[off:off+wantN]) {
				t.Fatalf("ReadAt(%d bytes, %d) = %d %q, want %q", n, off, k, p[:k], want[off:off+wantN])
			}
			if n > 0 && ((wantN < n) != (err == io.EOF) || (err != nil && err != io.EOF)) {
				t.Fatalf("ReadAt(%d bytes, %d) error %v", n, off, err)
			}
		}
	}
	if _, err := s.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("negative offset accepted")
	}
	short := Splice{Src: bytes.NewReader(src[:3])}
	short.Add(0, 5)
	if _, err := short.ReadAt(make([]byte, 5), 0); err != io.ErrUnexpectedEOF {
		t.Errorf("a source cut short: error %v, want io.ErrUnexpectedEOF", err)
	}
}
