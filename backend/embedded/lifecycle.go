package embedded

// Stop ends the queue manager as endmqm -i does: every connection breaks
// (calls on it fail with MQRC_CONNECTION_BROKEN, 2009, and units of work are
// backed out), and until Start every MQCONNX is refused with
// MQRC_Q_MGR_NOT_AVAILABLE (2059), which is what a client sees of a queue
// manager that is down. Objects and messages stay as they were: nothing is
// persisted, so nothing is lost or recovered either. Linked channels are not
// stopped.
func (qm *QMgr) Stop() {
	qm.mu.Lock()
	defer qm.mu.Unlock()
	qm.stopped = true
	for c := range qm.conns {
		qm.breakConn(c)
	}
}

// Start lets connections in again after Stop, as strmqm does.
func (qm *QMgr) Start() {
	qm.mu.Lock()
	qm.stopped = false
	qm.mu.Unlock()
}

// Running reports whether the queue manager accepts connections (it has not
// been stopped, or was started again).
func (qm *QMgr) Running() bool {
	qm.mu.Lock()
	defer qm.mu.Unlock()
	return !qm.stopped
}
