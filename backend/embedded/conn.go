package embedded

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// conn is one connection (hconn). Its fields other than busy are guarded by
// the queue manager's mutex.
type conn struct {
	qm       *QMgr
	user     string // authority principal; "" = the process user, an administrator
	identity string // UserIdentifier put in messages
	applName string
	pid      int
	idHex    string
	busy     atomic.Bool
	closed   bool
	broken   bool
	brokenCh chan struct{}
	handles  map[*handle]struct{}
	uow      uow
	async    mqwatch.AsyncStatus // asynchronous puts since the last MQSTAT
	// callVerb is the accounting verb of the call in progress and finish
	// the done that records it: both are set while busy is held, so a call
	// needs no closure of its own (one per MQI call was garbage per message
	// moved).
	callVerb string
	finish   done
}

var _ mqwatch.Conn = (*conn)(nil)

// firstPID is the first fake process id handed to connections: every
// connection of the embedded queue manager lives in this one process, so a
// distinct stable number per connection stands in for the PID that DISPLAY
// QSTATUS TYPE(HANDLE) would show for separate applications.
const firstPID = 20000

// Connect opens a connection (MQCONNX). The user needs connect authority on
// the queue manager.
func (qm *QMgr) Connect(ctx context.Context, opts mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("MQCONNX %s: %w", qm.name, err)
	}
	a := qm.faults.match(VerbConnect, qm.name, "")
	if err := a.wait(ctx); err != nil {
		qm.stats.record(VerbConnect, true, 0)
		return nil, fmt.Errorf("MQCONNX %s: %w", qm.name, err)
	}
	fail := func(rc mqfmt.Reason) (mqwatch.Conn, error) {
		qm.stats.record(VerbConnect, true, 0)
		return nil, mqwatch.NewError("MQCONNX", qm.name, rc)
	}
	if a.rc != 0 {
		return fail(a.rc)
	}
	if a.brk {
		return fail(mqfmt.RCQMgrNotAvailable)
	}
	qm.mu.Lock()
	defer qm.mu.Unlock()
	if qm.stopped {
		return fail(mqfmt.RCQMgrNotAvailable)
	}
	if !qm.auth.check(opts.User, otQMgr, qm.name, authConnect) {
		return fail(mqfmt.RCNotAuthorized)
	}
	c := &conn{
		qm:       qm,
		user:     opts.User,
		identity: opts.User,
		applName: opts.ApplName,
		brokenCh: make(chan struct{}),
		handles:  map[*handle]struct{}{},
	}
	if c.identity == "" {
		c.identity = qm.opts.ProcessUser
	}
	if c.applName == "" {
		c.applName = qm.opts.ProgramName
	}
	id := qm.nextConnId()
	c.idHex = strings.ToUpper(hex.EncodeToString(id[:])) // as DISPLAY CONN shows it
	c.pid = firstPID + int(qm.connSerial)
	qm.conns[c] = struct{}{}
	qm.stats.record(VerbConnect, false, 0)
	return c, nil
}

// done finishes a call: it records the outcome and frees the connection for
// the next call.
type done func(err error, bytes int)

// begin starts a call on c: one call at a time per connection (2219 otherwise),
// then the connection's state, then injected faults. errVerb is IBM's verb for
// the error; statVerb the accounting verb.
func (c *conn) begin(ctx context.Context, statVerb, errVerb, object string) (done, error) {
	return c.beginCall(ctx, statVerb, errVerb, object, false)
}

