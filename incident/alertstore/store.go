// Package alertstore keeps the alerts' histories and acknowledgements in
// the state directory, one file per set of queue managers, so that a
// restart or a second `poisonwatch serve` on the same queue managers knows
// who acknowledged what. The file is written whole and renamed into place:
// a reader never sees half of it.
package alertstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/model"
)

// Path is the file of a set of queue managers in dir: alerts-QM1+QM2.json,
// the names sorted; a long or odd set is named by its hash.
func Path(dir string, qmgrs []string) string {
	names := slices.Clone(qmgrs)
	slices.Sort(names)
	set := strings.Join(names, "+")
	ok := len(set) > 0 && len(set) <= 80
	for _, r := range set {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("+._%-", r)) {
			ok = false
		}
	}
	if !ok {
		h := sha256.Sum256([]byte(strings.Join(names, "\x00")))
		set = "set-" + hex.EncodeToString(h[:8])
	}
	return filepath.Join(dir, "alerts-"+set+".json")
}

// maxStateBytes caps the file: an episode is a few hundred bytes, and a
// fleet of fifty queue managers of a thousand queues remembers some
// thousands of them.
const maxStateBytes = 64 << 20

// sanitize makes an episode's strings safe for a terminal: who acknowledged
// it and their note reach the screen and the exporter's labels. Its key
// (model.Alert.Key) joins names with NULs: each part is sanitised, the NULs
// kept, so it still finds its alert.
func sanitize(e *model.Episode) {
	for _, p := range []*string{&e.QMgr, &e.Rule, &e.Queue, &e.Text, &e.Ack.By, &e.Ack.Note} {
		*p = mqfmt.Sanitize(*p)
	}
	parts := strings.Split(e.Key, "\x00")
	for i, p := range parts {
		parts[i] = mqfmt.Sanitize(p)
	}
	e.Key = strings.Join(parts, "\x00")
}

// file is what is written: the alerts still remembered.
type file struct {
	Version int             `json:"version"`
	Saved   time.Time       `json:"saved"`
	Alerts  []model.Episode `json:"alerts"`
}

// Store ties a book to its file.
type Store struct {
	path  string
	book  *model.AlertBook
	dirty chan struct{}

	mu  sync.Mutex
	mod time.Time // of the file as last read or written
	err error
}

// Open reads the file (a missing one is an empty book) into b and makes
// every change of b mark it for writing; Run writes it.
func Open(path string, b *model.AlertBook) (*Store, error) {
	s := &Store{path: path, book: b, dirty: make(chan struct{}, 1)}
	if err := s.load(); err != nil {
		return nil, err
	}
	b.OnChange = func([]model.Transition) { s.touch() }
	return s, nil
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

func (s *Store) touch() {
	select {
	case s.dirty <- struct{}{}:
	default:
	}
}

// load merges the file into the book when it changed since last read.
func (s *Store) load() error {
	st, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("alert state: %w", err)
	}
	s.mu.Lock()
	same := st.ModTime().Equal(s.mod)
	s.mu.Unlock()
	if same {
		return nil
	}
	// Read as any file that may come from someone else: a FIFO or device
	// at the path is refused at once (opened without blocking), never
	// waited on where signals are caught, and the size is capped.
	data, err := safeload.ReadFile(s.path, maxStateBytes)
	if err != nil {
		return fmt.Errorf("alert state: %w (move it away to start afresh)", err)
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("alert state %s: %w (move it away to start afresh)", s.path, err)
	}
	if f.Version != 1 {
		return fmt.Errorf("alert state %s: version %d, this poisonwatch reads version 1", s.path, f.Version)
	}
	for i := range f.Alerts {
		sanitize(&f.Alerts[i])
	}
	s.book.Merge(f.Alerts)
	s.mu.Lock()
	s.mod = st.ModTime()
	s.mu.Unlock()
	return nil
}

// Save merges what another process wrote, then writes the book whole
// to a temporary file renamed over the old one.
func (s *Store) Save() error {
	if err := s.load(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(file{Version: 1, Saved: time.Now().UTC(), Alerts: s.book.Open()}, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("alert state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".alerts-*.tmp")
	if err != nil {
		return fmt.Errorf("alert state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("alert state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("alert state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("alert state: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("alert state: %w", err)
	}
	if st, err := os.Stat(s.path); err == nil {
		s.mu.Lock()
		s.mod = st.ModTime()
		s.mu.Unlock()
	}
	return nil
}

// Run writes the book when it changed and reads the file when another
// process changed it (every poll interval), until ctx ends; it writes once
// more then. The last error is kept for Err.
func (s *Store) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			s.setErr(s.Save())
			return
		case <-s.dirty:
			err = s.Save()
		case <-t.C:
			err = s.load()
		}
		s.setErr(err)
	}
}

func (s *Store) setErr(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// Err is the last error reading or writing the file, nil when it worked.
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
