package embedded

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// VerbStat is MQSTAT, for accounting and fault injection.
const VerbStat = "MQSTAT"

// connReason reports whether rc is about the connection itself: such a
// failure is returned by the call even for an asynchronous put, since the
// client cannot send it.
func connReason(rc mqfmt.Reason) bool {
	return rc == mqfmt.RCConnectionBroken || rc == mqfmt.RCHconnError || rc == mqfmt.RCCallInProgress
}

// noteAsync counts an asynchronous put's outcome (rc 0: success) as MQSTAT
// will report it: the first failure is kept, and replaces a first warning.
// Caller holds the queue manager's mutex.
func (c *conn) noteAsync(object string, rc mqfmt.Reason) {
	s := &c.async
	switch {
	case rc == 0:
		s.Succeeded++
		return
	case rc == rcPriorityExceedsMaximum: // MQCC_WARNING: the message was put
		s.Warnings++
		if s.Reason == 0 {
			s.Reason, s.Object = rc, object
		}
		return
	}
	s.Failed++
	if s.Failed == 1 {
		s.Reason, s.Object = rc, object
	}
}

// AsyncStatus is MQSTAT(MQSTAT_TYPE_ASYNC_ERROR): the outcome of the
// asynchronous puts since the last call, which it resets.
func (c *conn) AsyncStatus(ctx context.Context) (mqwatch.AsyncStatus, error) {
	end, err := c.begin(ctx, VerbStat, "MQSTAT", "")
	if err != nil {
		return mqwatch.AsyncStatus{}, err
	}
	c.qm.mu.Lock()
	s := c.async
	c.async = mqwatch.AsyncStatus{}
	c.qm.mu.Unlock()
	end(nil, 0)
	return s, nil
}
