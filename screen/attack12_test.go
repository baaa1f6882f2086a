package screen

import "testing"

// TestAttack12RepeatedSpaceGoesOn: a REP of a space right after concealed
// or invisible text goes on with its finding, as print's first space
// does (drawn), when repeatFill draws it as fill. The fast path drew a
// REP of a space that reached the last column without that, so
// "ESC[8m ab SP ESC[77b cd" on 80 columns was two concealed findings,
// "ab " and "cd", the REP's bytes in neither, where the cell-by-cell
// path has one, "ab  cd".
func TestAttack12RepeatedSpaceGoesOn(t *testing.T) {
	for _, in := range []string{
		"\x1b[8mab \x1b[7bcd",
		"\x1b[8mab \x1b[7b\ncd",
		"\x1b[30;40mab \x1b[7b\x1b[Hcd",
		"\x1b[?7l\x1b[8mab \x1b[20bcd",
		"\x1b[8mab \x1b[7b\x1b[7b\x1b[Kcd",
	} {
		for _, chunk := range []int{len(in), 5, 1} {
			checkFastPaths(t, []byte(in), 10, 3, chunk)
		}
	}
}
