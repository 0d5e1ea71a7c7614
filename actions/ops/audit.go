package ops

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// AuditRecord is one line of the audit log: one message, one action (R10f).
// It names who did what to which message, never the message's data or any
// credential.
type AuditRecord struct {
	// Prev is the hash of the line before this one in the log
	// (auditchain.go): set as the line is written, checked by audit check.
	Prev     string    `json:"prev,omitempty"`
	Time     time.Time `json:"time"`
	User     string    `json:"user"` // operating-system user
	QMgr     string    `json:"qmgr"`
	Action   Op        `json:"action"`
	MsgId    string    `json:"msg_id"` // hexadecimal
	CorrelId string    `json:"correl_id,omitempty"`
	PutTime  string    `json:"put_time,omitempty"` // RFC 3339, from PutDate/PutTime
	From     string    `json:"from"`
	To       string    `json:"to,omitempty"`
	Outcome  string    `json:"outcome"`
	Reason   int32     `json:"reason,omitempty"` // MQRC
	DryRun   bool      `json:"dry_run,omitempty"`
	// File is the archive (discard), export or import file.
	File string `json:"file,omitempty"`
	// FileSHA256 and Index identify a message of an import file, so that an
	// import run again after an interruption does not put it twice.
	FileSHA256 string `json:"file_sha256,omitempty"`
	Index      int    `json:"index,omitempty"`
	// ReportsCleared names the report options a replay cleared on the
	// copy (--no-reports), e.g. "COA,exception".
	ReportsCleared string `json:"reports_cleared,omitempty"`
	// CopyMsgId is the MsgId of a replay's copy, as put (hexadecimal).
	CopyMsgId string `json:"copy_msg_id,omitempty"`
	// MQSC, Before and After record a fix or inhibit (R10h): the command
	// sent as PCF and the attributes' values before and after it.
	MQSC   string `json:"mqsc,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Act marks the one line an act writes when it ends (its journal
	// entry's kind: run, came back, edit, fix, inhibit, define), with Text
	// saying what it set out to do and Outcome what it came to; the
	// per-message and per-step lines have none.
	Act    string `json:"act,omitempty"`
	Text   string `json:"text,omitempty"`
	Status string `json:"status,omitempty"` // how the act ended (journal.Status)
}

// maxAuditLine bounds one audit line when reading: a record is a few hundred
// bytes, so a longer line is damage, not a record.
const maxAuditLine = 64 << 10

// opAudit appends records to the audit log, one write per batch.
type opAudit struct {
	mu   sync.Mutex
	f    *os.File
	path string
	err  error // first write failure
}

// openAudit opens the audit log for appending. A symbolic link is refused:
// the trail must be the file the operator named, not wherever a link
// points. An existing log that others may read is made 0600 again, with a
// warning, since its lines name users, queues and messages.
func openAudit(path string) (*opAudit, string, error) {
	before, err := os.Lstat(path)
	if err == nil && before.Mode()&os.ModeSymlink != 0 {
		return nil, "", fmt.Errorf("audit log %s is a symbolic link: refused, give the path of the file itself", path)
	}
	f, err := appendPrivate(path)
	if err != nil {
		return nil, "", fmt.Errorf("audit log: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && before != nil && !os.SameFile(before, fi) {
		err = errors.New("it was replaced while being opened")
	}
	if err != nil {
		_ = f.Close()
		return nil, "", fmt.Errorf("audit log %s: %w", path, err)
	}
	warn := ""
	if perm := fi.Mode().Perm(); fi.Mode().IsRegular() && perm&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			warn = fmt.Sprintf("audit log %s has mode %04o: others may read it, and changing it to 0600 failed: %v", path, perm, err)
		} else {
			warn = fmt.Sprintf("audit log %s had mode %04o, readable by others: changed to 0600", path, perm)
		}
	}
	return &opAudit{f: f, path: path}, warn, nil
}

// auditBufs holds the buffers lines are encoded into: one grown anew for
// every write was more garbage per message moved than the message itself.
var auditBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putAuditBuf(b *bytes.Buffer) {
	if b.Cap() <= 1<<20 {
		auditBufs.Put(b)
	}
}

// write appends records. A failed write is kept and reported by err: the run
// stops at its next batch boundary, as acting without an audit trail is not
// allowed.
func (a *opAudit) write(recs []AuditRecord) error {
	if len(recs) == 0 {
		return nil
	}
	buf := auditBufs.Get().(*bytes.Buffer)
	defer putAuditBuf(buf)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("audit record: %w", err)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	if err := a.writeChained(buf.Bytes()); err != nil {
		a.err = fmt.Errorf("audit log %s: %w", a.path, err)
	}
	return a.err
}

// sync makes what was written durable: import dedup relies on these lines
// surviving a crash right after a commit.
//
// The lock is not held across fsync: workers that sync at once wait for
// the disk together, not one after another (a concurrent write is appended
// and is made durable by its own sync).
func (a *opAudit) sync() error {
	a.mu.Lock()
	err := a.err
	a.mu.Unlock()
	if err != nil {
		return err
	}
	if err := a.f.Sync(); err != nil {
		a.mu.Lock()
		if a.err == nil {
			a.err = fmt.Errorf("audit log %s: %w", a.path, err)
		}
		err = a.err
		a.mu.Unlock()
		return err
	}
	return nil
}

func (a *opAudit) close() error {
	if err := a.f.Sync(); err != nil {
		_ = a.f.Close()
		return fmt.Errorf("audit log %s: %w", a.path, err)
	}
	return a.f.Close()
}

// ReadAudit calls fn for each record of an audit log in order. A malformed
// line is an error naming its line number; fn's error stops the reading.
func ReadAudit(r io.Reader, fn func(AuditRecord) error) error {
	return readAuditLines(r, func(_ int, _ []byte, rec AuditRecord) error { return fn(rec) })
}

// readAuditLines is ReadAudit with each record's line number and bytes.
func readAuditLines(r io.Reader, fn func(n int, line []byte, rec AuditRecord) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAuditLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var rec AuditRecord
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("audit line %d: %w", line, err)
		}
		if err := fn(line, b, rec); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("audit line %d: longer than %d bytes", line+1, maxAuditLine)
		}
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// priorImport is what an earlier import of the same file did with one of
// its messages: put it (done), or left it in doubt.
type priorImport struct {
	why  string
	done bool
}

// importedBefore returns, for an import file with the given SHA-256, the
// indices its earlier imports put, with when. A missing log means none; a
// damaged one is an error, since skipping the check could put a message twice.
func importedBefore(auditPath, sha string) (map[int]priorImport, error) {
	f, err := safeload.Open(auditPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	defer f.Close()
	done := map[int]priorImport{}
	pending := map[int]string{}
	err = ReadAudit(f, func(r AuditRecord) error {
		if r.Action != OpImport || r.FileSHA256 != sha || r.DryRun || r.Act != "" {
			return nil
		}
		when := "at " + r.Time.UTC().Format(time.RFC3339) + " by " + r.User
		switch r.Outcome {
		case OpImport.PastTense():
			done[r.Index] = priorImport{why: "already imported " + when, done: true}
			delete(pending, r.Index)
		case textInDoubt:
			done[r.Index] = priorImport{why: "in doubt since an import " + when + ": check the target before importing it again"}
		case outcomePending:
			pending[r.Index] = when
		case outcomeBackedOut:
			delete(pending, r.Index)
		}
		return nil
	})
	// A batch written as pending whose outcome never reached the log (the
	// process died around MQCMIT): it may be on the target, so it is not put
	// again blindly.
	for i, when := range pending {
		if _, ok := done[i]; !ok {
			done[i] = priorImport{why: "in doubt since an import " + when + " stopped around its commit: check the target before importing it again"}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read audit log %s: %w", auditPath, err)
	}
	return done, nil
}

func hexID(id [24]byte) string { return hex.EncodeToString(id[:]) }
