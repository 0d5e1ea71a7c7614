//go:build !unix

package safeload

const nonblock = 0

func noReader(error) bool { return false }
