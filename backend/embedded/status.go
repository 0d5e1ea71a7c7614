package embedded

import (
	"context"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Platform and command level reported by QMgr: a Linux queue manager at
// IBM MQ 9.4 (MQPL_UNIX, CMDLEVEL 940).
const (
	platform     = "UNIX"
	commandLevel = 940
)

// QMgr returns the queue manager's facts, as MQINQ on the queue manager object
// does; it needs inquire authority on the queue manager.
func (c *conn) QMgr(ctx context.Context) (mqwatch.QMgrInfo, error) {
	qm := c.qm
	end, err := c.begin(ctx, VerbInquireQMgr, "MQINQ", qm.name)
	if err != nil {
		return mqwatch.QMgrInfo{}, err
	}
	qm.mu.Lock()
	rc := c.stateLocked()
	if rc == 0 && !qm.auth.check(c.user, otQMgr, qm.name, authInq) {
		rc = mqfmt.RCNotAuthorized
	}
	info := mqwatch.QMgrInfo{Name: qm.name, DeadQ: qm.attrs.deadQ, MaxMsgLen: qm.attrs.maxMsgLen,
		CommandLevel: commandLevel, Platform: platform}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("MQINQ", qm.name, rc)
		end(err, 0)
		return mqwatch.QMgrInfo{}, err
	}
	end(nil, 0)
	return info, nil
}

// visibleQueues returns the queues matching pattern that user may display, in
// name order. A specific (non-generic) name the user may not display fails
// with 2035; with a generic name such queues are left out, as the command
// server does. An unknown specific name fails with 2085.
func (qm *QMgr) visibleQueues(user, pattern string, localOnly bool) ([]*queue, mqfmt.Reason) {
	generic := strings.HasSuffix(pattern, "*")
	var out []*queue
	for _, q := range qm.queues {
		if !matchGeneric(pattern, q.name) || (localOnly && q.typ != mqwatch.QLocal) {
			continue
		}
		if !qm.auth.check(user, otQueue, q.name, authDsp) {
			if !generic {
				return nil, mqfmt.RCNotAuthorized
			}
			continue
		}
		out = append(out, q)
	}
	if len(out) == 0 && !generic {
		return nil, mqfmt.RCUnknownObjectName
	}
	slices.SortFunc(out, func(a, b *queue) int { return strings.Compare(a.name, b.name) })
	return out, 0
}

// Queues lists queues and their attributes (DISPLAY QUEUE / PCF Inquire Queue).
func (c *conn) Queues(ctx context.Context, pattern string) ([]mqwatch.QueueInfo, error) {
	qm := c.qm
	end, err := c.begin(ctx, VerbInquireQueue, "INQUIRE_Q", pattern)
	if err != nil {
		return nil, err
	}
	qm.mu.Lock()
	rc := c.stateLocked()
	var out []mqwatch.QueueInfo
	if rc == 0 {
		var qs []*queue
		qs, rc = qm.visibleQueues(c.user, pattern, false)
		for _, q := range qs {
			out = append(out, q.info())
		}
	}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("INQUIRE_Q", pattern, rc)
	}
	end(err, 0)
	return out, err
}

// QueueStatus returns local queues' status (DISPLAY QSTATUS TYPE(QUEUE)).
func (c *conn) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	qm := c.qm
	end, err := c.begin(ctx, VerbQueueStatus, "INQUIRE_Q_STATUS", pattern)
	if err != nil {
		return nil, err
	}
	qm.mu.Lock()
	rc := c.stateLocked()
	var out []mqwatch.QueueStatus
	if rc == 0 {
		var qs []*queue
		qs, rc = qm.visibleQueues(c.user, pattern, true)
		for _, q := range qs {
			out = append(out, qm.status(q))
		}
	}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("INQUIRE_Q_STATUS", pattern, rc)
	}
	end(err, 0)
	return out, err
}

// monitored tells whether q keeps the figures that need queue monitoring:
// the queue's MONQ, or the queue manager's when the queue says QMGR; the queue
// manager's MONQ(NONE) turns it off everywhere.
func (qm *QMgr) monitored(q *queue) bool {
	if qm.attrs.monQ == qmMonNone {
		return false
	}
	switch q.attrs.Monitoring {
	case mqwatch.MonOff:
		return false
	case mqwatch.MonQMgr:
		return qm.attrs.monQ != qmMonOff
	}
	return true
}

func (qm *QMgr) status(q *queue) mqwatch.QueueStatus {
	s := mqwatch.QueueStatus{
		Name:        q.name,
		Depth:       int32(q.store.depth),
		Uncommitted: int32(q.store.uncommitted),
	}
	for h := range q.handles {
		if h.opts.Input {
			s.OpenInput++
		}
		if h.opts.Output {
			s.OpenOutput++
		}
	}
	if !qm.monitored(q) {
		return s
	}
	s.Monitored = true
	s.LastPut, s.LastGet = q.lastPut, q.lastGet
	if s.Depth > 0 {
		if m := q.store.oldest(); m != nil {
			s.OldestAge = qm.now().Sub(m.enq)
		}
	}
	return s
}

// Handles returns the handles open on local queues matching queue (DISPLAY
// QSTATUS TYPE(HANDLE)); handles opened through an alias or a remote queue
// definition show under the queue they resolved to.
func (c *conn) Handles(ctx context.Context, name string) ([]mqwatch.Handle, error) {
	qm := c.qm
	end, err := c.begin(ctx, VerbHandleStatus, "INQUIRE_Q_STATUS", name)
	if err != nil {
		return nil, err
	}
	qm.mu.Lock()
	rc := c.stateLocked()
	var out []mqwatch.Handle
	if rc == 0 {
		var qs []*queue
		qs, rc = qm.visibleQueues(c.user, name, true)
		for _, q := range qs {
			out = append(out, handleStatus(q)...)
		}
	}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("INQUIRE_Q_STATUS", name, rc)
	}
	end(err, 0)
	return out, err
}

func handleStatus(q *queue) []mqwatch.Handle {
	out := make([]mqwatch.Handle, 0, len(q.handles))
	for h := range q.handles {
		c := h.c
		user := c.user
		if user == "" {
			user = c.identity
		}
		out = append(out, mqwatch.Handle{
			Queue: q.name, ApplTag: c.applName, ApplType: mqfmt.ATUnix, User: user,
			PID: c.pid, Input: h.opts.Input, Output: h.opts.Output, Browse: h.opts.Browse,
			Inquire: h.opts.Inquire, UOW: c.uow.active(), ConnID: c.idHex,
		})
	}
	slices.SortFunc(out, func(a, b mqwatch.Handle) int {
		if a.PID != b.PID {
			return a.PID - b.PID
		}
		return strings.Compare(a.ConnID, b.ConnID)
	})
	return out
}
