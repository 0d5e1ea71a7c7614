//go:build !unix

package ops

import "os"

// lockFile is a no-op where there is no flock: two processes appending to
// one log at the same moment may break its chain, which audit check then
// reports.
func lockFile(*os.File) (func(), error) { return func() {}, nil }
