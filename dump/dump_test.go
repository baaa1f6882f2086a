package dump

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
)

func stream(name, data string) *capture.Stream {
	return &capture.Stream{Name: name, Data: strings.NewReader(data), Len: int64(len(data))}
}

// TestStreams checks the headings between several streams, and that JSON
// Lines have none but name the stream in each line.
func TestStreams(t *testing.T) {
	two := []*capture.Stream{stream("stdout", "a\x1b[31mb\n"), stream("stderr\x1b]0;x\a", "c\a\n")}
	for _, tc := range []struct {
		name string
		sts  []*capture.Stream
		d    Dumper
		want string
	}{
		{"one stream, no heading", two[:1], Glyphs{EndLine: true}, "a␛[31mb\n"},
		{"two, headed", two, Glyphs{EndLine: true}, "‹stream stdout, 8 bytes›\na␛[31mb\n\n‹stream stderr␛]0;x␇, 3 bytes›\nc␇\n"},
		{"chips", two[:1], Glyphs{Chips: true}, "a‹CSI 31m›b\n"},
		{"describe", two[:1], Descriptions{}, "OFFSET         DECIMAL   LENGTH  NAME                  DESCRIPTION\n" +
			"0x00000001            1        5  CSI 31m               SGR: foreground red\n"},
		{"json lines, no heading", two, DescriptionsJSON{},
			`{"schema":"bytelens.describe/v1","stream":"stdout","offset":1,"length":5,"count":1,"name":"CSI 31m","description":"SGR: foreground red"}` + "\n" +
				`{"schema":"bytelens.describe/v1","stream":"stderr␛]0;x␇","offset":1,"length":1,"count":1,"name":"BEL","description":"BEL: bell"}` + "\n"},
		{"hex", two[1:], Hex{}, "0x00000000  63 07 0a                                          |c␇␊|\n0x00000003\n"},
	} {
		var b bytes.Buffer
		if err := Streams(&b, tc.sts, tc.d); err != nil || b.String() != tc.want {
			t.Errorf("%s: %q (%v)\nwant %q", tc.name, b.String(), err, tc.want)
		}
	}
}

// TestStdin checks that a regular file is dumped at random (its stream is
// named output) and a pipe as it arrives, with the same bytes out.
func TestStdin(t *testing.T) {
	const in = "x\x1b]52;c;aGk=\ay\n"
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []Dumper{Hex{}, Glyphs{EndLine: true}, DescriptionsJSON{}} {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var fromFile, fromPipe bytes.Buffer
		err = Stdin(&fromFile, f, d)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := Stdin(&fromPipe, strings.NewReader(in), d); err != nil {
			t.Fatal(err)
		}
		if fromFile.String() != fromPipe.String() || fromFile.Len() == 0 || strings.Contains(fromFile.String(), "aGk=") {
			t.Errorf("%T: file %q, pipe %q", d, fromFile.String(), fromPipe.String())
		}
	}
	err := Stdin(&bytes.Buffer{}, failing{}, Glyphs{})
	if !errors.Is(err, errBroken) || !strings.HasPrefix(err.Error(), "reading stdin: ") {
		t.Errorf("read error: %v", err)
	}
	var se interface{ SafeError() render.Safe }
	if !errors.As(err, &se) {
		t.Errorf("read error %T is not safe text", err)
	}
}

var errBroken = errors.New("broken")

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errBroken }
