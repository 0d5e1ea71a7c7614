package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// TestR10f_ReplayLoopRaisesAlert: a replay whose copies came back raises the
// same R10f alert as a requeue, saying they were replayed; a replay whose
// check was skipped (--keep-msgid) raises none.
func TestR10f_ReplayLoopRaisesAlert(t *testing.T) {
	s := New(time.Now, time.Second)
	q := s.QMgr("QM1")
	at := time.Date(2026, 3, 9, 14, 30, 0, 0, time.UTC)
	req := ops.OpRequest{Op: ops.OpReplay, Queue: "SYSTEM.DEAD.LETTER.QUEUE"}
	noteRun(s, "QM1", &ops.OpResult{Plan: ops.OpPlan{Request: req}, Done: 7,
		Verify: &ops.OpVerify{Skipped: "--keep-msgid: ...", Started: at}})
	if a := q.loopAlerts(at.Add(time.Minute)); len(a) != 0 {
		t.Fatalf("check skipped, yet %+v", a)
	}
	noteRun(s, "QM1", &ops.OpResult{Plan: ops.OpPlan{Request: req}, Done: 7, AuditFile: "/state/audit.jsonl",
		Verify: &ops.OpVerify{Watched: 7, CameBack: 7, Within: 2 * time.Second, Where: "SYSTEM.DEAD.LETTER.QUEUE", Started: at,
			Causes: []ops.OpCount{{Cause: "2053: ORDERS.BO full (40/40)", Count: 7}}}})
	a := q.loopAlerts(at.Add(time.Minute))
	if len(a) != 1 || a[0].Rule != "R10f" ||
		!strings.HasPrefix(a[0].Text, "requeue loop: 7 of the 7 replayed from SYSTEM.DEAD.LETTER.QUEUE at 14:30:00 came back: 7 back on SYSTEM.DEAD.LETTER.QUEUE within 2 s") {
		t.Fatalf("alerts %+v", a)
	}
}
