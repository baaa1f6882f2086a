package sanitize

import "testing"

// TestCloseLen checks the lengths by which records passes a record on to
// closeCounted: the two OSC 8 closes whose keys closeCounted compares are
// closeLen and closeLen+1 bytes long, so that the length test lets both
// through, and the keys are the words of those bytes.
func TestCloseLen(t *testing.T) {
	for i, s := range [2]string{"\x1b]8;;\x1b\\", "\x1b]8;;\x07"} {
		if d := uint64(len(s) - closeLen); d > 1 {
			t.Errorf("%q: %d bytes, records passes %d and %d", s, len(s), closeLen, closeLen+1)
		}
		if wordOf([]byte(s)) != closeKeys[i] {
			t.Errorf("%q: closeKeys[%d] is not its word", s, i)
		}
	}
}
