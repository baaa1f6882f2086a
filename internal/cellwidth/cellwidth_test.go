package cellwidth

import "testing"

func TestWideRangesSorted(t *testing.T) {
	for i, r := range wideRanges {
		if r[0] > r[1] || i > 0 && r[0] <= wideRanges[i-1][1] {
			t.Fatalf("wideRanges[%d] = %X out of order", i, r)
		}
	}
}

func TestRune(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want int
	}{{'a', 1}, {'é', 1}, {'\u0301', 0}, {'终', 2}, {'Ａ', 2}, {'😀', 2}, {'─', 1}, {'\u1160', 0}} {
		if got := Rune(c.r); got != c.want {
			t.Errorf("Rune(%U) = %d, want %d", c.r, got, c.want)
		}
	}
}
