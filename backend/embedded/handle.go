package embedded

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// handleKind is what an open handle puts to or gets from.
type handleKind int

const (
	hkLocal  handleKind = iota // a local queue (possibly through an alias)
	hkRemote                   // a queue on another queue manager, via a transmission queue
	hkTopic                    // a topic: puts publish
)

// handle is an open object handle (hobj). Fields are guarded by the queue
// manager's mutex; calls on it are serialised by its connection.
type handle struct {
	c    *conn
	name string // as Name reports it
	kind handleKind
	obj  *queue // the object opened (alias, remote definition, local queue); nil for topics
	q    *queue // hkLocal: the local queue; hkRemote: the transmission queue
	opts mqwatch.OpenOptions
	// altUser is the MQOD AlternateUserId the open was checked against.
	altUser string

	remoteQ, remoteQMgr string // hkRemote: destination named in the MQXQH
	topicStr            string // hkTopic: the full topic string
	sub                 *subscription

	// Defaults from the first definition in the resolution path, as IBM takes
	// MQPRI_PRIORITY_AS_Q_DEF and MQPER_PERSISTENCE_AS_Q_DEF from it.
	defPrio  int32
	defPsist bool

	exclusive bool
	cursor    *message // browse cursor, pinned
	hint      *message // marked browsing: all before it is marked or unavailable
	pending   []*message
	marking   bool
	saved     *mqfmt.MQMD // context of the last message got (SAVE_ALL_CONTEXT)
	closed    bool
}

var _ mqwatch.Queue = (*handle)(nil)

// Name is the name the queue was opened with; for a model queue, the name of
// the dynamic queue created from it.
func (h *handle) Name() string { return h.name }

// objectName is what errors and fault rules name.
func (h *handle) objectName() string { return h.name }

// check returns the reason a call on h cannot proceed. Caller holds mu.
func (h *handle) check() mqfmt.Reason {
	if rc := h.c.stateLocked(); rc != 0 {
		return rc
	}
	if h.closed {
		return mqfmt.RCHobjError
	}
	if h.q != nil && h.q.deleted {
		return rcQDeleted
	}
	return 0
}

// Close closes the handle (MQCLOSE). Closing the handle that created a
// temporary dynamic queue deletes the queue; closing a non-durable
// subscription's handle ends the subscription.
func (h *handle) Close(ctx context.Context) error {
	end, err := h.c.begin(ctx, VerbClose, "MQCLOSE", h.objectName())
	if err != nil {
		return err
	}
	qm := h.c.qm
	qm.mu.Lock()
	if h.closed || h.c.stateLocked() != 0 {
		rc := h.c.stateLocked()
		if rc == 0 {
			rc = mqfmt.RCHobjError
		}
		qm.mu.Unlock()
		err = mqwatch.NewError("MQCLOSE", h.objectName(), rc)
		end(err, 0)
		return err
	}
	qm.closeHandle(h)
	qm.mu.Unlock()
	end(nil, 0)
	return nil
}

// closeHandle releases h. Caller holds mu.
func (qm *QMgr) closeHandle(h *handle) {
	if h.closed {
		return
	}
	h.closed = true
	delete(h.c.handles, h)
	if q := h.q; q != nil && q.store != nil {
		q.store.unpin(h.cursor)
		q.store.unpin(h.hint)
		h.cursor, h.hint, h.pending = nil, nil, nil
		delete(q.handles, h)
		if q.creator == h && q.attrs.DefType == mqwatch.TemporaryDynamic {
			qm.deleteQueue(q)
		}
	}
	if h.sub != nil && !h.sub.durable {
		qm.endSubscription(h.sub)
	}
}

// deleteQueue removes a local queue and its messages; handles still open on it
// fail with MQRC_Q_DELETED. Caller holds mu.
func (qm *QMgr) deleteQueue(q *queue) {
	q.deleted = true
	if qm.queues[q.name] == q {
		delete(qm.queues, q.name)
	}
	if q.store != nil {
		// Units of work that still hold its messages skip them at commit or
		// backout; cursors are dropped, not unpinned, as the old store goes.
		for m := q.store.first(); m != nil; m = q.store.after(m) {
			m.owner = nil
		}
		for hh := range q.handles {
			hh.cursor, hh.hint, hh.pending = nil, nil, nil
		}
		q.store = newStore()
		q.wake()
	}
}

// Inquire returns the attributes of the object opened (MQINQ); for an alias,
// of the alias itself.
func (h *handle) Inquire(ctx context.Context) (mqwatch.QueueInfo, error) {
	end, err := h.c.begin(ctx, VerbInquire, "MQINQ", h.objectName())
	if err != nil {
		return mqwatch.QueueInfo{}, err
	}
	qm := h.c.qm
	qm.mu.Lock()
	rc := h.check()
	if rc == 0 && !h.opts.Inquire {
		rc = mqfmt.RCNotOpenForInquire
	}
	if rc == 0 && h.obj == nil {
		rc = rcObjectTypeError
	}
	var qi mqwatch.QueueInfo
	if rc == 0 {
		qi = h.obj.info()
	}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("MQINQ", h.objectName(), rc)
	}
	end(err, 0)
	return qi, err
}
