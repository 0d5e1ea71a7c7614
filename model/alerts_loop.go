package model

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
)

func init() {
	ruleText["R10f"] = "After a requeue, move or replay the engine watches for the messages it moved: those back on the source " +
		"or the DEADQ within the window were refused again, because the cause they were dead-lettered for is still there " +
		"(a full BOQ, content the consumer refuses)."
}

// loopShown is how long a requeue loop stays an alert after its run.
const loopShown = 30 * time.Minute

// maxLoops bounds the runs a queue manager's requeue-loop alerts name.
const maxLoops = 16

// RequeueLoop is a run whose messages came back (R10f "requeue loop"): what
// the check after it saw, and where the audit log has the run.
type RequeueLoop struct {
	Op        ops.Op
	Queue     string // the source: where they came from and came back to
	Done      int
	Check     ops.OpVerify
	AuditFile string
}

// loops are the runs of the journal whose messages came back (its "came
// back" entries), newest last: the alert about an act reads what the
// journal says of it, so every session of a room, playback and the
// dashboard raise the same R10f.
func (q *QMgrState) loops() []RequeueLoop {
	var out []RequeueLoop
	for _, e := range q.acts.Entries() {
		if e.Kind != journal.CameBack || e.Counts.CameBack == 0 || e.QMgr != q.Name {
			continue
		}
		v := ops.OpVerify{CameBack: e.Counts.CameBack, Watched: e.Counts.Done, Within: e.Within, Where: e.Where, Started: e.Started}
		for _, c := range e.Causes {
			v.Causes = append(v.Causes, ops.OpCount{Cause: c.Text, Reason: c.Reason, Queue: c.Queue, Count: c.Count})
		}
		l := RequeueLoop{Op: ops.Op(e.Op), Queue: e.Queue, Done: e.Counts.Done, Check: v}
		if len(e.Files) > 0 {
			l.AuditFile = e.Files[0]
		}
		out = append(out, l)
	}
	if len(out) > maxLoops {
		out = out[len(out)-maxLoops:]
	}
	return out
}

// loopAlerts are the R10f alerts of the runs whose messages came back.
func (q *QMgrState) loopAlerts(now time.Time) []Alert {
	var out []Alert
	for _, l := range q.loops() {
		if now.Sub(l.Check.Started) > loopShown {
			continue
		}
		a := Alert{Severity: actions.Critical, Rule: "R10f", QMgr: q.Name, Queue: l.Check.Where,
			// Each run is an alert of its own: its "since" is the run's,
			// not an earlier run's on the same queue.
			Instance: l.Check.Started.UTC().Format(time.RFC3339Nano),
			Text: fmt.Sprintf("requeue loop: %d of the %d %s from %s at %s came back: %s", l.Check.CameBack, l.Done,
				l.Op.PastTense(), l.Queue, l.Check.Started.UTC().Format("15:04:05"), l.Check.Sentence()),
			Fix: fmt.Sprintf("fix the cause before acting again; the run is in the audit log %s (run of %s)",
				l.AuditFile, l.Check.Started.UTC().Format(time.RFC3339))}
		if note, gone := q.loopCause(l); gone {
			// The cause it names is gone: advice to run it again, not an alarm.
			a.Severity, a.Text, a.Fix = actions.Info, a.Text+"; "+note, ""
		}
		out = append(out, a)
	}
	return out
}
