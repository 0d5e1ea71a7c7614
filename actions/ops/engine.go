package ops

import (
	"context"
	"github.com/poisonwatch/poisonwatch/incident/journal"

	"errors"
	"fmt"
	"github.com/poisonwatch/poisonwatch/actions"
	"os/user"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Defaults and bounds of an operator action.
const (
	// DefaultBatch is how many messages one unit of work moves.
	DefaultBatch = 100
	// MaxBatch keeps a batch inside IBM's default MAXUMSGS (10000): a moved
	// message costs the unit of work a get and a put.
	MaxBatch = 5000
	// DefaultWorkers is how many connections move batches in parallel.
	DefaultWorkers = 8
	// MaxWorkers bounds the connections one action opens.
	MaxWorkers = 16
	// MaxSelection bounds what All or a Filter selects in one plan, so that
	// a plan of a very deep queue stays within memory; run again for more.
	MaxSelection = 200_000
	// maxPendingBytes bounds the message data a replay or import batch holds
	// in memory before it commits.
	maxPendingBytes = 64 << 20
)

// ErrReadOnly is returned for any action that would change a queue while the
// engine is in read-only mode (war-room screens). Export and dry runs still
// work: they change nothing.
var ErrReadOnly = errors.New("read-only mode: actions that change queues are disabled")

// ErrContextAuthority is wrapped by a ContextAuthorityError.
var ErrContextAuthority = errors.New("not authorized to keep the original message context")

// ContextAuthorityError says that the user may put to Queue but not with the
// original context: the open needs setall authority (every action puts its copy from a browse)
// authority. Nothing was moved; --context default is the explicit way on.
type ContextAuthorityError struct {
	Queue string
	User  string
	Need  string // "setall"
	Err   error  // the MQOPEN failure (MQRC_NOT_AUTHORIZED)
}

func (e *ContextAuthorityError) Error() string {
	who := e.User
	if who == "" {
		who = "this user"
	}
	return fmt.Sprintf("%v: %s may put to %s but lacks %s authority, which keeping the original context "+
		"(user, application, put time, accounting token) needs; grant it (setmqaut -n %s -t queue -p <user> +%s) "+
		"or run again with --context default, which stamps the messages with your identity and the current time",
		e.Err, who, e.Queue, e.Need, e.Queue, e.Need)
}

// Unwrap lets errors.Is find ErrContextAuthority and the MQ reason code.
func (e *ContextAuthorityError) Unwrap() []error { return []error{ErrContextAuthority, e.Err} }

// EngineOptions configure an Engine.
type EngineOptions struct {
	// Connector opens the engine's connections: one per worker, one for
	// planning, one to check a commit whose outcome is unknown.
	Connector mqwatch.Connector
	// Conn is used when Connector is nil: every action then runs on this one
	// connection with one worker, and the engine never closes it. A broken
	// Conn stays broken.
	Conn mqwatch.Conn
	// Connect identifies the engine's connections to the queue manager.
	Connect mqwatch.ConnectOptions
	// QMgr, when set, is the queue manager the engine expects to reach; a
	// request for another one is refused.
	QMgr string
	// AuditPath is the audit log (JSON lines); DefaultAuditPath when empty.
	AuditPath string
	// ArchiveDir holds discard archives; DefaultArchiveDir when empty.
	ArchiveDir string
	// ReadOnly refuses every action that changes a queue.
	ReadOnly bool
	// Now is the clock for audit records, ages and progress; time.Now when nil.
	Now func() time.Time
	// User is the operating-system user written to the audit log; the
	// current user when empty.
	User string
	// Sleep waits for the rate limiter; a timer honouring ctx when nil.
	Sleep func(ctx context.Context, d time.Duration) error
	// ConsumerStyle says which consumer style gets from a queue, when the
	// caller knows it (the dashboard's scenarios, handle status); the plan's
	// next-hop prediction (R10f) assumes DefaultConsumerStyle otherwise.
	ConsumerStyle func(queue string) (actions.Style, bool)
	// Journal is where every act the engine carries out is written as it
	// ends (a run, what came back, an edit, a fix, an inhibit, a
	// definition); nil writes them to the audit log only.
	Journal *journal.Journal
}

// Engine runs operator actions (docs/poison-rules.md R10) over the port. It is safe
// for concurrent use; each Plan, Run and Fetch uses its own connections.
type Engine struct {
	opts EngineOptions
}

// NewEngine checks the options and fills the defaults.
func NewEngine(o EngineOptions) (*Engine, error) {
	if o.Connector == nil && o.Conn == nil {
		return nil, errors.New("actions engine: neither a Connector nor a Conn")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.User == "" {
		o.User = osUserName()
	}
	if o.AuditPath == "" {
		p, err := DefaultAuditPath()
		if err != nil {
			return nil, fmt.Errorf("actions engine: %w", err)
		}
		o.AuditPath = p
	}
	if o.ArchiveDir == "" {
		d, err := DefaultArchiveDir()
		if err != nil {
			return nil, fmt.Errorf("actions engine: %w", err)
		}
		o.ArchiveDir = d
	}
	return &Engine{opts: o}, nil
}

// ReadOnly reports whether the engine refuses changing actions.
func (e *Engine) ReadOnly() bool { return e.opts.ReadOnly }

// AuditPath returns the audit log the engine appends to.
func (e *Engine) AuditPath() string { return e.opts.AuditPath }

// opSession is one connection the engine uses; owned sessions are closed
// when done, a borrowed Conn never is.
type opSession struct {
	conn  mqwatch.Conn
	owned bool
}

func (e *Engine) connect(ctx context.Context) (*opSession, error) {
	if e.opts.Connector == nil {
		return &opSession{conn: e.opts.Conn}, nil
	}
	c, err := e.opts.Connector.Connect(ctx, e.opts.Connect)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return &opSession{conn: c, owned: true}, nil
}

func (s *opSession) close() {
	if s != nil && s.owned {
		_ = s.conn.Close()
	}
}

// canReconnect reports whether the engine can open further connections
// (parallel workers, checking a commit whose outcome is unknown).
func (e *Engine) canReconnect() bool { return e.opts.Connector != nil }

// user returns who the audit log names for a request.
func (e *Engine) user(req *OpRequest) string {
	if req.User != "" {
		return req.User
	}
	return e.opts.User
}

func osUserName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// changes reports whether op changes queues (and so is refused read-only).
func (op Op) changes() bool {
	switch op {
	case OpRequeue, OpMove, OpReplay, OpDiscard, OpImport:
		return true
	}
	return false
}

// valid reports whether op is one of the actions.
func (op Op) valid() bool { return op.changes() || op == OpExport }

// movesMessages reports whether op gets messages destructively from the
// source (the batched unit-of-work path of R10a).
func (op Op) movesMessages() bool {
	return op == OpRequeue || op == OpMove || op == OpDiscard
}
