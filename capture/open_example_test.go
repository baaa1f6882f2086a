package capture_test

import (
	"fmt"
	"log"

	"github.com/bytelens/bytelens/capture"
)

// ExampleOpen loads a ttyrec recording and lists its frames: the frame
// boundary falls inside an escape sequence ("ESC [ 3" | "2m"), which is why
// a stream is decoded as one byte sequence, not frame by frame.
func ExampleOpen() {
	c, err := capture.Open("testdata/samples/ttyrec.tty", capture.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	out := c.Stream(capture.StreamOutput)
	fmt.Println(c.Format, out.Len, "bytes")
	for _, e := range out.Events {
		fmt.Println(e.Kind, e.Off, e.Len, e.Time)
	}
	tail := make([]byte, 8)
	out.Data.ReadAt(tail, 161)
	fmt.Printf("%q\n", tail)
	// Output:
	// ttyrec 209 bytes
	// frame 0 164 0s
	// frame 164 45 301.61ms
	// "\x1b[32mgre"
}
