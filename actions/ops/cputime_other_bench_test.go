//go:build !unix

package ops_test

import "time"

// processCPU is not available here: benchmarks then report wall time only.
func processCPU() (time.Duration, bool) { return 0, false }
