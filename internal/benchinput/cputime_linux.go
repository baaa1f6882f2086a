package benchinput

import (
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
