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

// OpenFile is os.OpenFile for writing a file the owner named (the audit
// log), opened without blocking: a FIFO is refused at once instead of
// hanging until someone reads it, as are sockets and directories. A
// character device (/dev/null, /dev/full) is the owner's choice and kept.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|nonblock, perm)
	if noReader(err) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if m := st.Mode(); !m.IsRegular() && m&fs.ModeCharDevice == 0 {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return f, nil
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
