// Command timestamps writes the payload lines with the line prefixes of
// `kubectl logs --timestamps` (kubelet formats the time with Go's
// time.RFC3339Nano, trailing zeros trimmed) and `docker logs --timestamps`
// (moby's jsonmessage.RFC3339NanoFixed, nine fractional digits).
//
//	go run ./gen/timestamps kubectl > kubectl-timestamps.log
//	go run ./gen/timestamps docker > docker-timestamps.log
package main

import (
	"os"
	"time"
)

var lines = []string{
	"plain \x1b[1;31mred\x1b[0m",
	"title: \x1b]0;evil-title\x07|",
	"link: \x1b]8;;https://example.com\x1b\\click\x1b]8;;\x1b\\|",
	"badutf8: \xff\xfe|cut: \xe2\x82|",
	"c1csi-utf8: \xc2\x9b31mX\xc2\x9b0m|c1csi-raw: \x9b31mY\x9b0m|",
	"erase:XXXX\r\x1b[2Kover",
	"clip: \x1b]52;c;ZXZpbA==\x07",
	"2026-11-29T11:47:47Z a line that starts with a time of its own",
}

func main() {
	layout := time.RFC3339Nano
	if len(os.Args) > 1 && os.Args[1] == "docker" {
		layout = "2006-01-02T15:04:05.000000000Z07:00"
	}
	t := time.Date(2026, 11, 29, 11, 47, 47, 100444400, time.UTC)
	var out []byte
	for i, l := range lines {
		out = t.Add(time.Duration(i)*150*time.Millisecond).AppendFormat(out, layout)
		out = append(out, ' ')
		out = append(out, l...)
		out = append(out, '\n')
	}
	os.Stdout.Write(out)
}
