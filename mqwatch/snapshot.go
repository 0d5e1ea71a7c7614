package mqwatch

import "time"

// Snapshot is one poll's immutable picture of a queue manager. The program
// receives it whole; nothing in it is written after it is sent.
type Snapshot struct {
	Seq      uint64
	Time     time.Time
	QMgrName string // the configured name, known even while disconnected
	QMgr     QMgrInfo
	// Connected is false while the watcher cannot reach the queue manager; Err
	// then says why (2009, 2035, ...) and the figures are those of the last
	// good poll (Stale is true).
	Connected bool
	Stale     bool
	Err       error
	NextRetry time.Time // when a disconnected watcher tries again

	Queues []QueueView // sorted by name

	// Inventories hold the message summaries of the DEADQ and every BOQ, keyed
	// by queue name, shared with earlier snapshots where unchanged.
	Inventories map[string]*Inventory
	// Deltas say what changed in each inventory since the previous snapshot, so
	// the model can fold incrementally. Resync means "rebuild from scratch".
	Deltas map[string]InventoryDelta
	// Heads hold the first messages of input queues whose head was browsed.
	Heads map[string][]Summary
	// Focus holds the queue the operator has open: its first messages and who
	// has it open.
	Focus *FocusView
	// ObjectErrs lists every object this poll's inquiries could not report
	// on, including those no row shows (a queue never seen before).
	ObjectErrs []ObjectError
	// Scan is set on a partial snapshot, published while the poll is still
	// reading an inventory (a first read, a re-read, a burst): that
	// inventory holds what was read so far, the rest is as the poll last
	// knew it, and the poll's own snapshot follows.
	Scan *ScanProgress

	Poll PollStats
}

// QueueView is one queue's attributes and, for local queues, its status.
type QueueView struct {
	Info      QueueInfo
	Status    QueueStatus
	HasStatus bool
	// Role says why the watcher looks at this queue.
	Role Role
	// Err is a failure reading this queue's messages (e.g. 2035 on browse);
	// the rest of the poll went on.
	Err error
	// InquireErr is set when this poll's DISPLAY QUEUE or DISPLAY QSTATUS
	// could not report on this queue (deleted while the command ran,
	// damaged, not authorised) though it reported on the others: the row
	// then shows the last good poll's figures and inventory, marked stale.
	InquireErr error
}

// Role classifies a queue for the dashboard.
type Role int

// Roles: an ordinary (input) queue, a backout queue named by some queue's
// BOQNAME, the dead-letter queue, a transmission queue, a non-local definition.
const (
	RoleInput Role = iota
	RoleBOQ
	RoleDeadQ
	RoleXmitQ
	RoleOther
)

func (r Role) String() string {
	return [...]string{"input", "boq", "deadq", "xmitq", "other"}[r]
}

// InventoryDelta is the change of one inventory between consecutive snapshots.
type InventoryDelta struct {
	Resync  bool      // the inventory was rebuilt: fold it from scratch
	Added   []Summary // appended at the tail
	Dropped []Summary // removed (head trimming or Forget)
}

// FocusView is the browsed head of the focused queue and its open handles.
type FocusView struct {
	Queue    string
	Messages []Summary
	More     bool // the queue has more messages than were browsed
	Handles  []Handle
	Err      error
}

// PollStats says what one poll cost the queue manager.
type PollStats struct {
	Duration time.Duration
	Calls    int
	Bytes    int64
	Resyncs  int
}