// beginCall is begin; async calls (MQPMO_ASYNC_RESPONSE) do not wait for the
// injected round-trip latency, as a client does not wait for the reply.
func (c *conn) beginCall(ctx context.Context, statVerb, errVerb, object string, async bool) (done, error) {
	qm := c.qm
	if !c.busy.CompareAndSwap(false, true) {
		qm.stats.record(statVerb, true, 0)
		return nil, mqwatch.NewError(errVerb, object, mqfmt.RCCallInProgress)
	}
	c.callVerb = statVerb
	if c.finish == nil {
		c.finish = c.finishCall
	}
	finish := c.finish
	fail := func(err error) (done, error) {
		finish(err, 0)
		return nil, err
	}
	if rc := c.state(); rc != 0 {
		return fail(mqwatch.NewError(errVerb, object, rc))
	}
	if err := ctx.Err(); err != nil {
		return fail(fmt.Errorf("%s %s: %w", errVerb, object, err))
	}
	a := qm.faults.match(statVerb, object, c.idHex)
	if async {
		a.latency = 0
	}
	if err := a.wait(ctx); err != nil {
		return fail(fmt.Errorf("%s %s: %w", errVerb, object, err))
	}
	if a.brk {
		qm.mu.Lock()
		qm.breakConn(c)
		qm.mu.Unlock()
		return fail(mqwatch.NewError(errVerb, object, mqfmt.RCConnectionBroken))
	}
	if a.rc != 0 {
		return fail(mqwatch.NewError(errVerb, object, a.rc))
	}
	return finish, nil
}

// finishCall ends the call in progress: its accounting, then the
// connection is free for the next.
func (c *conn) finishCall(err error, bytes int) {
	c.qm.stats.record(c.callVerb, err != nil, bytes)
	c.busy.Store(false)
}

// state returns 2018 for a closed connection, 2009 for a broken one.
func (c *conn) state() mqfmt.Reason {
	c.qm.mu.Lock()
	defer c.qm.mu.Unlock()
	return c.stateLocked()
}

func (c *conn) stateLocked() mqfmt.Reason {
	switch {
	case c.broken:
		return mqfmt.RCConnectionBroken
	case c.closed:
		return mqfmt.RCHconnError
	}
	return 0
}

// Close disconnects (MQDISC): the open unit of work is backed out and every
// handle closed, deleting temporary dynamic queues.
func (c *conn) Close() error {
	qm := c.qm
	if !c.busy.CompareAndSwap(false, true) {
		qm.stats.record(VerbDisconnect, true, 0)
		return mqwatch.NewError("MQDISC", "", mqfmt.RCCallInProgress)
	}
	defer c.busy.Store(false)
	qm.mu.Lock()
	defer qm.mu.Unlock()
	if rc := c.stateLocked(); rc != 0 {
		c.closed = true
		qm.stats.record(VerbDisconnect, true, 0)
		return mqwatch.NewError("MQDISC", "", rc)
	}
	qm.endConn(c)
	c.closed = true
	qm.stats.record(VerbDisconnect, false, 0)
	return nil
}

// endConn backs out c's unit of work and closes its handles. Caller holds mu.
func (qm *QMgr) endConn(c *conn) {
	qm.backoutLocked(c)
	for h := range c.handles {
		qm.closeHandle(h)
	}
	delete(qm.conns, c)
}

// breakConn breaks c as a lost client connection breaks: the queue manager
// backs out its unit of work and releases its handles; every later call fails
// with 2009. Caller holds mu.
func (qm *QMgr) breakConn(c *conn) {
	if c.broken || c.closed {
		return
	}
	qm.endConn(c)
	c.broken = true
	close(c.brokenCh)
}

// Break breaks connection c now (see Fault.Break). Calls waiting for a message
// on it end with 2009.
func (qm *QMgr) Break(c mqwatch.Conn) error {
	cc, ok := c.(*conn)
	if !ok || cc.qm != qm {
		return fmt.Errorf("embedded: break: connection %T does not belong to %s", c, qm.name)
	}
	qm.mu.Lock()
	qm.breakConn(cc)
	qm.mu.Unlock()
	return nil
}

// BreakAll breaks every connection, as a queue manager restart would.
func (qm *QMgr) BreakAll() {
	qm.mu.Lock()
	defer qm.mu.Unlock()
	for c := range qm.conns {
		qm.breakConn(c)
	}
}
