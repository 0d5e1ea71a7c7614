//go:build unix

package ops_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the test process has
// used. On a shared machine wall-clock figures grow with other load; CPU
// time does not, so the benchmarks report both.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
