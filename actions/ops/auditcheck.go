package ops

import (
	"io"
	"slices"
	"time"
)

// PendingBatch is a batch whose audit lines say "pending" with no outcome
// after them: the process ended (killed, crashed, the machine lost power)
// between writing them, before its gets, and writing the outcome after its
// MQCMIT. IBM MQ backs out a unit of work whose connection ends before
// MQCMIT completes, so such a batch was most likely not done; it was done
// if the process died after the commit but before its outcome line, so its
// messages are to be checked on the source and the target.
type PendingBatch struct {
	Time     time.Time
	User     string
	QMgr     string
	Action   Op
	From     string
	To       []string // targets named in its lines, sorted
	File     string   // import file, archive
	MsgIds   []string // hexadecimal, in log order
	Messages int
}

// auditMsgKey is what makes lines about the same message in the same kind
// of action.
type auditMsgKey struct {
	action                      Op
	qmgr, from, msgID, correlID string
	putTime, sha                string
	index                       int
}

type auditBatchKey struct {
	time             time.Time
	user, qmgr, from string
	action           Op
	file             string
}

// CheckAudit reads an audit log and returns its batches that ended pending,
// oldest first, and how many lines it read. A pending line is settled by the
// next outcome line for the same message (twins are settled in order).
func CheckAudit(r io.Reader) ([]PendingBatch, int, error) {
	type open struct {
		rec   AuditRecord
		batch auditBatchKey
		seq   int
	}
	pending := map[auditMsgKey][]open{}
	lines := 0
	err := ReadAudit(r, func(rec AuditRecord) error {
		lines++
		if rec.DryRun || rec.Act != "" {
			return nil
		}
		k := auditMsgKey{rec.Action, rec.QMgr, rec.From, rec.MsgId, rec.CorrelId, rec.PutTime, rec.FileSHA256, rec.Index}
		if rec.Outcome == outcomePending {
			b := auditBatchKey{rec.Time, rec.User, rec.QMgr, rec.From, rec.Action, rec.File}
			pending[k] = append(pending[k], open{rec, b, lines})
			return nil
		}
		if q := pending[k]; len(q) > 0 {
			pending[k] = q[1:]
		}
		return nil
	})
	if err != nil {
		return nil, lines, err
	}
	var left []open
	for _, q := range pending {
		left = append(left, q...)
	}
	slices.SortFunc(left, func(a, b open) int { return a.seq - b.seq })
	var out []PendingBatch
	at := map[auditBatchKey]int{}
	for _, o := range left {
		i, ok := at[o.batch]
		if !ok {
			i = len(out)
			at[o.batch] = i
			out = append(out, PendingBatch{Time: o.rec.Time, User: o.rec.User, QMgr: o.rec.QMgr,
				Action: o.rec.Action, From: o.rec.From, File: o.rec.File})
		}
		b := &out[i]
		b.Messages++
		b.MsgIds = append(b.MsgIds, o.rec.MsgId)
		if o.rec.To != "" && !slices.Contains(b.To, o.rec.To) {
			b.To = append(b.To, o.rec.To)
			slices.Sort(b.To)
		}
	}
	return out, lines, nil
}
