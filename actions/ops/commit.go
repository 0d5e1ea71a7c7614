package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// settle records a batch's outcome, its audit lines written before the
// commit, and keeps or cuts its archive records.
func (r *opRun) settle(got []opGot, state doubtState) {
	idxs := make([]int, len(got))
	tgs := make([]opTarget, len(got))
	for i := range got {
		idxs[i], tgs[i] = got[i].idx, got[i].target
	}
	if r.archive != nil {
		if err := r.archive.settle(state != doubtBackedOut, len(got)); err != nil {
			r.setStop(err.Error(), err)
		}
	}
	if state != doubtBackedOut && r.req.Op == OpReplay {
		for i := range got {
			r.items[got[i].idx].CopyMsgId = got[i].putMD.MsgId
		}
	}
	switch state {
	case doubtCommitted:
		// The batch's pending lines are followed by its outcome.
		r.record(idxs, Done, "", 0, tgs)
	case doubtUnknown:
		r.record(idxs, InDoubt, "", mqfmt.RCConnectionBroken, tgs)
	default:
		// Backed out: the messages are where they were; the run reports
		// them as not done, and the log says so after its lines written
		// ahead.
		r.auditRetract(got)
	}
}

// doubtState is what checking after a failed commit found.
type doubtState int

const (
	doubtUnknown doubtState = iota
	doubtCommitted
	doubtBackedOut
)

// resolve finds out whether a batch whose MQCMIT failed was committed: for a
// move, any of its messages still on the source means backed out (the unit
// of work is atomic); any of them on a target means committed. A batch of
// copies (replay, import) can only be found committed: its absence from the
// target may also mean that a consumer took the copies already. A broken client
// connection's unit of work is backed out once the queue manager notices,
// so the check is repeated briefly before the outcome is left unknown.
func (r *opRun) resolve(ctx context.Context, got []opGot) (doubtState, string) {
	if !r.e.canReconnect() {
		return doubtUnknown, "no second connection to check it with"
	}
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for _, d := range []time.Duration{0, 200 * time.Millisecond, time.Second} {
		if d > 0 {
			_ = r.e.opts.Sleep(ctx, d)
		}
		st, how, err := r.checkOnce(ctx, got)
		if err == nil && st != doubtUnknown {
			return st, how
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return doubtUnknown, "checking failed: " + errors.Join(errs...).Error()
	}
	return doubtUnknown, "its messages are on neither the source nor a target that can be browsed"
}

func (r *opRun) checkOnce(ctx context.Context, got []opGot) (doubtState, string, error) {
	sess, err := r.e.connect(ctx)
	if err != nil {
		return doubtUnknown, "", err
	}
	defer sess.close()
	if r.req.Op.movesMessages() {
		for i := range got {
			found, err := findExact(ctx, sess.conn, r.req.Queue, identityOfMD(&got[i].msg.MD), false, got[i].msg.Data)
			if err != nil {
				return doubtUnknown, "", err
			}
			if found {
				// An identical twin (same MsgId, CorrelId, put time, group
				// position and data) may be what is left on the source:
				// when the target has the message too, the outcome stays in
				// doubt. (A discard has no target to check; see the
				// README's limits on twins.)
				if tg := got[i].target; tg.queue != "" && tg.qmgr == "" {
					onTarget, err := findExact(ctx, sess.conn, tg.queue, identityOfMD(&got[i].putMD), r.req.Context == ContextDefault, got[i].data)
					if err != nil || onTarget {
						return doubtUnknown, "", err
					}
				}
				return doubtBackedOut, "its messages are still on " + r.req.Queue, nil
			}
		}
	}
	for i := range got {
		tg := got[i].target
		if tg.queue == "" || tg.qmgr != "" {
			continue // a remote target's messages may already have left its transmission queue
		}
		// With the context passed the put time is the original's, so it must
		// match too: an older message with the same ids is not proof.
		found, err := findExact(ctx, sess.conn, tg.queue, identityOfMD(&got[i].putMD), r.req.Context == ContextDefault, got[i].data)
		if err != nil {
			return doubtUnknown, "", err
		}
		if found {
			return doubtCommitted, "its messages are on " + tg.queue, nil
		}
	}
	return doubtUnknown, "", nil
}

// findExact looks for a message on queue by MsgId and CorrelId and, unless
// anyTime (a put with default context gets a new put time), its put time,
// and its data when data is not nil: twins differ in nothing else.
func findExact(ctx context.Context, conn mqwatch.Conn, queue string, id msgIdentity, anyTime bool, data []byte) (bool, error) {
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return false, fmt.Errorf("check %s: %w", queue, err)
	}
	defer q.Close(ctx)
	opts := mqwatch.BrowseOptions{First: true, MsgId: &id.msgID, MaxBytes: 1}
	if data != nil {
		opts.MaxBytes = 0
	}
	if id.correlID != ([24]byte{}) {
		opts.CorrelId = &id.correlID
	}
	for {
		m, err := q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("check %s: %w", queue, err)
		}
		if (anyTime || identityOfMD(&m.MD) == id) && (data == nil || bytes.Equal(m.Data, data)) {
			return true, nil
		}
		opts.First = false
	}
}
