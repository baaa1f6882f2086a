package sanitize

import (
	"strings"
	"testing"
)

// shortInputs are the short strings the escaping path cleans one at a
// time (capture.CleanField on each manifest field, file names, argv
// words, error messages): a file name, an argv word, and a 200-byte
// error line coloured by one SGR pair.
var shortInputs = []struct{ name, s string }{
	{"file", "main.go"},
	{"argv", "--color=always"},
	{"error", "\x1b[31merror:\x1b[0m " + strings.Repeat("open /home/build/src/bytelens/sanitize/testdata/", 4)[:183]},
}

// BenchmarkShortString is String on each of shortInputs, with its
// allocations (go test ./sanitize -run '^$' -bench BenchmarkShortString).
func BenchmarkShortString(b *testing.B) {
	for _, in := range shortInputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				String(in.s, Options{})
			}
		})
	}
}
