package mqwatch

import (
	"time"
	"unsafe"
)

// ChunkBytesPerMessage is what a stored summary costs in a chunk's fixed
// columns, for BenchmarkInventoryMemory.
const ChunkBytesPerMessage = unsafe.Sizeof(chunk{}) / chunkSize

// DelayOn makes a watcher of c wait its Delay on what wait returns, and
// so tells the test when the wait begins.
func DelayOn(c *WatchConfig, wait func(time.Duration) <-chan time.Time) { c.delayed = wait }
