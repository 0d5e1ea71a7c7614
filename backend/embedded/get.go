package embedded

import (
	"context"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Browse reads a message without removing it (MQGET with BROWSE_FIRST or
// BROWSE_NEXT, or with MQGMO_BROWSE_HANDLE when Unmarked). Data is cut at
// MaxBytes (ACCEPT_TRUNCATED_MSG: Message.Length keeps the full length and
// the truncation is not an error, as MQRC_TRUNCATED_MSG_ACCEPTED is a warning).
func (h *handle) Browse(ctx context.Context, opts mqwatch.BrowseOptions) (mqwatch.Message, error) {
	end, err := h.c.begin(ctx, VerbBrowse, "MQGET", h.objectName())
	if err != nil {
		return mqwatch.Message{}, err
	}
	msg, err := h.c.qm.waitLoop(ctx, h, opts.Wait, func() (mqwatch.Message, mqfmt.Reason) {
		return h.c.qm.browseOnce(h, opts)
	})
	end(err, len(msg.Data))
	return msg, err
}

// Get removes a message (destructive MQGET), under syncpoint when asked: the
// message is then locked in place until commit or backout.
func (h *handle) Get(ctx context.Context, opts mqwatch.GetOptions) (mqwatch.Message, error) {
	end, err := h.c.begin(ctx, VerbGet, "MQGET", h.objectName())
	if err != nil {
		return mqwatch.Message{}, err
	}
	msg, err := h.c.qm.waitLoop(ctx, h, opts.Wait, func() (mqwatch.Message, mqfmt.Reason) {
		return h.c.qm.getOnce(h, opts)
	})
	end(err, len(msg.Data))
	return msg, err
}

// waitLoop runs try under the lock until it finds a message, fails with
// something other than 2033, the wait interval ends (2033), the context ends,
// or the connection breaks (2009).
func (qm *QMgr) waitLoop(ctx context.Context, h *handle, wait time.Duration, try func() (mqwatch.Message, mqfmt.Reason)) (mqwatch.Message, error) {
	var deadline <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		deadline = t.C
	}
	for {
		qm.mu.Lock()
		msg, rc := try()
		if rc == 0 {
			qm.mu.Unlock()
			return msg, nil
		}
		var notify chan struct{}
		waitq := h.q
		if waitq != nil && rc == mqfmt.RCNoMsgAvailable && deadline != nil {
			notify = waitq.notify
			waitq.waiters++
		}
		qm.mu.Unlock()
		if rc == mqfmt.RCTruncatedMsgFailed {
			return msg, mqwatch.NewError("MQGET", h.objectName(), rc)
		}
		if rc != mqfmt.RCNoMsgAvailable || deadline == nil || notify == nil {
			return mqwatch.Message{}, mqwatch.NewError("MQGET", h.objectName(), rc)
		}
		var ctxErr error
		select {
		case <-notify:
		case <-deadline:
			deadline = nil // one last look, then 2033
		case <-h.c.brokenCh:
		case <-ctx.Done():
			ctxErr = ctx.Err()
		}
		qm.mu.Lock()
		waitq.waiters--
		qm.mu.Unlock()
		if ctxErr != nil {
			return mqwatch.Message{}, fmt.Errorf("MQGET %s: wait: %w", h.objectName(), ctxErr)
		}
	}
}

// readable is the common check for browse and get.
func (h *handle) readable(browse bool) mqfmt.Reason {
	if rc := h.check(); rc != 0 {
		return rc
	}
	if browse && !h.opts.Browse {
		return mqfmt.RCNotOpenForBrowse
	}
	if !browse && !h.opts.Input {
		return mqfmt.RCNotOpenForInput
	}
	if h.kind != hkLocal {
		return rcObjectTypeError
	}
	if h.q.attrs.GetInhibited || (h.obj != nil && h.obj.attrs.GetInhibited) {
		return mqfmt.RCGetInhibited
	}
	return 0
}

func (qm *QMgr) browseOnce(h *handle, opts mqwatch.BrowseOptions) (mqwatch.Message, mqfmt.Reason) {
	if rc := h.readable(true); rc != 0 {
		return mqwatch.Message{}, rc
	}
	var m *message
	switch {
	case opts.Unmarked:
		m = qm.nextUnmarked(h)
	case opts.MsgId != nil:
		m = qm.browseMatch(h, opts)
	default:
		from := (*message)(nil)
		if !opts.First {
			from = h.cursor
		}
		for m = qm.nextVisible(h.q, from); m != nil && !matchRest(m, opts.CorrelId, opts.Segment); {
			m = qm.nextVisible(h.q, m)
		}
	}
	if m == nil {
		return mqwatch.Message{}, mqfmt.RCNoMsgAvailable
	}
	h.setCursor(m)
	h.saved = nil // the last successful MQGET is now a browse: no context to pass
	if opts.Unmarked {
		h.mark(m)
	}
	return qm.copyOut(m, opts.MaxBytes), 0
}

func (qm *QMgr) getOnce(h *handle, opts mqwatch.GetOptions) (mqwatch.Message, mqfmt.Reason) {
	if rc := h.readable(false); rc != 0 {
		return mqwatch.Message{}, rc
	}
	if opts.UnderCursor && !h.opts.Browse {
		return mqwatch.Message{}, mqfmt.RCNotOpenForBrowse
	}
	m, rc := qm.findForGet(h, opts)
	if rc != 0 {
		return mqwatch.Message{}, rc
	}
	out := qm.copyOut(m, opts.MaxBytes)
	if out.Truncated() && !opts.AcceptTruncated {
		// MQRC_TRUNCATED_MSG_FAILED: the message stays; the caller sees how
		// long it is.
		return out, mqfmt.RCTruncatedMsgFailed
	}
	if opts.Syncpoint {
		if rc := qm.checkUOWRoom(h.c); rc != 0 {
			return mqwatch.Message{}, rc
		}
		h.q.store.lock(m, &h.c.uow)
		h.c.uow.ops = append(h.c.uow.ops, uowOp{q: h.q, m: m})
	} else {
		h.q.store.remove(m)
	}
	h.q.lastGet = qm.now()
	if h.opts.SaveAllContext {
		md := m.md
		h.saved = &md
	}
	return out, 0
}

// browseMatch finds, through the MsgId index, the first visible message with
// the MsgId (and CorrelId when given) at or after the start of the browse:
// the head with First, else just after the cursor.
func (qm *QMgr) browseMatch(h *handle, opts mqwatch.BrowseOptions) *message {
	var best *message
	for m := h.q.store.byID[*opts.MsgId]; m != nil; {
		next := m.idNext
		if m.state == stVisible && matchRest(m, opts.CorrelId, opts.Segment) &&
			(opts.First || h.cursor == nil || h.cursor.before(m)) &&
			!qm.expireIfDue(h.q, m) && (best == nil || m.before(best)) {
			best = m
		}
		m = next
	}
	return best
}

// findForGet picks the message a destructive get takes: the one under the
// browse cursor, the first with the MsgId (through the index) and CorrelId,
// or the first available.
func (qm *QMgr) findForGet(h *handle, opts mqwatch.GetOptions) (*message, mqfmt.Reason) {
	s := h.q.store
	switch {
	case opts.UnderCursor:
		m := h.cursor
		if m == nil || m.state != stVisible || qm.expireIfDue(h.q, m) {
			return nil, mqfmt.RCNoMsgUnderCursor
		}
		return m, 0
	case opts.MsgId != nil:
		var best *message
		for m := s.byID[*opts.MsgId]; m != nil; {
			next := m.idNext
			if m.state == stVisible && matchRest(m, opts.CorrelId, opts.Segment) &&
				!qm.expireIfDue(h.q, m) && (best == nil || m.before(best)) {
				best = m
			}
			m = next
		}
		if best == nil {
			return nil, mqfmt.RCNoMsgAvailable
		}
		return best, 0
	}
	for m := qm.nextVisible(h.q, nil); m != nil; m = qm.nextVisible(h.q, m) {
		if matchRest(m, opts.CorrelId, opts.Segment) {
			return m, 0
		}
	}
	return nil, mqfmt.RCNoMsgAvailable
}

// matchRest applies the match options other than MsgId. MatchOptions are
// ignored under the browse cursor (IBM), so callers never pass them there.
// A CorrelId of MQCI_NONE matches any, as IBM's does.
func matchRest(m *message, correlID *[24]byte, seg *mqwatch.SegmentMatch) bool {
	return (correlID == nil || *correlID == [24]byte{} || m.md.CorrelId == *correlID) && seg.Matches(&m.md)
}

// nextVisible returns the first available message after from (from the head
// when from is nil), discarding expired messages it passes, as IBM MQ removes
// an expired message when a get or browse reaches it.
func (qm *QMgr) nextVisible(q *queue, from *message) *message {
	s := q.store
	m := s.first()
	if from != nil {
		m = s.after(from)
	}
	for m != nil {
		next := s.after(m)
		if m.state == stVisible && !qm.expireIfDue(q, m) {
			return m
		}
		m = next
	}
	return nil
}

// expireIfDue removes m if its expiry has passed and reports whether it did.
// The next message is read before the call by callers that walk on.
func (qm *QMgr) expireIfDue(q *queue, m *message) bool {
	if m.expireAt.IsZero() || qm.now().Before(m.expireAt) {
		return false
	}
	if m.state == stVisible {
		q.store.remove(m)
	}
	return true
}

// copyOut returns the message as MQGET hands it over: Expiry counts down the
// time spent on the queue (in tenths of a second), data is cut at maxBytes.
func (qm *QMgr) copyOut(m *message, maxBytes int) mqwatch.Message {
	md := m.md
	if !m.expireAt.IsZero() {
		left := m.expireAt.Sub(qm.now()) / (100 * time.Millisecond)
		md.Expiry = max(int32(left), 1)
	}
	data := m.data
	if maxBytes > 0 && len(data) > maxBytes {
		data = data[:maxBytes]
	}
	return mqwatch.Message{MD: md, Data: append([]byte(nil), data...), Length: len(m.data)}
}

// setCursor moves the browse cursor, keeping its message linked.
func (h *handle) setCursor(m *message) {
	s := h.q.store
	s.pin(m)
	s.unpin(h.cursor)
	h.cursor = m
}
