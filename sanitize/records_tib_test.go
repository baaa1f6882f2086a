package sanitize

import (
	"reflect"
	"strings"
	"testing"
)

// TestRecordsPastTiB: a stream that crosses 1 TiB (1<<40 bytes, past
// which decode.Record.End wraps) is cleaned on the record path as it is
// at its start, whole and cut into Writes, coloured output with CR
// redraws, an OSC 8 link, text after it and characters cut by Writes: the same text, report and
// findings (their offsets taken from the first byte written).
func TestRecordsPastTiB(t *testing.T) {
	p := []byte(strings.Repeat("\x1b[1mab\x1b[0m\r\n", 100) + "x\r\x1b]8;;http://x/\x07label\x1b]8;;\x07\x1b[2J\x1b]0;t\x07" + strings.Repeat("\x1b[31mz\x1b[m ", 60) + strings.Repeat("h\u00e9\u2713\x1b[m\U0001F600", 30))
	var cuts []int
	for i := 7; i < len(p); i += 7 {
		cuts = append(cuts, i)
	}
	o := Options{Links: LinksAppend}
	for _, path := range []pathChoice{pathRecords, pathAuto} {
		for _, cut := range [][]int{nil, cuts} {
			want := writeAt(p, o, cut, path, 0)
			for _, off := range []int64{1<<40 - 512, 1<<40 - 1, 1 << 40, 3<<40 - 100} {
				got := writeAt(p, o, cut, path, off)
				if string(got.out) != string(want.out) || !reflect.DeepEqual(got.rep, want.rep) {
					t.Errorf("path %v, %d Writes, from offset %d: %.60q, report %+v\nwant %.60q, %+v", path, len(cut)+1, off, got.out, got.rep, want.out, want.rep)
				}
			}
		}
	}
}
