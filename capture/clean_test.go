package capture

import (
	"bytes"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

// TestCleanMarksFrames: ttyrec.tty splits ESC [ 3 | 2 m across its two
// frames; the cleaned text joins it and the report counts one split.
func TestCleanMarksFrames(t *testing.T) {
	c, err := Open("testdata/samples/ttyrec.tty", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var buf bytes.Buffer
	rep, err := Clean(&buf, &c.Streams[0], sanitize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Anomalies.Split != 1 || !bytes.Contains(buf.Bytes(), []byte("split:green\n")) {
		t.Errorf("split %d, text %q", rep.Anomalies.Split, buf.Bytes())
	}
	if rep.BytesIn != c.Streams[0].Len {
		t.Errorf("bytes in %d, stream %d", rep.BytesIn, c.Streams[0].Len)
	}
}
