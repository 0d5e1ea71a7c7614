package safeload

import (
	"io/fs"
	"os"
	"path/filepath"
)

// CreateNew creates path as a new file with perm, open for writing. It never
// writes through anything already there: an existing file, directory or
// symbolic link (even one leading nowhere) fails with an error matching
// fs.ErrExist, so two writers starting at once never share a file and a
// link planted at the path never redirects the write.
func CreateNew(path string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|nofollow, perm)
}

// CreatePrivate is CreateNew of a file only its owner reads (0600), in a
// directory created 0700 (with its parents) when missing: audit records,
// archives, recordings and keys hold what others must not read. Errors are
// MkdirAll's and CreateNew's as they are, for the caller to say which file.
func CreatePrivate(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return CreateNew(path, 0o600)
}
