package actions

// Audit lines are written and synced before a batch's MQCMIT (issue: an
// audit trail noticed broken only after the commit would leave messages
// acted on without a record). The last line for a message in a run is its
// outcome: a batch backed out after its lines were written gets a line
// saying so.

const (
	// outcomePending marks an import batch written to the log before its
	// commit; the outcome line follows it.
	outcomePending = "pending"
	// outcomeBackedOut follows the lines of a batch written ahead and then
	// backed out: nothing of it was done.
	outcomeBackedOut = "not done: backed out"
)

// auditAhead writes and syncs the batch's lines with the outcome its commit
// gives (pending for an import, whose outcome line follows the commit).
func (r *opRun) auditAhead(got []opGot) error {
	outcome := r.req.Op.pastTense()
	if r.req.Op == OpImport {
		outcome = outcomePending
	}
	if err := r.audit.write(r.linesOf(got, outcome)); err != nil {
		return err
	}
	return r.audit.sync()
}

// auditRetract says in the log that a batch written ahead was backed out.
func (r *opRun) auditRetract(got []opGot) {
	if err := r.audit.write(r.linesOf(got, outcomeBackedOut)); err != nil {
		r.setStop("audit log write failed: no further message is acted on", err)
	}
}

// linesOf is a line per message of got with outcome; the items keep theirs.
func (r *opRun) linesOf(got []opGot, outcome string) []AuditRecord {
	now := r.e.opts.Now()
	recs := make([]AuditRecord, 0, len(got))
	for _, g := range got {
		it := r.items[g.idx] // a copy
		it.Outcome, it.Reason = outcome, 0
		if g.target.queue != "" {
			it.Target, it.TargetQMgr = g.target.queue, g.target.qmgr
		}
		recs = append(recs, r.auditRecord(&it, now))
	}
	return recs
}
