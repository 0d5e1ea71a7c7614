package embedded

import (
	"maps"
	"sync"
	"time"
)

// Verbs name the calls for accounting and fault injection. MQI calls carry
// IBM's verb names; administrative inquiries carry the PCF command they stand
// for. A browse is counted apart from a destructive get because the two cost
// very different things to a watcher.
const (
	VerbConnect      = "MQCONNX"
	VerbDisconnect   = "MQDISC"
	VerbOpen         = "MQOPEN"
	VerbClose        = "MQCLOSE"
	VerbPut          = "MQPUT"
	VerbGet          = "MQGET"
	VerbBrowse       = "MQGET(BROWSE)"
	VerbInquire      = "MQINQ"
	VerbSubscribe    = "MQSUB"
	VerbCommit       = "MQCMIT"
	VerbBackout      = "MQBACK"
	VerbInquireQMgr  = "INQUIRE_Q_MGR"
	VerbInquireQueue = "INQUIRE_Q"
	VerbQueueStatus  = "INQUIRE_Q_STATUS"
	VerbHandleStatus = "INQUIRE_Q_STATUS(HANDLE)"
)

// VerbStats counts one verb's calls.
type VerbStats struct {
	Calls  int64 // calls made, failed ones included
	Failed int64 // calls that returned an error
	Bytes  int64 // message data bytes returned to the caller (gets and browses)
}

// Stats is a snapshot of call accounting since the queue manager started or
// since the last ResetStats.
type Stats struct {
	Since time.Time
	Verbs map[string]VerbStats
}

// Total sums every verb.
func (s Stats) Total() VerbStats {
	var t VerbStats
	for _, v := range s.Verbs {
		t.Calls += v.Calls
		t.Failed += v.Failed
		t.Bytes += v.Bytes
	}
	return t
}

// statsTable has its own lock so that accounting never waits on queue work.
type statsTable struct {
	mu    *sync.Mutex
	since time.Time
	verbs map[string]VerbStats
}

func newStatsTable() statsTable {
	return statsTable{mu: &sync.Mutex{}, verbs: map[string]VerbStats{}}
}

func (t *statsTable) record(verb string, failed bool, bytes int) {
	t.mu.Lock()
	v := t.verbs[verb]
	v.Calls++
	if failed {
		v.Failed++
	}
	v.Bytes += int64(bytes)
	t.verbs[verb] = v
	t.mu.Unlock()
}

// Stats returns a snapshot of the call accounting.
func (qm *QMgr) Stats() Stats {
	qm.stats.mu.Lock()
	defer qm.stats.mu.Unlock()
	since := qm.stats.since
	if since.IsZero() {
		since = qm.start
	}
	return Stats{Since: since, Verbs: maps.Clone(qm.stats.verbs)}
}

// ResetStats zeroes the call accounting, so a benchmark or a test counts only
// what follows.
func (qm *QMgr) ResetStats() {
	qm.stats.mu.Lock()
	qm.stats.verbs = map[string]VerbStats{}
	qm.stats.since = qm.now()
	qm.stats.mu.Unlock()
}
