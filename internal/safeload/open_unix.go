//go:build unix

package safeload

import "syscall"

const nonblock = syscall.O_NONBLOCK
