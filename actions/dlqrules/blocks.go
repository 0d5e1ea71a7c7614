package dlqrules

// blockSize is how many elements a block of a blocks list holds.
const blockSize = 4096

// blocks is a list that grows without copying what it holds. A prediction
// of a million messages keeps hundreds of thousands of batches and
// targets; a slice that large grows by a quarter at a time, allocating
// about five times its final size on the way.
type blocks[T any] struct {
	b [][]T
	n int
}

// add appends v and returns its index.
func (l *blocks[T]) add(v T) int32 {
	if l.n%blockSize == 0 {
		l.b = append(l.b, make([]T, 0, blockSize))
	}
	last := &l.b[len(l.b)-1]
	*last = append(*last, v)
	l.n++
	return int32(l.n - 1)
}

// at is the i-th element.
func (l *blocks[T]) at(i int32) *T { return &l.b[i/blockSize][i%blockSize] }

// len is the number of elements.
func (l *blocks[T]) len() int { return l.n }
