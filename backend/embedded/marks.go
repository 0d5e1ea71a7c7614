package embedded

// Browsing with marks (MQGMO_BROWSE_HANDLE: BROWSE_FIRST, UNMARKED_BROWSE_MSG
// and MARK_BROWSE_HANDLE) returns the first message in delivery order that
// this handle has not marked, and marks it. A mark lasts until the handle is
// closed or the message is got destructively; a message got under syncpoint
// and backed out comes back unmarked, so a watcher sees it again with its new
// BackoutCount. (IBM's MQGMO documentation: a destructive get removes the
// message's marks even if that get is later rolled back.)
//
// To stay O(1) per call on deep queues, a handle keeps a scan position: every
// message before it is marked by the handle or unavailable. Messages that
// become available behind the position (a commit of an earlier put, a backout,
// a higher-priority put) are remembered in a short pending list instead of
// restarting the scan.

// nextUnmarked returns the first available message not marked by h.
func (qm *QMgr) nextUnmarked(h *handle) *message {
	var best *message
	kept := h.pending[:0]
	for _, m := range h.pending {
		if m.state != stVisible || m.markedBy(h) || qm.expireIfDue(h.q, m) {
			continue
		}
		kept = append(kept, m)
		if best == nil || m.before(best) {
			best = m
		}
	}
	h.pending = kept
	s := h.q.store
	m := s.first()
	if h.hint != nil {
		m = s.after(h.hint)
	}
	for m != nil {
		next := s.after(m)
		if m.state == stVisible && !m.markedBy(h) && !qm.expireIfDue(h.q, m) {
			break
		}
		if m.state != stRemoved {
			// Passed: marked, locked or not yet committed. Those that become
			// available later arrive through noteVisible.
			s.pin(m)
			s.unpin(h.hint)
			h.hint = m
		}
		m = next
	}
	h.marking = true
	if best != nil && (m == nil || best.before(m)) {
		return best
	}
	return m
}

// mark marks m for h and advances h's scan position past it.
func (h *handle) mark(m *message) {
	live := m.marks[:0]
	for _, x := range m.marks {
		if !x.closed {
			live = append(live, x)
		}
	}
	m.marks = append(live, h)
	if h.hint == nil || h.hint.before(m) {
		s := h.q.store
		s.pin(m)
		s.unpin(h.hint)
		h.hint = m
	}
}

// noteVisible is told when m becomes available on h's queue; if h's marked
// scan has already passed m's position, m is kept for the next marked browse.
// The scan position itself counts as passed: a message got and backed out
// there comes back unmarked and the scan resumes after it.
func (h *handle) noteVisible(m *message) {
	if !h.marking || h.hint == nil || (h.hint != m && !m.before(h.hint)) {
		return
	}
	h.pending = append(h.pending, m)
}
