// Package confine keeps the paths a remote session names inside one
// directory the server's owner chose: `poisonwatch serve` lets operators
// who have no account on the host load rules tables, export, import and
// archive, and each of those paths is resolved here, in the directory,
// without following a symbolic link (os.Root refuses any that leads out;
// this package refuses every one, so what a path names is what it says).
package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Dir is a confining directory.
type Dir struct {
	dir  string // absolute, symlinks resolved
	root *os.Root
}

// ErrOutside is wrapped by the error for a path that leaves the directory.
var ErrOutside = errors.New("outside the server's files directory")

// Open opens (creating it 0700 when missing) the directory dir.
func Open(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("files directory: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("files directory: %w", err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("files directory: %w", err)
	}
	return &Dir{dir: abs, root: root}, nil
}

// Path is the directory's absolute path.
func (d *Dir) Path() string { return d.dir }

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// rel turns a path a session named into one relative to the directory: a
// relative path is taken in the directory, an absolute one must lie in it.
func (d *Dir) rel(path string) (string, error) {
	if path == "" {
		return "", errors.New("no file named")
	}
	p := strings.TrimPrefix(path, "~/") // the session's home is the files directory
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(d.dir, filepath.Clean(p))
		if err != nil {
			return "", d.outside(path)
		}
		p = r
	}
	p = filepath.Clean(p)
	if !filepath.IsLocal(p) {
		return "", d.outside(path)
	}
	return p, nil
}

func (d *Dir) outside(path string) error {
	return fmt.Errorf("%s: %w %s", path, ErrOutside, d.dir)
}

// noLinks refuses a path any of whose existing components is a symbolic
// link; components that do not exist yet are fine (they are created as
// directories or files here).
func (d *Dir) noLinks(path, rel string) error {
	parts := strings.Split(rel, string(filepath.Separator))
	for i := range parts {
		fi, err := d.root.Lstat(filepath.Join(parts[:i+1]...))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: a symbolic link: paths named over SSH follow none (%w %s)", path, ErrOutside, d.dir)
		}
	}
	return nil
}

// Resolve is the absolute path, in the directory, of a path a session
// named, for a file the engine reads or creates by name (export, import,
// discard archive). Its directories are created 0700.
func (d *Dir) Resolve(path string) (string, error) {
	rel, err := d.rel(path)
	if err != nil {
		return "", err
	}
	if err := d.noLinks(path, rel); err != nil {
		return "", err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.root.MkdirAll(dir, 0o700); err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
	}
	return filepath.Join(d.dir, rel), nil
}

// Open opens a regular file of the directory for reading; a FIFO or device
// is refused without blocking.
func (d *Dir) Open(path string) (io.ReadCloser, error) {
	rel, err := d.rel(path)
	if err != nil {
		return nil, err
	}
	if err := d.noLinks(path, rel); err != nil {
		return nil, err
	}
	f, err := safeload.OpenIn(d.root, rel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return f, nil
}

// Create creates a new file 0600 (directories 0700); an existing file or
// link is never overwritten.
func (d *Dir) Create(path string) (io.WriteCloser, error) {
	rel, err := d.rel(path)
	if err != nil {
		return nil, err
	}
	if err := d.noLinks(path, rel); err != nil {
		return nil, err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.root.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
	}
	f, err := d.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return f, nil
}

// unwrapPath drops the *PathError's own path (relative to the root), so the
// message names the path the session typed once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Denied is a session without file access: every path is refused.
type Denied struct{ Why string }

func (n Denied) err() error { return errors.New(n.Why) }

// Resolve refuses.
func (n Denied) Resolve(string) (string, error) { return "", n.err() }

// Open refuses.
func (n Denied) Open(string) (io.ReadCloser, error) { return nil, n.err() }

// Create refuses.
func (n Denied) Create(string) (io.WriteCloser, error) { return nil, n.err() }
