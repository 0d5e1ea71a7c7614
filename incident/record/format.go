// Package record writes what the dashboard saw to a recording and reads it
// back: the watchers' snapshots as deltas against the previous one (a
// queue's figures only when they changed, an inventory read once and then
// only its additions and removals), the alerts' transitions and
// acknowledgements, the operators' actions with their results, and who was
// in the war room. A recording is a gzip stream of gob frames, flushed
// after each, so a crash loses at most the frame being written; each file
// of a rotated recording is whole on its own.
package record

import (
	"cmp"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Magic opens every recording.
const Magic = "poisonwatch recording"

// Version is the format this package writes; it reads this one and
// version 1 (whose inventories are lists of whole summaries, not Cols).
const Version = 2

// Header is a recording's first frame.
type Header struct {
	Magic    string
	Version  int
	Started  time.Time
	Interval time.Duration
	Source   string // "dashboard", "serve", "exporter", "sim"
	QMgrs    []string
}

// Frame is one thing that happened. Exactly one pointer is set.
type Frame struct {
	Poll  *Poll
	Alert *AlertEvent
	// Entry is one entry of the journal: an act, what came back after it,
	// an acknowledgement, a join or a leave of the war room.
	Entry *journal.Entry
	// Action is a run as recordings before the journal wrote it; it is
	// read as an entry (AsEntry).
	Action   *Action
	Presence *Presence
	// Chunk is part of an inventory written in full, ahead of the poll it
	// belongs to: a million dead letters are written a chunk at a time,
	// never held whole in one frame.
	Chunk *Chunk
}

// Chunk is a part of a full inventory.
type Chunk struct {
	At   time.Time // the poll's
	QMgr string
	Inv  Inv // Full on the first chunk of an inventory
	// whole is, once read, the inventory from its first chunk to this
	// one: the reader builds it as it goes (each chunk shares the storage
	// of the one before), so a replay takes it as it is rather than
	// appending the chunk's summaries again, and the frames hold the
	// messages in columns rather than as a million structs.
	whole *mqwatch.Inventory
}

// chunkLen is how many summaries a chunk holds.
const chunkLen = 20000

// Poll is one snapshot as a delta against the previous poll of its queue
// manager in the same file.
type Poll struct {
	QMgr      string
	Time      time.Time
	Connected bool
	Stale     bool
	Err       Err
	NextRetry time.Time
	Info      *mqwatch.QMgrInfo // nil: as before
	Queues    []Queue           // changed or new
	Gone      []string          // queues no longer listed
	Heads     map[string][]mqwatch.Summary
	HeadsGone []string
	Invs      []Inv
	Stats     mqwatch.PollStats

	// light is a poll of a recording opened light (OpenLight): only its
	// queue manager and time are kept; Recording.Full reads it again
	// from segment seg.
	light bool
	seg   int
}

// Queue is a queue view without interfaces.
type Queue struct {
	Info       mqwatch.QueueInfo
	Status     mqwatch.QueueStatus
	HasStatus  bool
	Role       mqwatch.Role
	Err        Err
	InquireErr Err
}

// Inv is an inventory's change: in full (the first poll, or after a gap),
// or what was added and dropped.
type Inv struct {
	Queue   string
	Full    bool
	Added   []mqwatch.Summary // version 1; read from Cols in version 2
	Cols    *Cols             // what was added, as columns (version 2)
	Dropped []mqwatch.Key     // version 1; read from DropKeys in version 2
	// DropKeys are the dropped messages' MsgId and CorrelId, 48 bytes a
	// message: one byte string on the wire, not two arrays a key.
	DropKeys []byte
	Gone     bool
}

// added is how many summaries in adds, in either form.
func (in *Inv) added() int { return len(in.Added) + in.Cols.Len() }

// dropped is how many messages in drops, in either form.
func (in *Inv) dropped() int { return len(in.Dropped) + len(in.DropKeys)/keyBytes }

// keyBytes is a key in DropKeys.
const keyBytes = 48

func appendKey(b []byte, k mqwatch.Key) []byte {
	return append(append(b, k.MsgId[:]...), k.CorrelId[:]...)
}

// readDropKeys moves DropKeys into Dropped.
func (in *Inv) readDropKeys() error {
	if len(in.DropKeys)%keyBytes != 0 {
		return fmt.Errorf("%w: %d bytes of dropped keys, not a multiple of %d", errCols, len(in.DropKeys), keyBytes)
	}
	for b := in.DropKeys; len(b) > 0; b = b[keyBytes:] {
		var k mqwatch.Key
		copy(k.MsgId[:], b)
		copy(k.CorrelId[:], b[24:])
		in.Dropped = append(in.Dropped, k)
	}
	in.DropKeys = nil
	return nil
}

// AlertEvent is an alert's transition (fired, flapped, cleared, ended,
// acked, snoozed) with its history then.
type AlertEvent struct {
	Kind    string
	At      time.Time
	Episode model.Episode
}

// Action is an operator's run and what came back.
type Action struct {
	At          time.Time
	User        string
	Op          string
	QMgr        string
	Queue       string
	Target      string
	Summary     string // the plan's sentence
	Requested   int
	Done        int
	Skipped     int
	Failed      int
	InDoubt     int
	NotDone     int
	Stopped     string
	Err         string
	AuditFile   string
	ArchiveFile string
	// AuditID finds the run's lines in the audit log: its file, user and
	// start time.
	AuditID string
}

// Presence is who is in the war room.
type Presence struct {
	At      time.Time
	Members []Member
}

// Member is one session in the room.
type Member struct {
	User, Role string
	Driving    bool
	Where      string // the screen the session is on
}

// Err is an error as recorded: its text, and what the dashboard asks of
// it (the MQ reason code, an unanswered call).
type Err struct {
	Text       string
	Verb, Obj  string
	CC, RC     int32
	NoAnswer   string // the call left unanswered
	NoAnswerIn time.Duration
}

func encodeErr(err error) Err {
	if err == nil {
		return Err{}
	}
	e := Err{Text: err.Error()}
	var me *mqwatch.Error
	if errors.As(err, &me) {
		e.Verb, e.Obj, e.CC, e.RC = me.Verb, me.Object, me.CC, int32(me.RC)
	}
	var na *mqwatch.NoAnswerError
	if errors.As(err, &na) {
		e.NoAnswer, e.NoAnswerIn = na.Call, na.After
	}
	return e
}

// replayed is a recorded error: its text as it was, and what it wraps for
// errors.As.
type replayed struct {
	text  string
	inner error
}

func (r *replayed) Error() string { return r.text }
func (r *replayed) Unwrap() error { return r.inner }

func (e Err) decode() error {
	if e.Text == "" {
		return nil
	}
	var inner error
	switch {
	case e.NoAnswer != "":
		inner = &mqwatch.NoAnswerError{Call: e.NoAnswer, After: e.NoAnswerIn}
	case e.RC != 0:
		inner = &mqwatch.Error{Verb: e.Verb, Object: e.Obj, CC: e.CC, RC: mqfmt.Reason(e.RC)}
	}
	return &replayed{text: e.Text, inner: inner}
}

func encodeQueue(v mqwatch.QueueView) Queue {
	return Queue{Info: v.Info, Status: v.Status, HasStatus: v.HasStatus, Role: v.Role, Err: encodeErr(v.Err), InquireErr: encodeErr(v.InquireErr)}
}

func (q Queue) decode() mqwatch.QueueView {
	return mqwatch.QueueView{Info: q.Info, Status: q.Status, HasStatus: q.HasStatus, Role: q.Role, Err: q.Err.decode(), InquireErr: q.InquireErr.decode()}
}

// AsEntry reads a run written before the journal as a journal entry.
func (a Action) AsEntry() journal.Entry {
	e := journal.Entry{At: a.At, Kind: journal.Run, Op: a.Op, User: a.User, QMgr: a.QMgr, Queue: a.Queue, Target: a.Target,
		Text: a.Summary, Status: journal.OK, Started: a.At,
		Counts: journal.Counts{Requested: a.Requested, Done: a.Done, Skipped: a.Skipped, Failed: a.Failed, InDoubt: a.InDoubt, NotDone: a.NotDone}}
	if e.Text == "" {
		e.Text = a.Op + " on " + a.Queue
	}
	e.Outcome = fmt.Sprintf("%d done", a.Done)
	for _, c := range []struct {
		n    int
		what string
	}{{a.Skipped, "skipped"}, {a.Failed, "failed"}, {a.InDoubt, "in doubt"}, {a.NotDone, "not done"}} {
		if c.n > 0 {
			e.Outcome += fmt.Sprintf(" · %d %s", c.n, c.what)
			e.Status = journal.Partial
		}
	}
	if a.Stopped != "" || a.Err != "" {
		e.Outcome += " · stopped: " + cmp.Or(a.Stopped, a.Err)
		e.Status = journal.Partial
	}
	for _, f := range []string{a.AuditFile, a.ArchiveFile} {
		if f != "" {
			e.Files = append(e.Files, f)
		}
	}
	return e
}
