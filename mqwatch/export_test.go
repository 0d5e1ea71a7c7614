package mqwatch

import "unsafe"

// ChunkBytesPerMessage is what a stored summary costs in a chunk's fixed
// columns, for BenchmarkInventoryMemory.
const ChunkBytesPerMessage = unsafe.Sizeof(chunk{}) / chunkSize
