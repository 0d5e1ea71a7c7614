package ops

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opUOW is one connection's unit of work as a batch uses it: the one place
// that backs out and commits, for moves and for copies alike.
type opUOW struct {
	r    *opRun
	conn mqwatch.Conn
	// dead is set when MQBACK failed: the unit of work may still hold the
	// batch, so this connection must never commit again.
	dead bool
	// lost is MQBACK's error when it failed because the connection is
	// gone: the queue manager backs the unit of work out.
	lost error
}

// isDead reports whether the connection can take no more batches, and
// stops the run for a lost connection if nothing else stopped it yet.
func (u *opUOW) isDead() bool {
	if u.dead && u.lost != nil {
		u.r.stopFor("MQBACK", u.lost)
	}
	return u.dead
}

// backout backs the unit of work out; it is not cancelled with the run, so a
// cancellation still backs out the batch in flight. When MQBACK itself fails
// the unit of work may still hold gets and puts: a later commit on this
// connection would make half a batch final (or put a copy twice), so the
// connection commits nothing more and the run says why.
func (u *opUOW) backout(ctx context.Context) {
	err := u.conn.Backout(context.WithoutCancel(ctx))
	if err == nil || u.dead {
		return
	}
	u.dead = true
	if connectionLost(err) {
		// The queue manager backs out a lost connection's unit of work:
		// nothing of the batch in flight is done, and nothing is in doubt.
		// The caller says why the batch stopped; isDead says it if not.
		u.lost = err
		return
	}
	u.r.setStop("MQBACK failed, so the batch in flight is in doubt and nothing more is committed on that connection", err)
}

// putCopy puts g's copy to its target under the unit of work, keeping the
// MQMD as put. When the put fails the unit of work is backed out (puts
// only: nothing is got before every copy is put) and the result says
// whether the batch goes on without the message or the run stops.
func (u *opUOW) putCopy(ctx context.Context, open func(context.Context, opTarget) (mqwatch.Queue, error), g *opGot, o mqwatch.PutOptions) oneResult {
	// Put through g.putMD, not a copy of g.md: MQPUT writes the MsgId and
	// context into it, and a local passed to the interface would be a
	// heap copy per message. A failed put leaves g.putMD as it was.
	was := g.putMD
	g.putMD = g.md
	q, err := open(ctx, g.target)
	if err == nil {
		err = gatePut(ctx, q, &g.putMD, g.data, o)
	}
	if err != nil {
		g.putMD = was
		res := u.r.putFailed(g.idx, g.target, err, true)
		u.backout(ctx)
		return res
	}
	return oneOK
}

// commit commits a batch and records its outcome. The outcome of a failed
// MQCMIT is unknown (a client whose connection broke during the call cannot
// tell): what may still be open is backed out, then the queues are looked at
// from a new connection. It reports whether the batch was committed.
func (u *opUOW) commit(ctx context.Context, got []opGot) bool {
	r := u.r
	err := u.conn.Commit(context.WithoutCancel(ctx))
	if err == nil {
		r.settle(got, doubtCommitted)
		return true
	}
	u.backout(ctx)
	state, how := r.resolve(ctx, got)
	r.settle(got, state)
	var msg string
	switch state {
	case doubtCommitted:
		msg = fmt.Sprintf("MQCMIT reported a failure, but the batch of %d was committed (%s)", len(got), how)
	case doubtBackedOut:
		msg = fmt.Sprintf("MQCMIT failed and the batch of %d was backed out (%s)", len(got), how)
	default:
		msg = fmt.Sprintf("MQCMIT failed and the outcome of the batch of %d is unknown (%s): the unit of work is atomic, so all of it was done or none", len(got), how)
	}
	r.setStop(msg, err)
	return state == doubtCommitted
}
