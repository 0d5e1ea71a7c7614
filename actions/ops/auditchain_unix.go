//go:build unix

package ops

import (
	"os"
	"syscall"
)

// lockFile holds an exclusive lock on f until the returned function is
// called: writers in this process and others take turns at the chain.
func lockFile(f *os.File) (func(), error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	flock := func(how int) (err error) {
		cerr := rc.Control(func(fd uintptr) {
			for err = syscall.Flock(int(fd), how); err == syscall.EINTR; err = syscall.Flock(int(fd), how) {
			}
		})
		if err == nil {
			err = cerr
		}
		return err
	}
	if err := flock(syscall.LOCK_EX); err != nil {
		return nil, err
	}
	return func() { _ = flock(syscall.LOCK_UN) }, nil
}
