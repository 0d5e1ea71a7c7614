package ops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// StateDir is where poisonwatch keeps its audit log and archives: the XDG
// state directory ($XDG_STATE_HOME, else ~/.local/state) on Unix, the local
// application data directory on Windows, each with a poisonwatch folder.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "poisonwatch"), nil
	}
	if runtime.GOOS == "windows" {
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "poisonwatch"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state directory: %w", err)
	}
	return filepath.Join(home, ".local", "state", "poisonwatch"), nil
}

// DefaultAuditPath is the audit log under StateDir.
func DefaultAuditPath() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "audit.jsonl"), nil
}

// DefaultArchiveDir is where discard archives go under StateDir.
func DefaultArchiveDir() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "archive"), nil
}

// createPrivate creates a new file readable only by its owner (0600) in a
// directory created 0700 when missing: archives and audit records hold
// message data and identities that the queue's own authority protected. An
// existing file is never overwritten.
func createPrivate(path string) (*os.File, error) {
	f, err := safeload.CreatePrivate(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	// The new name must survive a power loss too, not only the data synced
	// into it later: sync the directory that holds it.
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return f, nil
}

// appendPrivate opens path for appending (and reading: the audit chain
// reads the last line), creating it 0600 when missing.
func appendPrivate(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Without blocking: an audit path that is a FIFO is refused, not
	// waited on until someone reads it.
	f, err := safeload.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}

// archiveName builds a discard archive's file name from the queue manager,
// the queue and the time, with characters that a file name cannot safely
// hold (MQ names may contain '/' and '%') replaced.
func archiveName(qmgr, queue string, t time.Time, n int) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
				return r
			}
			return '_'
		}, s)
	}
	name := fmt.Sprintf("discard-%s-%s-%s", clean(qmgr), clean(queue), t.UTC().Format("20060102T150405Z"))
	if n > 1 {
		name += fmt.Sprintf("-%d", n)
	}
	return name + ".dmp"
}

// createArchiveFile creates a new archive file in dir, numbering the name
// when one of the same second exists.
func createArchiveFile(dir, qmgr, queue string, t time.Time) (*os.File, string, error) {
	for n := 1; n <= 100; n++ {
		p := filepath.Join(dir, archiveName(qmgr, queue, t, n))
		f, err := createPrivate(p)
		if err == nil {
			return f, p, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", fmt.Errorf("create archive in %s: 100 archives of the same second exist", dir)
}
