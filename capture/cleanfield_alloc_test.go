package capture

import "testing"

// TestCleanFieldAllocs: a manifest field that needs no cleaning (a file
// name, an argv word) is returned without an allocation (sanitize.Text's
// as-is test); before it, CleanField("main.go") made 8 allocations and
// 21.9 KB, a cleaner's.
func TestCleanFieldAllocs(t *testing.T) {
	for _, s := range []string{"main.go", "--color=always", "/home/user/src/naïve 中文.txt"} {
		if n := testing.AllocsPerRun(100, func() { CleanField(s) }); n > 0 {
			t.Errorf("CleanField(%q) makes %v allocations, want none", s, n)
		}
	}
}
