//go:build !unix

package safeload

const nonblock = 0
