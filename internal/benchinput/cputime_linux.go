package benchinput

import (
	"slices"
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
