package ops

import (
	"fmt"
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

// AuditReport is what audit check finds in a log.
type AuditReport struct {
	// Pending are the batches that ended pending, oldest first.
	Pending []PendingBatch
	// Lines is how many lines were read.
	Lines int
	// Unchained is how many lines come before the chain starts: written
	// by a poisonwatch that did not chain them, they are not checked.
	Unchained int
	// Breaks are where a line does not follow the one before it, in order
	// (the first maxChainBreaks); Broken counts them all.
	Breaks []ChainBreak
	Broken int
}

// ChainBreak is a line that does not follow the line before it.
type ChainBreak struct {
	Line int    // of the log, from 1
	Why  string // what it means
}

// maxChainBreaks is how many breaks a report lists.
const maxChainBreaks = 20

// CheckAudit is CheckAuditLog's pending batches and lines read.
func CheckAudit(r io.Reader) ([]PendingBatch, int, error) {
	rep, err := CheckAuditLog(r)
	return rep.Pending, rep.Lines, err
}

// CheckAuditLog reads an audit log: its batches that ended pending (a
// pending line is settled by the next outcome line for the same message,
// twins in order) and whether its lines still follow each other (the
// chain, auditchain.go).
func CheckAuditLog(r io.Reader) (AuditReport, error) {
	type open struct {
		rec   AuditRecord
		batch auditBatchKey
		seq   int
	}
	var rep AuditReport
	pending := map[auditMsgKey][]open{}
	lines := 0
	chain := chainCheck{rep: &rep, prev: auditLineHash(nil)}
	err := readAuditLines(r, func(n int, line []byte, rec AuditRecord) error {
		lines++
		chain.line(n, line, rec.Prev)
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
	rep.Lines = lines
	if err != nil {
		return rep, err
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
	rep.Pending = out
	return rep, nil
}

// chainCheck follows the chain line by line: each chained line must carry
// the hash of the line before it; lines before the first chained one were
// written unchained and are counted, not checked.
type chainCheck struct {
	rep     *AuditReport
	prev    string // hash of the last line read
	last    int    // its number, 0 before the first
	started bool
}

func (c *chainCheck) line(n int, line []byte, prev string) {
	switch {
	case prev == "" && !c.started:
		c.rep.Unchained++
	case prev == "":
		// Outside the chain: the next line is checked against the last
		// chained one.
		c.brk(n, fmt.Sprintf("line %d is not chained, after chained lines: added by hand or by another program", n))
		return
	case prev != c.prev && c.last == 0:
		c.brk(n, fmt.Sprintf("line %d follows a line that is not in the log: its first lines were removed", n))
	case prev != c.prev:
		c.brk(n, fmt.Sprintf("line %d does not follow line %d: lines were removed or inserted between them, or line %d was changed", n, c.last, c.last))
	}
	c.started = c.started || prev != ""
	c.prev, c.last = auditLineHash(line), n
}

func (c *chainCheck) brk(n int, why string) {
	c.rep.Broken++
	if len(c.rep.Breaks) < maxChainBreaks {
		c.rep.Breaks = append(c.rep.Breaks, ChainBreak{Line: n, Why: why})
	}
}
