package screen_test

import (
	"fmt"

	"github.com/bytelens/bytelens/screen"
)

// A file name that hides a command behind CR and an erase: the screen
// shows the harmless name, the finding gives the hidden text's offset.
func Example() {
	m, _ := screen.New(screen.Options{NewlineCRLF: true, Findings: true})
	m.Feed([]byte("rm -rf ~/ \r\x1b[Kreport.txt\n"))
	m.End()
	fmt.Printf("%s\n", m.AppendSeen(nil, 0))
	for _, f := range m.Findings() {
		fmt.Printf("%q at %d+%d, %s by %s via %s, rank %d\n", f.Text, f.Off, f.Len, f.Cause, f.By.Name, f.Via, f.Rank)
	}
	// Output:
	// report.txt
	// "rm -rf ~/ " at 0+10, erased by EL via CR, rank 80
}

// A copy of the model is a checkpoint: feeding it leaves the original as
// it was.
func ExampleModel_Clone() {
	m, _ := screen.New(screen.Options{Cols: 20, Rows: 2})
	m.Feed([]byte("first"))
	cp := m.Clone()
	cp.Feed([]byte("\rsecond"))
	fmt.Printf("%s / %s\n", m.AppendLine(nil, 0), cp.AppendLine(nil, 0))
	// Output: first / second
}
