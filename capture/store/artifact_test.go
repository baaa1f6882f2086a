package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

func sampleArtifact(t testing.TB) []byte {
	var buf bytes.Buffer
	aw, err := NewArtifactWriter(&buf, Manifest{Argv: []string{"x"}, Started: time.Unix(0, 0).UTC(),
		Streams: []StreamDesc{{StreamStdout, "stdout"}, {StreamStderr, "stderr"}}, MaxRaw: -1})
	if err != nil {
		t.Fatal(err)
	}
	aw.Chunk(StreamStdout, 0, 0, []byte("a\x1b]0;t\x07"), 7)
	aw.Chunk(StreamStderr, 1, time.Millisecond, []byte("err\n"), 4)
	aw.Chunk(StreamStdout, 2, 2*time.Millisecond, []byte("b\n"), 2)
	if err := aw.Finish(Trailer{ExitCode: 1}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadManifest(t *testing.T) {
	raw := sampleArtifact(t)
	m, err := ReadManifest(bytes.NewReader(raw))
	if err != nil || m.Argv[0] != "x" || len(m.Streams) != 2 || m.Streams[1].Name != "stderr" {
		t.Fatalf("ReadManifest: %+v, %v", m, err)
	}
	if _, err := ReadManifest(bytes.NewReader([]byte("not an artifact"))); !errors.Is(err, ErrFormat) {
		t.Errorf("ReadManifest(junk) = %v", err)
	}
}

func TestArtifactWriterRejects(t *testing.T) {
	var buf bytes.Buffer
	for name, ss := range map[string][]StreamDesc{
		"none":     nil,
		"zero id":  {{0, "stdout"}},
		"dup id":   {{1, "a"}, {1, "b"}},
		"dup name": {{1, "a"}, {2, "a"}},
		"no name":  {{1, ""}},
	} {
		if _, err := NewArtifactWriter(&buf, Manifest{Streams: ss}); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
	aw, _ := NewArtifactWriter(&buf, Manifest{Streams: []StreamDesc{{1, "stdout"}}})
	if err := aw.Chunk(1, 5, 0, []byte("x"), 1); err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(1, 5, 0, []byte("x"), 1); err == nil {
		t.Error("repeated seq accepted")
	}
	if err := aw.Chunk(3, 6, 0, []byte("x"), 1); err == nil {
		t.Error("unknown stream accepted")
	}
	if err := aw.Chunk(1, 7, 0, []byte("xy"), 1); err == nil {
		t.Error("more stored than seen accepted")
	}
}

// FuzzDecodeArtifact checks that any input is decoded or refused without
// panicking, that what is accepted is self-consistent, and that ReadIndex
// accepts exactly what DecodeArtifact accepts, with the same chunks,
// streams and bytes.
func FuzzDecodeArtifact(f *testing.F) {
	raw := sampleArtifact(f)
	f.Add(raw)
	f.Add(raw[:len(raw)-3])
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := DecodeArtifact(bytes.NewReader(b))
		x, xerr := ReadIndex(bytes.NewReader(b), int64(len(b)))
		if (err == nil) != (xerr == nil) || err != nil && err.Error() != xerr.Error() {
			t.Fatalf("DecodeArtifact: %v; ReadIndex: %v", err, xerr)
		}
		if err == nil {
			checkIndex(t, a, x, b)
		}
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error of no known kind: %v", err)
			}
			return
		}
		sums := map[string]int64{}
		for _, c := range a.Chunks {
			if c.Offset != sums[c.Stream] {
				t.Fatalf("chunk %d at %d, want %d", c.Seq, c.Offset, sums[c.Stream])
			}
			sums[c.Stream] += int64(c.Length)
		}
		for _, s := range a.Streams {
			if int64(len(s.Data)) != sums[s.Name] || s.Seen < int64(len(s.Data)) {
				t.Fatalf("stream %s: %d bytes, chunks %d, seen %d", s.Name, len(s.Data), sums[s.Name], s.Seen)
			}
		}
	})
}

// TestManifestExact: the manifest keeps argv, cwd and stdin exactly,
// controls included, and the bytes of values that are not valid UTF-8.
func TestManifestExact(t *testing.T) {
	argv := []string{"ls", "a\x1b]0;T\x07b", "\u202e", "x\xffy"}
	cwd, stdin := "/tmp/d\xfe\x1b[2J", "in\tput"
	var m Manifest
	m.SetExact(argv, cwd, stdin)
	m.Streams = []StreamDesc{{StreamStdout, "stdout"}}
	var buf bytes.Buffer
	aw, err := NewArtifactWriter(&buf, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := aw.Finish(Trailer{}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadManifest(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ExactArgv(), argv) || got.ExactCwd() != cwd || got.ExactStdin() != stdin {
		t.Errorf("exact argv %q cwd %q stdin %q", got.ExactArgv(), got.ExactCwd(), got.ExactStdin())
	}
	if got.Argv[1] != argv[1] || got.Argv[3] != "x\uFFFDy" || got.Stdin != stdin || got.StdinBytes != nil || got.Cwd != "/tmp/d\uFFFD\x1b[2J" {
		t.Errorf("strings: argv %q cwd %q stdin %q %q", got.Argv, got.Cwd, got.Stdin, got.StdinBytes)
	}
	// All valid: no *_bytes fields at all.
	m.SetExact([]string{"a\x1b"}, "/", "")
	js, _ := json.Marshal(m)
	if bytes.Contains(js, []byte("_bytes")) || !bytes.Contains(js, []byte(`"argv":["a\u001b"]`)) {
		t.Errorf("manifest JSON %s", js)
	}
	// argv_bytes must match argv.
	// (The same length, blanks for the first element, so that only the
	// count is wrong.)
	bad := bytes.Replace(buf.Bytes(), []byte(`"argv_bytes":["bHM=",`), []byte(`"argv_bytes":[       `), 1)
	if bytes.Equal(bad, buf.Bytes()) {
		t.Fatalf("argv_bytes not found in %q", buf.Bytes())
	}
	if _, err := DecodeArtifact(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "argv_bytes") {
		t.Errorf("argv_bytes of another length: %v", err)
	}
}

// checkIndex asserts that x indexes the same artifact a holds.
func checkIndex(t *testing.T, a *Artifact, x *Index, raw []byte) {
	t.Helper()
	if !slices.Equal(a.Chunks, x.Chunks) || x.Digest != sha256.Sum256(raw) || x.Size != int64(len(raw)) || len(x.Streams) != len(a.Streams) {
		t.Fatalf("index chunks %v digest %x size %d; artifact chunks %v", x.Chunks, x.Digest, x.Size, a.Chunks)
	}
	for i, s := range a.Streams {
		xs := &x.Streams[i]
		got, err := io.ReadAll(xs.Reader())
		if err != nil || !bytes.Equal(got, s.Data) || xs.Seen != s.Seen || xs.SHA256 != sha256.Sum256(s.Data) || x.Stream(s.Name) != xs {
			t.Fatalf("stream %s: index reads %q (%v), seen %d; artifact %q seen %d", s.Name, got, err, xs.Seen, s.Data, s.Seen)
		}
		// Every range reads the same bytes, across chunk boundaries.
		for off := range len(s.Data) {
			p := make([]byte, len(s.Data)-off+1)
			n, err := xs.ReadAt(p, int64(off))
			if n != len(s.Data)-off || err != io.EOF || !bytes.Equal(p[:n], s.Data[off:]) {
				t.Fatalf("stream %s ReadAt(%d): %d, %v", s.Name, off, n, err)
			}
		}
	}
}
