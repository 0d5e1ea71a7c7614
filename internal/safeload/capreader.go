package safeload

import (
	"fmt"
	"io"
)

// CapReader reads R to at most Max bytes: a read past them fails with an
// error wrapping ErrTooLarge that names What, so a stream that grows as it
// is read (a gzip bomb) stops at the cap rather than at the end of memory
// or patience.
type CapReader struct {
	R    io.Reader
	Max  int64
	What string // "decompressed bytes"
	N    int64  // read so far
}

// Read reads from R; one byte past Max is read to tell a stream of exactly
// Max bytes from a longer one.
func (c *CapReader) Read(p []byte) (int, error) {
	if room := c.Max - c.N + 1; int64(len(p)) > room {
		p = p[:max(room, 0)]
	}
	if len(p) == 0 {
		return 0, c.over()
	}
	n, err := c.R.Read(p)
	c.N += int64(n)
	if c.N > c.Max {
		return n - int(c.N-c.Max), c.over()
	}
	return n, err
}

func (c *CapReader) over() error {
	return fmt.Errorf("more than %d %s (the cap): %w", c.Max, c.What, ErrTooLarge)
}
