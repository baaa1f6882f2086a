package capture

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestOpenSpooled(t *testing.T) {
	c, err := OpenSpooled(strings.NewReader("ok \x1b[31mred\n"), 64, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := io.ReadAll(io.NewSectionReader(c.Streams[0].Data, 0, c.Streams[0].Len))
	if err != nil || string(b) != "ok \x1b[31mred\n" || c.Format != FormatRaw {
		t.Errorf("spooled %q %v, format %v", b, err, c.Format)
	}
	if _, err := OpenSpooled(strings.NewReader("0123456789"), 4, OpenOptions{}); !errors.Is(err, ErrInputTooLarge) || !strings.Contains(err.Error(), "more than 4 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	if c, err := OpenSpooled(strings.NewReader("0123"), 4, OpenOptions{}); err != nil || c.Streams[0].Len != 4 {
		t.Errorf("at the limit: %v", err)
	} else {
		c.Close()
	}
}
