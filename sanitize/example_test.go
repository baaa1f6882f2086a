package sanitize_test

import (
	"fmt"
	"os"

	"github.com/bytelens/bytelens/sanitize"
)

func ExampleBytes() {
	raw := []byte("build \x1b[32mok\x1b[0m\r\n\x1b]0;pwned\x07see \x1b]8;;https://evil.example/\x07docs\x1b]8;;\x07\n")
	text, rep := sanitize.Bytes(raw, sanitize.Options{})
	fmt.Printf("%q\n", text)
	fmt.Println("removed csi:", rep.Removed.CSI, "osc:", rep.Removed.OSC, "title flags:", rep.Flags.Title)
	// Output:
	// "build ok\nsee docs\n"
	// removed csi: 2 osc: 3 title flags: 1
}

func ExampleNewWriter() {
	w := sanitize.NewWriter(os.Stdout, sanitize.Options{Links: sanitize.LinksAppend})
	// A sequence split between two writes is handled as if it came whole.
	w.Write([]byte("\x1b]8;;https://example.com/\x1b\\label\x1b[3"))
	w.Write([]byte("1m!\x1b]8;;\x1b\\\n"))
	w.Close()
	fmt.Println(w.Report().Kept.LinkLabels, "link label kept")
	// Output:
	// label! <https://example.com/>
	// 1 link label kept
}

func ExampleText() {
	// A file name, an argv word: a string that needs no cleaning comes back
	// as it is; another is cleaned as String would clean it.
	fmt.Printf("%q\n", sanitize.Text("main.go", sanitize.Options{}))
	fmt.Printf("%q\n", sanitize.Text("evil\x1b]0;pwned\x07\u202e.go", sanitize.Options{}))
	// Output:
	// "main.go"
	// "evil.go"
}
