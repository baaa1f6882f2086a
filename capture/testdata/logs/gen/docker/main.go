// Writes a docker json-file log with moby's own encoder (jsonlog.JSONLogs.MarshalJSONBuf),
// as daemon/logger/jsonfilelog does: one JSON object per message, '\n' after each.
package main

import (
	"bytes"
	"os"
	"time"

	"github.com/docker/docker/daemon/logger/jsonfilelog/jsonlog"
)

func main() {
	t0 := time.Date(2026, 11, 29, 11, 47, 47, 100444400, time.UTC)
	msgs := []struct {
		stream, line string
		partial      bool
	}{
		{"stdout", "plain \x1b[1;31mred\x1b[0m", false},
		{"stdout", "title: \x1b]0;evil-title\x07|", false},
		{"stdout", "link: \x1b]8;;https://example.com\x1b\\click\x1b]8;;\x1b\\|", false},
		{"stdout", "badutf8: \xff\xfe|cut: \xe2\x82|", false},
		{"stdout", "c1csi-utf8: \xc2\x9b31mX\xc2\x9b0m|c1csi-raw: \x9b31mY\x9b0m|", false},
		{"stdout", "split: \x1b[3", true},
		{"stdout", "2mgreen\x1b[0m", false},
		{"stdout", "erase:XXXX\r\x1b[2Kover", false},
		{"stderr", "to-stderr", false},
		{"stdout", "clip: \x1b]52;c;ZXZpbA==\x07<html>&", false},
	}
	var out bytes.Buffer
	for i, m := range msgs {
		line := []byte(m.line)
		if !m.partial {
			line = append(line, '\n')
		}
		l := jsonlog.JSONLogs{Log: line, Stream: m.stream, Created: t0.Add(time.Duration(i) * 150 * time.Millisecond)}
		if err := l.MarshalJSONBuf(&out); err != nil {
			panic(err)
		}
		out.WriteByte('\n')
	}
	os.Stdout.Write(out.Bytes())
}
