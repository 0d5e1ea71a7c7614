package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Files is how a session reaches the host's files: the rules table :rules
// reads and the one W writes. A local dashboard reads and writes where its
// user points; poisonwatch serve gives each session its own: confined to
// the server's files directory, or refusing every path (a capability of
// the session, checked where a file is opened, whatever key asked).
type Files interface {
	Open(path string) (io.ReadCloser, error)
	// Create makes a new file; an existing one is never overwritten.
	Create(path string) (io.WriteCloser, error)
}

// sessionFiles is the session's Files: Options.Files, else the local file
// system (none at all for a local --war-room screen).
func sessionFiles(o *Options) Files {
	switch {
	case o.Files != nil:
		return o.Files
	case o.WarRoom:
		return confine.Denied{Why: warRoomNoFiles}
	}
	return localFiles{}
}

// localFiles are the local user's own files.
type localFiles struct{}

func home(path string) string {
	if strings.HasPrefix(path, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, path[2:])
		}
	}
	return path
}

func (localFiles) Open(path string) (io.ReadCloser, error) { return safeload.Open(home(path)) }

// Create creates path (and its directory) 0600; an existing file or link
// is left as it is.
func (localFiles) Create(path string) (io.WriteCloser, error) {
	path = home(path)
	f, err := safeload.CreatePrivate(path)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%s exists: f chooses another file", path)
	}
	return f, err
}
