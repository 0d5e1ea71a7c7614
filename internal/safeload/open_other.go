//go:build !unix

package safeload

const nonblock = 0

func noReader(error) bool { return false }

// nofollow: O_CREATE|O_EXCL alone refuses a link where there is no O_NOFOLLOW.
const nofollow = 0
