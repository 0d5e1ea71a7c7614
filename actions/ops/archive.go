package ops

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opArchive is the local archive of a discard (R10d): a dmpmqmsg file, so
// IBM's dmpmqmsg can load it as well as poisonwatch import. A batch's
// messages are written and synced to disk before its unit of work is
// committed, and cut off again when the unit of work is backed out, so the
// file holds exactly the discarded messages (plus, after a commit whose
// outcome stayed unknown, that batch, which is then kept: an extra copy in
// the archive is recoverable, a lost message is not).
type opArchive struct {
	mu      sync.Mutex // held by one batch from write to settle
	f       *os.File
	path    string
	size    int64 // bytes that belong to the file: header and settled batches
	kept    int   // messages settled into the file
	pending int64 // bytes written by the batch in flight
}

// newArchive creates the archive: at path, or with a new name in dir.
func newArchive(path, dir, qmgr, queue string, now time.Time) (*opArchive, error) {
	var f *os.File
	var err error
	if path != "" {
		f, err = createPrivate(path)
	} else {
		f, path, err = createArchiveFile(dir, qmgr, queue, now)
	}
	if err != nil {
		return nil, fmt.Errorf("discard archive: %w", err)
	}
	a := &opArchive{f: f, path: path}
	var hdr bytes.Buffer
	qw, err := mqfmt.NewQLoadWriter(&hdr, mqfmt.QLoadWriterOptions{QMgr: qmgr, Queue: queue, Now: func() time.Time { return now }})
	if err == nil {
		err = qw.Flush()
	}
	if err == nil {
		_, err = f.Write(hdr.Bytes())
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("discard archive %s: %w", path, err)
	}
	a.size = int64(hdr.Len())
	return a, nil
}

// encodeArchive renders messages as dmpmqmsg records. A message whose MQMD
// the text format cannot carry is refused by its index, before anything is
// written, so it can be left out of the batch.
func encodeArchive(msgs []*mqwatch.Message) ([]byte, int, error) {
	var buf bytes.Buffer
	qw, err := mqfmt.NewQLoadWriter(&buf, mqfmt.QLoadWriterOptions{NoHeader: true})
	if err != nil {
		return nil, -1, err
	}
	for i, m := range msgs {
		if err := qw.Write(mqfmt.QLoadMessage{MD: m.MD, HasMQMD: true, Data: m.Data}); err != nil {
			return nil, i, err
		}
	}
	if err := qw.Flush(); err != nil {
		return nil, -1, err
	}
	return buf.Bytes(), -1, nil
}

// write appends a batch and syncs it to disk. The caller holds mu until
// settle.
func (a *opArchive) write(b []byte) error {
	if _, err := a.f.WriteAt(b, a.size); err != nil {
		return fmt.Errorf("discard archive %s: %w", a.path, err)
	}
	a.pending = int64(len(b))
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("discard archive %s: %w", a.path, err)
	}
	return nil
}

// settle keeps the batch written (committed, or outcome unknown) or cuts it
// off (backed out).
func (a *opArchive) settle(keep bool, n int) error {
	defer func() { a.pending = 0 }()
	if keep {
		a.size += a.pending
		a.kept += n
		return nil
	}
	if err := a.f.Truncate(a.size); err != nil {
		return fmt.Errorf("discard archive %s: cut off a backed-out batch: %w", a.path, err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("discard archive %s: %w", a.path, err)
	}
	return nil
}

// close syncs the archive, or removes it when it holds no message.
func (a *opArchive) close() (string, error) {
	if a.kept == 0 {
		_ = a.f.Close()
		return "", os.Remove(a.path)
	}
	if err := a.f.Sync(); err != nil {
		_ = a.f.Close()
		return a.path, fmt.Errorf("discard archive %s: %w", a.path, err)
	}
	return a.path, a.f.Close()
}
