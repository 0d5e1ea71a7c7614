package embedded

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// uow is a connection's unit of work: the messages it put and got under
// syncpoint since the last commit or backout.
type uow struct {
	ops []uowOp
}

// reuse keeps an ended unit of work's list for the next one: a batch's
// list made anew each time was garbage per message moved.
func (u *uow) reuse(ops []uowOp) {
	if u.ops == nil && cap(ops) <= 1<<14 {
		clear(ops)
		u.ops = ops[:0]
	}
}

type uowOp struct {
	q   *queue
	m   *message
	put bool
}

func (u *uow) active() bool { return len(u.ops) > 0 }

// Commit commits the connection's unit of work (MQCMIT): puts become
// available, gets are final.
func (c *conn) Commit(ctx context.Context) error {
	return c.endUOW(ctx, VerbCommit, "MQCMIT", c.qm.commitLocked)
}

// Backout backs out the unit of work (MQBACK): puts vanish, got messages go
// back to where they were with BackoutCount incremented.
func (c *conn) Backout(ctx context.Context) error {
	return c.endUOW(ctx, VerbBackout, "MQBACK", c.qm.backoutLocked)
}

// endUOW runs one of the calls that end a unit of work, accounted under
// verb, with finish applied under the queue manager's lock.
func (c *conn) endUOW(ctx context.Context, verb, call string, finish func(*conn)) error {
	end, err := c.begin(ctx, verb, call, "")
	if err != nil {
		return err
	}
	qm := c.qm
	qm.mu.Lock()
	if rc := c.stateLocked(); rc != 0 {
		qm.mu.Unlock()
		err = mqwatch.NewError(call, "", rc)
		end(err, 0)
		return err
	}
	finish(c)
	qm.mu.Unlock()
	end(nil, 0)
	return nil
}

func (qm *QMgr) commitLocked(c *conn) {
	ops := c.uow.ops
	c.uow.ops = nil
	defer c.uow.reuse(ops)
	for _, op := range ops {
		m, s := op.m, op.q.store
		if m.owner != &c.uow {
			continue // the queue was deleted under the unit of work
		}
		if op.put {
			m.state, m.owner = stVisible, nil
			s.uncommitted--
			qm.becameVisible(op.q, m)
		} else {
			s.remove(m)
		}
	}
}

func (qm *QMgr) backoutLocked(c *conn) {
	ops := c.uow.ops
	c.uow.ops = nil
	defer c.uow.reuse(ops)
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		m, s := op.m, op.q.store
		if m.owner != &c.uow {
			continue
		}
		if op.put {
			s.remove(m)
			continue
		}
		// The message returns to its old place; the queue manager counts the
		// backout in the message itself (MQMD BackoutCount).
		m.state, m.owner = stVisible, nil
		m.md.BackoutCount++
		s.uncommitted--
		s.depth++
		qm.becameVisible(op.q, m)
	}
}

// becameVisible runs when m becomes available on q (a put, a commit of a put, a
// backout of a get): it wakes waiters, lets a marking browser see it again if
// it lies behind the browser's scan position, and wakes channel agents when q
// is a transmission queue.
func (qm *QMgr) becameVisible(q *queue, m *message) {
	q.wake()
	for h := range q.handles {
		h.noteVisible(m)
	}
	if q.attrs.Usage == mqwatch.UsageXmitQ {
		close(qm.xmitWake)
		qm.xmitWake = make(chan struct{})
	}
}

// addOp records a syncpoint put or get, enforcing MAXUMSGS (2024).
func (qm *QMgr) checkUOWRoom(c *conn) mqfmt.Reason {
	if int32(len(c.uow.ops)) >= qm.attrs.maxUMsgs {
		return rcSyncpointLimitReached
	}
	return 0
}
