package main

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hostilegen "github.com/bytelens/bytelens/internal/hostile"
)

// TestCleanStreamsLines feeds clean through a pipe from a slow writer and
// checks that each line comes out before the next is written: the writer
// waits for the reader to see line 1 before it sends line 2.
func TestCleanStreamsLines(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		code := run([]string{"clean"}, inR, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	lines := make(chan string)
	go func() {
		br := bufio.NewReader(outR)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	for i, in := range []string{"one \x1b[31mred\x1b[0m\n", "two\r\n", "three\n"} {
		if _, err := inW.Write([]byte(in)); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-lines:
			if want := strings.Fields(in)[0]; !strings.HasPrefix(got, want) {
				t.Fatalf("line %d = %q, want %s…", i+1, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("line %d not written before more input came", i+1)
		}
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}

// BenchmarkCleanFile cleans 8 MiB of coloured log lines from a regular
// file to a regular file, and to a pipe-like writer that flushes at line
// ends per input chunk.
func BenchmarkCleanFile(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "in.log")
	line := "2026-11-29 build \x1b[1;32mok\x1b[0m step 17 of 40 took 1.25s, cache hit\n"
	os.WriteFile(in, bytes.Repeat([]byte(line), (8<<20)/len(line)), 0o644)
	fi, _ := os.Stat(in)
	for _, mode := range []string{"file", "pipe"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(fi.Size())
			for b.Loop() {
				var out io.Writer = io.Discard
				if mode == "file" {
					f, err := os.Create(filepath.Join(dir, "out"))
					if err != nil {
						b.Fatal(err)
					}
					out = f
					defer f.Close()
				}
				stdin, _ := os.Open(in)
				if code := run([]string{"clean"}, stdin, out, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
				stdin.Close()
			}
		})
	}
}

// chunkReader returns its data in the pieces given.
type chunkReader struct{ pieces [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.pieces[0])
	if c.pieces[0] = c.pieces[0][n:]; len(c.pieces[0]) == 0 {
		c.pieces = c.pieces[1:]
	}
	return n, nil
}

// TestStreamGlyphsEqualsWhole: glyphs, hex and --describe of stdin read
// piece by piece as it arrives are those of the same bytes as a file, for
// hostile inputs cut anywhere (sequences and UTF-8 units open across
// pieces included).
func TestStreamGlyphsEqualsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 15))
	for i := range 300 {
		data := hostilegen.Bytes(r, 1+r.IntN(600))
		if i%3 == 0 { // plenty of line ends
			data = bytes.ReplaceAll(data, []byte("m"), []byte("m\n"))
		}
		var pieces [][]byte
		for rest := data; len(rest) > 0; {
			n := min(len(rest), 1+r.IntN(40))
			pieces = append(pieces, rest[:n])
			rest = rest[n:]
		}
		args := [][]string{{"glyphs"}, {"hex"}, {"glyphs", "--describe"}, {"glyphs", "--describe", "--json"}}[i%4]
		f := filepath.Join(t.TempDir(), "in")
		os.WriteFile(f, data, 0o644)
		_, want, _ := runCLI(t, "", append(args, f)...)
		var out, errs bytes.Buffer
		code := run(args, &chunkReader{pieces: append([][]byte(nil), pieces...)}, &out, &errs)
		if code != 0 || out.String() != want {
			t.Fatalf("%v of %q in %d pieces: exit %d\n got %q\nwant %q", args, data, len(pieces), code, out.String(), want)
		}
	}
}

// TestStreamGlyphsLines: each line is on stdout before the next is read.
func TestStreamGlyphsLines(t *testing.T) {
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	go func() { run([]string{"glyphs"}, inR, outW, io.Discard); outW.Close() }()
	br := bufio.NewReader(outR)
	for _, in := range []string{"a\x1b[31mb\n", "c\x07\n"} {
		inW.Write([]byte(in))
		got := make(chan string)
		go func() { l, _ := br.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if !strings.HasPrefix(l, in[:1]) {
				t.Fatalf("got %q for %q", l, in)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not shown before more input came", in)
		}
	}
	inW.Close()
}
