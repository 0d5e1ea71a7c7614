package ops

// Audit lines are written and synced before a batch's gets and MQCMIT (an
// audit trail noticed broken only after the commit would leave messages
// acted on without a record), as "pending": the batch is in a unit of work
// that a crash backs out. Its outcome follows the commit ("requeued", ...)
// or the backout ("not done: backed out"); a log whose last line for a
// message is pending names a batch whose process ended around its MQCMIT,
// which `poisonwatch audit check` reports.

import "sync"

const (
	// outcomePending marks a batch written to the log before its gets and
	// commit; the outcome line follows it.
	outcomePending = "pending"
	// outcomeBackedOut follows the lines of a batch written ahead and then
	// backed out: nothing of it was done.
	outcomeBackedOut = "not done: backed out"
)

// auditAhead writes and syncs the batch's lines as pending.
func (r *opRun) auditAhead(got []opGot) error {
	recs := r.linesOf(got, outcomePending)
	defer putAuditRecs(recs)
	if err := r.audit.write(*recs); err != nil {
		return err
	}
	return r.audit.sync()
}

// auditRetract says in the log that a batch written ahead was backed out.
func (r *opRun) auditRetract(got []opGot) {
	recs := r.linesOf(got, outcomeBackedOut)
	defer putAuditRecs(recs)
	if err := r.audit.write(*recs); err != nil {
		r.setStop("audit log write failed: no further message is acted on", err)
	}
}

// linesOf is a line per message of got with outcome; the items keep theirs.
// The slice is from auditRecs: give it back with putAuditRecs.
func (r *opRun) linesOf(got []opGot, outcome string) *[]AuditRecord {
	now := r.e.opts.Now()
	recs := auditRecs(len(got))
	for _, g := range got {
		it := r.items[g.idx] // a copy
		it.Reason = 0
		if g.target.queue != "" {
			it.Target, it.TargetQMgr = g.target.queue, g.target.qmgr
		}
		if r.req.Op == OpReplay {
			it.CopyMsgId = g.putMD.MsgId
		}
		*recs = append(*recs, r.auditRecord(&it, outcome, now))
	}
	return recs
}

// auditRecPool holds the record slices of a batch's lines: they die once
// written, and making them anew was a few hundred bytes per message moved.
var auditRecPool = sync.Pool{New: func() any { return new([]AuditRecord) }}

func auditRecs(n int) *[]AuditRecord {
	p := auditRecPool.Get().(*[]AuditRecord)
	if cap(*p) < n {
		*p = make([]AuditRecord, 0, n)
	}
	return p
}

func putAuditRecs(p *[]AuditRecord) {
	clear(*p)
	*p = (*p)[:0]
	if cap(*p) <= 1<<14 {
		auditRecPool.Put(p)
	}
}
