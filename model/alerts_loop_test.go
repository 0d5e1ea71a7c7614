package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// TestR10f_RequeueLoopRaisesAlert: a run whose check saw messages come back
// is a critical R10f alert naming the run in the audit log, until half an
// hour has passed; a run whose messages stayed away raises nothing.
func TestR10f_RequeueLoopRaisesAlert(t *testing.T) {
	s := New(time.Now, time.Second)
	q := s.QMgr("QM1")
	at := time.Date(2026, 3, 9, 14, 30, 0, 0, time.UTC)
	ok := ops.OpResult{Done: 5, Verify: &ops.OpVerify{Watched: 5, Window: 30 * time.Second, Started: at}}
	noteRun(s, "QM1", &ok)
	if a := q.loopAlerts(at.Add(time.Minute)); len(a) != 0 {
		t.Fatalf("nothing came back, yet %+v", a)
	}
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, Queue: "SYSTEM.DEAD.LETTER.QUEUE"}},
		Done: 23, AuditFile: "/state/audit.jsonl", Verify: &ops.OpVerify{Watched: 23, CameBack: 23, Within: 4 * time.Second,
			Where: "SYSTEM.DEAD.LETTER.QUEUE", Started: at, Causes: []ops.OpCount{{Cause: "2053: ORDERS.BO full (40/40)", Count: 23}}}}
	noteRun(s, "QM1", &res)
	alerts := q.alerts(at.Add(time.Minute))
	var loop *Alert
	for i := range alerts {
		if alerts[i].Rule == "R10f" {
			loop = &alerts[i]
		}
	}
	if loop == nil || loop.Severity != actions.Critical ||
		!strings.Contains(loop.Text, "requeue loop: 23 of the 23 requeued from SYSTEM.DEAD.LETTER.QUEUE at 14:30:00 came back: 23 back on SYSTEM.DEAD.LETTER.QUEUE within 4 s (2053: ORDERS.BO full (40/40))") ||
		!strings.Contains(loop.Fix, "/state/audit.jsonl (run of 2026-03-09T14:30:00Z)") {
		t.Fatalf("alerts %+v", alerts)
	}
	if RuleText("R10f") == "" {
		t.Error("the alert's rule has no text for the detail screen")
	}
	if a := q.loopAlerts(at.Add(31 * time.Minute)); len(a) != 0 {
		t.Fatalf("after half an hour: %+v", a)
	}
}
