package capture

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz targets: every input loads without error or panic (docker and
// journald JSON logs may instead be refused with a *LineError), and the
// loaded capture keeps the invariants that checkInvariants lists. Seeds are the
// shared samples and the recorded fixtures, committed under
// testdata/fuzz/<FuzzName>/.

// fuzzOpts keeps limits small so that the fuzzer also reaches them.
var fuzzOpts = OpenOptions{MaxDecoded: 1 << 16, MaxEvents: 64}

func FuzzCast(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c := loadBytes(t, data, "asciicast", nil, fuzzOpts)
		if c.Format.family() != FormatAsciicastV2 || !c.Lossy {
			t.Errorf("Format %v, Lossy %v", c.Format, c.Lossy)
		}
	})
}

func FuzzTTYRec(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c := loadBytes(t, data, "ttyrec", nil, OpenOptions{MaxEvents: 1 << 20})
		s := c.Stream(StreamOutput)
		if s.Len > int64(len(data)) {
			t.Errorf("stream of %d bytes from %d input bytes", s.Len, len(data))
		}
		var sum int64
		for _, e := range s.Events {
			sum += e.Len
		}
		if sum != s.Len {
			t.Errorf("frames cover %d bytes, stream has %d", sum, s.Len)
		}
	})
}

// checkScriptBytes checks that a typescript's bytes are all accounted for:
// the streams together hold exactly the file.
func checkScriptBytes(t *testing.T, c *Capture, size int) {
	var sum int64
	for _, s := range c.Streams {
		sum += s.Len
	}
	if sum != int64(size) {
		t.Errorf("streams hold %d bytes, typescript has %d", sum, size)
	}
}

func FuzzScript(f *testing.F) {
	f.Fuzz(func(t *testing.T, typescript, timing []byte) {
		c := loadBytes(t, typescript, "script", timing, fuzzOpts)
		checkScriptBytes(t, c, len(typescript))
	})
}

func FuzzTiming(f *testing.F) {
	ts, err := os.ReadFile(filepath.Join("testdata", "samples", "script-io.typescript"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, timing []byte) {
		c := loadBytes(t, ts, "script", timing, fuzzOpts)
		checkScriptBytes(t, c, len(ts))
	})
}

// loadOrRefused loads data as loadBytes does, but returns nil when the
// capture is refused with a *LineError.
func loadOrRefused(t *testing.T, data []byte, format string) *Capture {
	opts := fuzzOpts
	opts.Format = format
	c, err := Load(bytes.NewReader(data), int64(len(data)), opts)
	var le *LineError
	if errors.As(err, &le) {
		if le.Line < 1 {
			t.Errorf("refused at line %d", le.Line)
		}
		return nil
	}
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	checkInvariants(t, c)
	return c
}

// FuzzLoad sniffs the format, then loads.
func FuzzLoad(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		loadOrRefused(t, data, "")
	})
}

// FuzzLogs loads the input as each service-log format in turn. Segment-
// backed formats (timestamped, jenkins, journald-export) take bytes only
// from the input, never more than it holds.
func FuzzLogs(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []string{"docker-json", "timestamped", "jenkins", "journald-json", "journald-export"} {
			c := loadOrRefused(t, data, format)
			if c == nil {
				continue
			}
			if c.Format.String() != format {
				t.Errorf("Format %v, want %s", c.Format, format)
			}
			var sum int64
			for _, s := range c.Streams {
				sum += s.Len
				for _, r := range s.Removed {
					sum += r.Bytes
				}
			}
			if format != "docker-json" && format != "journald-json" && sum > int64(len(data)) {
				t.Errorf("%s: streams and removals hold %d bytes, input %d", format, sum, len(data))
			}
		}
	})
}
