// Package journal is the one account of what was done during an incident:
// every act of an operator or of the tool on a queue manager or an alert
// (a run and what came back, an edit, a fix step by step, an inhibit, a
// definition, an acknowledgement or snooze, a join or leave of the war
// room, an alert cleared after an act), written once, at the moment it
// happens, in order. The audit view, the war room's announcements, the
// recording, playback and the report all read it, so they tell one act one
// way. Its durable forms are the audit log (acts on a queue manager, one
// line per act beside the per-message lines) and the recording (every
// entry).
package journal

import (
	"sync"
	"time"
)

// Kind is what an entry records.
type Kind string

// The kinds of entry.
const (
	Run      Kind = "run"       // a message operation: requeue, move, replay, discard, export, import
	CameBack Kind = "came back" // the check after a run or an edit (Ref: that act)
	Edit     Kind = "edit"      // edit and resend (R10i)
	Fix      Kind = "fix"       // a lint fix's changes (R10h)
	Inhibit  Kind = "inhibit"   // GET or PUT set DISABLED or ENABLED
	Define   Kind = "define"    // a queue defined (a target, a parking queue)
	Ack      Kind = "ack"       // an alert acknowledged
	Snooze   Kind = "snooze"    // an alert snoozed
	Cleared  Kind = "cleared"   // an alert cleared after an act (Ref: the act)
	Join     Kind = "join"      // a session joined the war room
	Leave    Kind = "leave"     // a session left it
)

// Status is how an act ended, as its row colours it.
type Status string

// The statuses.
const (
	OK       Status = "ok"        // everything it set out to do was done
	Partial  Status = "partial"   // some done, some skipped or failed
	Failed   Status = "failed"    // nothing done
	Refused  Status = "refused"   // a guard refused it before anything was sent
	Returned Status = "came back" // done, and its messages came back (R10f)
)

// Entry is one thing that happened.
type Entry struct {
	// Seq is the entry's place in its journal, from 1; Ref is the entry an
	// entry completes (a come-back its run, a clear the fix).
	Seq, Ref uint64
	At       time.Time
	Kind     Kind
	// Op names the operation (requeue, move, ...; fix, inhibit, define).
	Op   string
	User string
	QMgr string
	// Queue is the queue acted on (a run's source, a fix's object); Target
	// where messages went.
	Queue, Target string
	// Alert is the key of the alert an ack, snooze, fix or clear is about.
	Alert string
	// Text is the act as a sentence ("requeue 22 messages from ORDERS.BO to
	// ORDERS.IN"); Outcome what became of it ("22 came back within 4 s
	// (2053: ORDERS.BO full)").
	Text, Outcome string
	Status        Status
	Counts        Counts
	Steps         []Step
	Note          string    // an acknowledgement's note
	Until         time.Time // a snooze's end (zero: until it clears)
	Files         []string  // audit, archive, export or import files
	// Started ties a run to its lines in the audit log (their first time).
	Started time.Time
	// Where is the queue what came back was found on (a come-back entry),
	// Within how long after the act the last of them was seen, and Causes
	// count them by the reason in their new MQDLH.
	Where  string
	Within time.Duration
	Causes []Cause
}

// Cause is why some of an act's messages came back: the reason in their
// new MQDLH, the queue it names (the one that was full, put-inhibited or
// missing), and how many.
type Cause struct {
	Text   string // "2053: ORDERS.BO full (40/40)"
	Reason int32
	Queue  string
	Count  int
}

// Counts are a run's messages by fate.
type Counts struct {
	Requested, Done, Skipped, Failed, InDoubt, NotDone, CameBack int
}

// Step is one command of a fix, an inhibit or a definition.
type Step struct {
	MQSC          string
	Before, After string
	Applied       bool
	Skipped       bool // already as wanted: nothing sent
	Error         string
}

// Journal is the ordered, append-only list of entries of one process (the
// dashboard) or one room (serve). It is safe for concurrent use; a nil
// *Journal records nothing.
type Journal struct {
	mu      sync.Mutex
	entries []Entry
	subs    map[int]func(Entry)
	nextSub int
	// deliver keeps subscribers' calls in the entries' order.
	deliver sync.Mutex
}

// New returns an empty journal.
func New() *Journal { return &Journal{subs: map[int]func(Entry){}} }

// maxEntries bounds the journal in memory: an incident's acts are tens or
// hundreds; a runaway writer must not grow the heap without end. The
// durable forms keep everything.
const maxEntries = 100_000

// Append writes e, numbering it, and tells the subscribers. It returns the
// entry as written.
func (j *Journal) Append(e Entry) Entry {
	if j == nil {
		return e
	}
	j.deliver.Lock()
	defer j.deliver.Unlock()
	j.mu.Lock()
	e.Seq = 1
	if n := len(j.entries); n > 0 {
		e.Seq = j.entries[n-1].Seq + 1
	}
	if len(j.entries) >= maxEntries {
		j.entries = append(j.entries[:0:0], j.entries[len(j.entries)-maxEntries/2:]...)
	}
	j.entries = append(j.entries, e)
	subs := make([]func(Entry), 0, len(j.subs))
	for _, fn := range j.subs {
		subs = append(subs, fn)
	}
	j.mu.Unlock()
	for _, fn := range subs {
		fn(e)
	}
	return e
}

// Keep appends an entry numbered elsewhere (a recording's, played back),
// keeping its Seq so the entries that refer to it still do; an entry
// without one, or out of order, is numbered as Append numbers.
func (j *Journal) Keep(e Entry) Entry {
	if j == nil {
		return e
	}
	j.mu.Lock()
	if n := len(j.entries); e.Seq == 0 || (n > 0 && e.Seq <= j.entries[n-1].Seq) {
		j.mu.Unlock()
		return j.Append(e)
	}
	j.entries = append(j.entries, e)
	j.mu.Unlock()
	return e
}

// Entries returns a copy of every entry, oldest first.
func (j *Journal) Entries() []Entry {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Entry(nil), j.entries...)
}

// Len is the number of entries held.
func (j *Journal) Len() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

// Subscribe calls fn with every entry appended from now on, in order,
// until the returned function is called. fn must not block: it runs in the
// appender's goroutine.
func (j *Journal) Subscribe(fn func(Entry)) (cancel func()) {
	if j == nil {
		return func() {}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	id := j.nextSub
	j.nextSub++
	j.subs[id] = fn
	return func() {
		j.mu.Lock()
		defer j.mu.Unlock()
		delete(j.subs, id)
	}
}
