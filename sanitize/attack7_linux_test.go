package sanitize

import (
	"bytes"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
)

// TestAttack7NoReadPastP: a Write reads no byte of the caller's buffer
// past len(p), also where the buffer's capacity goes on (a ring buffer
// whose producer fills the rest, here a page that faults when read): short
// tokens at the very end of p, on the record path and the token path, in
// one Write and after others, whose 16-byte word loads (memo keys,
// controlString's one-word payload) must not reach past p.
func TestAttack7NoReadPastP(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	dense := strings.Repeat("\x1b[1m", 150) // the record path
	for _, prefix := range []string{dense, "text ", ""} {
		for _, tail := range []string{"\x1b]0;x\x07", "\x1b]0;\x1b\\", "\x1bP1$r\x9c\x1b\\", "\x1b_ab\x07", "\x1b[1m", "\x1b[0m", "\x1b(B", "\x1b7", "\x7f", "\x9d0;t\x9c"} {
			for _, o := range []Options{{}, {APCBEL: true}} {
				in := prefix + tail + tail
				p := mem[page-len(in) : page] // its capacity runs into the page that faults
				copy(p, in)
				var want, got bytes.Buffer
				ref := NewWriter(&want, o)
				ref.Write([]byte(in))
				ref.Close()
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%q… %q %+v: Write read past p: %v", in[:min(len(in), 8)], tail, o, r)
						}
					}()
					w := NewWriter(&got, o)
					w.Write(p)
					w.Close()
				}()
				if !t.Failed() && !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("%q: got %q, want %q", in, got.Bytes(), want.Bytes())
				}
			}
		}
	}
}

// TestAttack7NoReadPastPRandom: random inputs of attack pieces, in Writes
// of 1 to 600 bytes under random options, each Write's p ending where a
// page that faults begins, and Bytes and Map of the whole there: no read
// past p, and the text and report of the same bytes elsewhere.
func TestAttack7NoReadPastPRandom(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 4*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[3*page:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	at := func(b []byte) []byte { // b copied to end at the faulting page
		p := mem[3*page-len(b) : 3*page]
		copy(p, b)
		return p
	}
	r := rand.New(rand.NewPCG(79, 80))
	for i := range 300 {
		o := attackOptions(r)
		in := attackInput(r, i%3 == 0)
		if len(in) > 3*page {
			in = in[:3*page]
		}
		cuts := attackCuts(r, len(in), []int{1, 7, 17, 64, 600}[i%5])
		want := writeCut(in, o, cuts, false, pathAuto)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%q %+v cuts %v: read past p: %v", in, o, cuts, r)
				}
			}()
			var got bytes.Buffer
			w := NewWriter(&got, o)
			prev := 0
			for _, c := range append(cuts, len(in)) {
				w.Write(at(in[prev:c]))
				prev = c
			}
			w.Close()
			if !bytes.Equal(got.Bytes(), want.out) {
				t.Fatalf("%q cuts %v: got %q, want %q", in, cuts, got.Bytes(), want.out)
			}
			Bytes(at(in), o)
			Map(at(in), o)
		}()
	}
}
