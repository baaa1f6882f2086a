package benchinput

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU returns the CPU time the calling thread has used
// (CLOCK_THREAD_CPUTIME_ID); callers lock the goroutine to its thread.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// Medians runs each of rows over an input of n bytes, the rows
// interleaved round by round so that other work on a shared machine
// neither stretches one row nor drifts between rows: in each of rounds
// rounds, each row runs at least once and until it has used minCPU of
// thread CPU time. It returns each row's median throughput in MB of input
// per CPU second. Callers lock the goroutine to its thread.
func Medians(rows []func(), n, rounds int, minCPU time.Duration) []float64 {
	mbs := make([][]float64, len(rows))
	for range rounds {
		for k, f := range rows {
			runs := 0
			start := ThreadCPU()
			for runs == 0 || ThreadCPU()-start < minCPU {
				f()
				runs++
			}
			mbs[k] = append(mbs[k], float64(runs*n)/(ThreadCPU()-start).Seconds()/1e6)
		}
	}
	med := make([]float64, len(rows))
	for k := range rows {
		slices.Sort(mbs[k])
		med[k] = mbs[k][rounds/2]
	}
	return med
}

// Measure skips t unless BYTELENS_CPUTIME is set (to 1, or to a
// comma-separated list of input names, which Wanted then keeps), and
// locks t's goroutine to its thread for the rest of the test, as
// ThreadCPU needs.
func Measure(t *testing.T) {
	if os.Getenv("BYTELENS_CPUTIME") == "" {
		t.Skip("set BYTELENS_CPUTIME=1 (or to a list of input names) to measure")
	}
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
}

// Wanted reports whether the input called name is to be measured: every
// input when BYTELENS_CPUTIME is 1, else those it lists.
func Wanted(name string) bool {
	v := os.Getenv("BYTELENS_CPUTIME")
	return v == "1" || slices.Contains(strings.Split(v, ","), name)
}
