//go:build unix

package safeload

import (
	"errors"
	"syscall"
)

const nonblock = syscall.O_NONBLOCK

// noReader: a FIFO opened to write without blocking, nobody reading it.
func noReader(err error) bool { return errors.Is(err, syscall.ENXIO) }

// nofollow refuses a symbolic link as the last element of a path.
const nofollow = syscall.O_NOFOLLOW
