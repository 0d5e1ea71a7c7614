package warroom

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// ErrViewer refuses an action to a viewer's session.
var ErrViewer = errors.New("viewer: actions and exports are for operators (role=operator in the authorized keys)")

// BusyError says another session is acting on the queue.
type BusyError struct {
	Queue string
	Who   Identity
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is acting on %s: one action at a time per queue; wait for the flash that says it ended",
		e.Who.User, e.Queue)
}

// Locks allows one action at a time per source queue across all sessions.
type Locks struct {
	mu   sync.Mutex
	held map[string]Identity
}

// NewLocks returns an empty lock table.
func NewLocks() *Locks { return &Locks{held: map[string]Identity{}} }

func lockKey(req ops.OpRequest) string { return req.QMgr + "/" + req.Queue }

// queueName names the source queue for people: "QM1.DEADQ (QM1)".
func queueName(req ops.OpRequest) string { return req.Queue + " (" + req.QMgr + ")" }

// acquire takes the queue's lock for who, or says who holds it.
func (l *Locks) acquire(req ops.OpRequest, who Identity) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.held[lockKey(req)]; ok {
		return &BusyError{Queue: queueName(req), Who: h}
	}
	l.held[lockKey(req)] = who
	return nil
}

// check says who holds the queue's lock, nil when nobody does.
func (l *Locks) check(req ops.OpRequest) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, ok := l.held[lockKey(req)]; ok {
		return &BusyError{Queue: queueName(req), Who: h}
	}
	return nil
}

func (l *Locks) release(req ops.OpRequest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.held, lockKey(req))
}

// SessionOps are one session's operations: the role is enforced here, below
// the ui, so a viewer's session cannot act whatever its screen offers.
// Operators' runs take the queue's lock, carry the SSH identity into the
// audit log and are announced to the room.
type SessionOps struct {
	// Engines are the engines for this role: viewers get read-only ones,
	// so even a request that got past the role check is refused.
	Engines ui.Operations
	Seat    *Seat
	Locks   *Locks
	// Files resolves the files requests name; nil refuses them all.
	Files Files
}

var _ ui.Operations = (*SessionOps)(nil)

// Fetch reads a message: every role may (the ui masks bodies for viewers).
func (o *SessionOps) Fetch(ctx context.Context, qmgr, queue string, s mqwatch.Summary) (mqwatch.Message, error) {
	return o.Engines.Fetch(ctx, qmgr, queue, s)
}

// Plan is the dry run; refused to viewers and while another session acts
// on the queue.
func (o *SessionOps) Plan(ctx context.Context, req ops.OpRequest) (ops.OpPlan, error) {
	if err := o.allowed(&req); err != nil {
		return ops.OpPlan{Request: req}, err
	}
	if err := o.Locks.check(req); err != nil {
		return ops.OpPlan{Request: req}, err
	}
	return o.Engines.Plan(ctx, req)
}

// Run runs the action under the queue's lock and tells the room when it
// starts and ends.
func (o *SessionOps) Run(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
	if err := o.allowed(&req); err != nil {
		return refused(req, err)
	}
	if req.DryRun {
		return o.Engines.Run(ctx, req, progress)
	}
	return o.acting(req, func(req ops.OpRequest, t *runTally) (ops.OpResult, error) {
		res, err := o.Engines.Run(ctx, req, progress)
		t.add(req.Op, res.Items)
		return res, err
	})
}

// acting runs do as one run of the session's operator on req's queue
// (req already allowed): under the queue's lock from before it starts to
// after it ends, announced to the room when it starts and once when it
// ends. do adds what each of its engine runs did to the tally.
func (o *SessionOps) acting(req ops.OpRequest, do func(ops.OpRequest, *runTally) (ops.OpResult, error)) (ops.OpResult, error) {
	who := o.Seat.Who()
	if err := o.Locks.acquire(req, who); err != nil {
		return refused(req, err)
	}
	defer o.Locks.release(req)
	room := o.Seat.room
	room.Announce(o.Seat.ID(), fmt.Sprintf("%s started: %s on %s", who.User, req.Op, queueName(req)), nil)
	t := runTally{}
	res, err := do(req, &t)
	// The journal tells the room what the run came to (Room.Tell); this
	// event, without words, tells the screens which messages left.
	room.AnnounceRun(o.Seat.ID(), "", &res, t.gone)
	return res, err
}

// refused is the result of a run refused before it started.
func refused(req ops.OpRequest, err error) (ops.OpResult, error) {
	return ops.OpResult{Plan: ops.OpPlan{Request: req}, Stopped: err.Error()}, err
}

// allowed refuses viewers and stamps the request with who acts.
func (o *SessionOps) allowed(req *ops.OpRequest) error {
	who := o.Seat.Who()
	if who.Role != Operator {
		return ErrViewer
	}
	req.User = AuditUser(who)
	if req.File == "" {
		return nil // a discard's archive in the server's own archive directory
	}
	files := o.Files
	if files == nil {
		files = confine.Denied{Why: noFilesServer}
	}
	p, err := files.Resolve(req.File)
	if err != nil {
		return err
	}
	req.File = p
	return nil
}

// AuditUser is how the audit log names an SSH session's user: the name it
// logged in with and the fingerprint of the key it proved.
func AuditUser(who Identity) string {
	return fmt.Sprintf("%s (ssh key %s)", who.User, who.Fingerprint)
}
