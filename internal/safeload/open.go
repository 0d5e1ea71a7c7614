package safeload

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular refuses a device, FIFO, socket or directory: it could be
// endless or block.
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading if it is a regular file. It opens without
// blocking (O_NONBLOCK), so a FIFO with no writer is refused at once
// instead of hanging the program where signals are caught; on a regular
// file the flag changes nothing.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenFile is os.OpenFile of a regular file, opened without blocking (a
// FIFO with no reader is refused at once instead of hanging a writer too).
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|nonblock, perm)
	if noReader(err) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err != nil {
		return nil, err
	}
	return regular(f, path)
}

// OpenIn is Open of name inside root.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, err
	}
	return regular(f, name)
}

func regular(f *os.File, path string) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, nil
}
