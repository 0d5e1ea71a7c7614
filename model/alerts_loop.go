package model

import (
	"fmt"
	"time"

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

// maxLoops bounds the runs a queue manager remembers for requeue-loop alerts.
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

// NoteRun keeps a run whose check saw messages come back, so the alerts
// name it until loopShown has passed (R10f).
func (q *QMgrState) NoteRun(res *ops.OpResult) {
	if res.Verify == nil || res.Verify.CameBack == 0 {
		return
	}
	q.Loops = append(q.Loops, RequeueLoop{Op: res.Plan.Request.Op, Queue: res.Plan.Request.Queue, Done: res.Done,
		Check: *res.Verify, AuditFile: res.AuditFile})
	if len(q.Loops) > maxLoops {
		q.Loops = q.Loops[len(q.Loops)-maxLoops:]
	}
}

// loopAlerts are the R10f alerts of the runs whose messages came back.
func (q *QMgrState) loopAlerts(now time.Time) []Alert {
	var out []Alert
	for _, l := range q.Loops {
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
