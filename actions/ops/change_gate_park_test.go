package ops_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// TestR10h_ParkingQueueIsNeverTriggered: a DEADQ set up for runmqdlq has
// TRIGGER INITQ PROCESS; a parking queue defined LIKE it is NOTRIGGER, so
// parked messages do not start runmqdlq, and the plan says what LIKE
// copies and what it does not. The triggering attributes are read through
// PCF (DISPLAY QUEUE by the command server) as MQSC set them.
func TestR10h_ParkingQueueIsNeverTriggered(t *testing.T) {
	for _, tc := range []struct {
		name, deadq string
		note        string
	}{
		{"R10h_like_a_triggered_deadq", "ALTER QLOCAL(QM1.DEADQ) TRIGGER TRIGTYPE(FIRST) INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(DLQ.RUNMQDLQ) DEFPSIST(YES)\n",
			"NOTRIGGER, not its TRIGGER INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(DLQ.RUNMQDLQ)"},
		{"R10h_like_an_untriggered_deadq", "", "NOTRIGGER (it has no TRIGGER either)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixFixture(t, "DEFINE QLOCAL(SYSTEM.DEFAULT.INITIATION.QUEUE) REPLACE\n"+tc.deadq)
			srv, err := f.qm.StartCommandServer()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			qm := mustQMgr(t, f)
			dead := queueByName(t, f, qm.DeadQ)
			p, err := actions.ParkPlan(actions.ParkInput{QMgr: qm, Queues: mustQueues(t, f), Name: "PARK.Q", MaxDepth: 100})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(p.Steps[0].MQSC, " NOTRIGGER") || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], tc.note) ||
				!strings.Contains(p.Notes[0], "MAXMSGL(") || !strings.Contains(p.Notes[0], "DEFPSIST(") || !strings.Contains(p.Notes[0], "MAXDEPTH(100) instead of its") {
				t.Fatalf("plan %q notes %q", p.Steps[0].MQSC, p.Notes)
			}
			if res, err := f.engine().ApplyFix(f.ctx, p, "", false); err != nil || !res.Applied() {
				t.Fatalf("%+v %v", res, err)
			}
			park := pcfQueue(t, f, "PARK.Q")
			if park.Trigger || park.DefPersistent != dead.DefPersistent || park.MaxDepth != 100 {
				t.Errorf("PARK.Q %+v: want NOTRIGGER, DEFPSIST copied, MAXDEPTH 100", park)
			}
			if d := pcfQueue(t, f, qm.DeadQ); d.Trigger != (tc.deadq != "") || (tc.deadq != "" && (d.InitQ != "SYSTEM.DEFAULT.INITIATION.QUEUE" || d.Process != "DLQ.RUNMQDLQ" || d.TriggerType != "FIRST")) {
				t.Errorf("DEADQ through PCF %+v", d)
			}
		})
	}
}

// pcfQueue reads a queue through the command server (DISPLAY QUEUE as PCF).
func pcfQueue(t *testing.T, f *opFixture, name string) mqwatch.QueueInfo {
	t.Helper()
	ctx := context.Background()
	pt, err := pcf.OpenPort(ctx, f.conn(), pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close(ctx)
	qs, err := (&pcf.Client{T: pt, Wait: 2 * time.Second}).Queues(ctx, name)
	if err != nil || len(qs) != 1 {
		t.Fatalf("%s: %v %v", name, qs, err)
	}
	return qs[0]
}

// TestR10h_GateRefusesADefineThatWouldCopyTrigger: a define LIKE the DEADQ
// without NOTRIGGER (a fix typed by hand; a parking queue always says it),
// planned while the DEADQ did not trigger, is refused by the dry run and
// the run once the DEADQ has TRIGGER: the new queue would start runmqdlq.
func TestR10h_GateRefusesADefineThatWouldCopyTrigger(t *testing.T) {
	f := newFixFixture(t, "")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	qm := mustQMgr(t, f)
	p := actions.PlanFix(actions.FixInput{QMgr: qm, Queues: mustQueues(t, f), ID: "park:PARK.Q",
		Commands: []string{"DEFINE QLOCAL(PARK.Q) LIKE(QM1.DEADQ) MAXDEPTH(100)"}})
	if len(p.Steps) != 1 || len(p.CopyOnly) > 0 {
		t.Fatalf("%+v", p)
	}
	f.qm.MQSC("ALTER QLOCAL(QM1.DEADQ) TRIGGER INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE) PROCESS(DLQ.RUNMQDLQ)\n")
	eng := f.engine()
	dry, err := eng.ApplyFix(f.ctx, p, "", true)
	if err != nil || dry.WouldApply() || !strings.Contains(dry.Steps[0].Prediction, "QM1.DEADQ has TRIGGER") {
		t.Fatalf("dry run %+v %v", dry, err)
	}
	res, err := eng.ApplyFix(f.ctx, p, "", false)
	if err == nil || res.Applied() || !strings.Contains(res.Steps[0].Error, "has TRIGGER") {
		t.Fatalf("run %+v %v", res, err)
	}
	for _, q := range mustQueues(t, f) {
		if q.Name == "PARK.Q" {
			t.Fatal("PARK.Q was defined LIKE a triggered DEADQ")
		}
	}
}
