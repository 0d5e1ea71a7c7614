package ops_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// deadLetterBy puts message n on the DEADQ as application appl dead-lettered
// it, with user as the message's UserIdentifier.
func (f *opFixture) deadLetterBy(c mqwatch.Conn, n int, destQ, destQMgr string, rc mqfmt.Reason, appl, user string) {
	f.t.Helper()
	md, data := original(n)
	if user != "" {
		md.UserIdentifier = user
	}
	dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: rc, DestQName: destQ,
		DestQMgrName: destQMgr, PutApplType: mqfmt.ATJava, PutApplName: appl, Now: f.clk.Now()})
	if err != nil {
		f.t.Fatalf("ToDeadLetter: %v", err)
	}
	f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
}

func outcomesOf(p ops.OpPlan, items []ops.OpItem) []string {
	out := make([]string, len(items))
	for i := range items {
		out[i] = items[i].Text(p.Request.Op)
	}
	return out
}

// TestR10_DryRunPredicts2087: a dead letter for a queue manager this one has
// no route to (no queue manager alias, no transmission queue of its name,
// no DEFXMITQ) is predicted to fail with MQRC_UNKNOWN_REMOTE_Q_MGR, as the
// run's MQOPEN fails; one for a queue manager that has a transmission queue
// now is predicted to go.
func TestR10_DryRunPredicts2087(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "STOCK.IN", "QM9", mqfmt.RCUnknownRemoteQMgr)
	f.deadLetter(c, 2, "STOCK.IN", "QM2", mqfmt.RCUnknownRemoteQMgr)
	req := ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, DryRun: true}
	res := f.run(f.engine(), req)
	if len(res.Items) != 2 || res.Items[0].Reason != int32(mqfmt.RCUnknownRemoteQMgr) ||
		!strings.HasPrefix(res.Items[0].Text(res.Plan.Request.Op), "would fail: STOCK.IN@QM9 cannot be reached") ||
		res.Items[1].Text(res.Plan.Request.Op) != "would requeue" {
		t.Fatalf("outcomes %q", outcomesOf(res.Plan, res.Items))
	}
	if b := res.Breakdown(); b.Act != 1 || len(b.Fail) != 1 || b.Fail[0].Count != 1 {
		t.Fatalf("breakdown %+v", b)
	}
	// The run meets exactly what the dry run said.
	req.DryRun = false
	run := f.run(f.engine(), req)
	if run.Done != 1 || run.Failed != 1 || run.Items[0].Reason != int32(mqfmt.RCUnknownRemoteQMgr) {
		t.Fatalf("run: done %d failed %d %q", run.Done, run.Failed, outcomesOf(run.Plan, run.Items))
	}
}

// TestR10_DryRunOpensWithTheRunsAuthority: a user who may put but lacks
// setall on the queue manager passes a plain open; the run's open (context
// kept: setall) is refused, and so is the plan's: would fail with 2035.
// Under --putaut ctx the plan opens with the message's user as alternate
// user, as the run does.
func TestR10_DryRunOpensWithTheRunsAuthority(t *testing.T) {
	f := newOpFixture(t, `
SET AUTHREC PROFILE('**') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET,INQ,PUT,DSP,PASSALL,SETALL)
SET AUTHREC PRINCIPAL('ops') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ,DSP)
`)
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "", mqfmt.RCQFull)
	asOps := func(o *ops.EngineOptions) { o.Connect.User = "ops" }
	plan, err := f.engine(asOps).Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil {
		t.Fatal(err)
	}
	if it := plan.Items[0]; it.Reason != int32(mqfmt.RCNotAuthorized) || !strings.Contains(it.Text(plan.Request.Op), "setall") {
		t.Fatalf("plan as ops without setall on the queue manager: %q", it.Text(plan.Request.Op))
	}
	plan, err = f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true,
		PutAuthority: ops.PutAuthContext})
	if err != nil {
		t.Fatal(err)
	}
	if it := plan.Items[0]; it.Reason != int32(mqfmt.RCNotAuthorized) || !strings.Contains(it.Text(plan.Request.Op), "user alice may not put") {
		t.Fatalf("plan under PUTAUT(CTX) for alice, who has no authority: %q", it.Text(plan.Request.Op))
	}
}

// TestR10f_NextHopComesBackWhileBOQFull: dead letters the consumer of
// EXPRESS.IN wrote with MQRC_Q_FULL because its BOQ was full come back if
// requeued while the BOQ is still full; one a channel wrote (the queue was
// full then, it has room now) does not, nor, once the consumer's handle
// names it, one another application wrote; the text names the BOQ and its
// depth, and says when no consumer has the queue open.
func TestR10f_NextHopComesBackWhileBOQFull(t *testing.T) {
	f := newOpFixture(t, `
DEFINE QLOCAL(SMALL.BO) MAXDEPTH(1)
DEFINE QLOCAL(EXPRESS.IN) BOTHRESH(3) BOQNAME(SMALL.BO) MAXDEPTH(100)
`)
	c := f.conn()
	md, data := original(99)
	f.putSetAll(c, "SMALL.BO", md, data)
	f.deadLetterBy(c, 1, "EXPRESS.IN", "QM1", mqfmt.RCQFull, "ExpressMDB", "")
	f.deadLetterBy(c, 2, "EXPRESS.IN", "QM1", mqfmt.RCQFull, "amqrmppa", "")
	f.deadLetterBy(c, 3, "EXPRESS.IN", "QM1", mqfmt.RCQFull, "BatchLoader", "")
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil {
		t.Fatal(err)
	}
	// No consumer has the queue open: the loop waits for one.
	idle := "would come back: consumer of EXPRESS.IN (sync-transacted) dead-letters them while SMALL.BO is full (1/1)"
	if got := outcomesOf(plan, plan.Items); got[0] != idle || got[1] != "would requeue" || got[2] != idle {
		t.Fatalf("outcomes %q, want %q, would requeue, the same", got, idle)
	}
	if !strings.Contains(strings.Join(plan.Warnings, "\n"), "no consumer has EXPRESS.IN open now: the 2 that would come back wait there until one reads them") {
		t.Fatalf("warnings %q", plan.Warnings)
	}
	// With the consumer connected, its handle names who dead-letters:
	// BatchLoader is not it.
	mdb, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{ApplName: "ExpressMDB"})
	if err != nil {
		t.Fatal(err)
	}
	defer mdb.Close()
	in, err := mdb.Open(f.ctx, mqwatch.ObjectDesc{Name: "EXPRESS.IN"}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close(f.ctx)
	plan, err = f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "would come back: consumer of EXPRESS.IN (sync-transacted) dead-letters them while SMALL.BO is full (1/1)"
	if got := outcomesOf(plan, plan.Items); got[0] != want || got[1] != "would requeue" || got[2] != "would requeue" {
		t.Fatalf("outcomes %q, want %q and would requeue twice", got, want)
	}
	b := plan.Breakdown()
	if b.Back() != 1 || b.ComesBack[0].Reason != int32(mqfmt.RCQFull) {
		t.Fatalf("breakdown %+v", b)
	}
	// The queue that brings it back is named, for the requeue-loop alert
	// to see when it has room again.
	if plan.Items[0].Blocker != "SMALL.BO" || plan.Items[1].Blocker != "" {
		t.Fatalf("blockers %q, %q: want SMALL.BO, none", plan.Items[0].Blocker, plan.Items[1].Blocker)
	}
	// With room on the BOQ, the consumer's refusal ends there: nothing
	// comes back to the DEADQ.
	f.qm.MQSC("ALTER QLOCAL(SMALL.BO) MAXDEPTH(10)\n")
	plan, err = f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil || plan.Breakdown().Back() != 0 {
		t.Fatalf("with room on the BOQ: %q %v", outcomesOf(plan, plan.Items), err)
	}
}

// TestR10g_SystemTargetRefused performs the attack of a dead letter whose
// DestQName is SYSTEM.ADMIN.COMMAND.QUEUE and whose UserIdentifier is mqm:
// requeued with its context, the command server would run its PCF as mqm.
// Requeue, move --to and replay skip it and say why; naming the exact queue
// with AllowSystemTarget lets it go; the DEADQ stays a valid target.
func TestR10g_SystemTargetRefused(t *testing.T) {
	f := newOpFixture(t, "") // the queue manager defines SYSTEM.ADMIN.COMMAND.QUEUE
	c := f.conn()
	f.deadLetterBy(c, 1, "SYSTEM.ADMIN.COMMAND.QUEUE", "QM1", mqfmt.RCQFull, "amqrmppa", "mqm")
	for _, req := range []ops.OpRequest{
		{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true},
		{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "SYSTEM.ADMIN.COMMAND.QUEUE"},
		{Op: ops.OpReplay, Queue: "QM1.DEADQ", All: true},
		{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, AllowSystemTarget: "SYSTEM.ADMIN.OTHER.QUEUE"},
	} {
		res := f.run(f.engine(), req)
		if res.Done != 0 || res.Skipped != 1 || !strings.Contains(res.Items[0].Text(res.Plan.Request.Op), "is a SYSTEM queue (R10g)") {
			t.Fatalf("%s: done %d skipped %d %q", req.Op, res.Done, res.Skipped, outcomesOf(res.Plan, res.Items))
		}
	}
	if f.depth("SYSTEM.ADMIN.COMMAND.QUEUE") != 0 {
		t.Fatal("a message reached the command queue")
	}
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true,
		AllowSystemTarget: "SYSTEM.ADMIN.COMMAND.QUEUE"})
	if err != nil || plan.Items[0].Text(plan.Request.Op) != "would requeue" {
		t.Fatalf("named exactly: %q %v", outcomesOf(plan, plan.Items), err)
	}
	f.backedOut(c, 2, "ORDERS.BO", "")
	plan, err = f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true, Target: "QM1.DEADQ"})
	if err != nil || plan.Items[0].Text(plan.Request.Op) != "would move" {
		t.Fatalf("a move to the DEADQ: %q %v", outcomesOf(plan, plan.Items), err)
	}
}

// TestR10b_2035DecidedPerTarget: a dead letter refused by security (2035) is
// not put back on the queue that refused it with the operator's authority,
// whatever the action (requeue, requeue --to that queue, move there); to
// any other queue (a parking queue, header kept or not) it goes.
func TestR10b_2035DecidedPerTarget(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCNotAuthorized)
	refused := "dead-lettered because its user was not authorized (MQRC_NOT_AUTHORIZED 2035)"
	for _, tc := range []struct {
		req  ops.OpRequest
		skip bool
	}{
		{ops.OpRequest{Op: ops.OpRequeue}, true},
		{ops.OpRequest{Op: ops.OpRequeue, Target: "ORDERS.IN"}, true},
		{ops.OpRequest{Op: ops.OpMove, Target: "ORDERS.IN"}, true},
		{ops.OpRequest{Op: ops.OpReplay}, true},
		{ops.OpRequest{Op: ops.OpRequeue, Target: "PARKING.Q"}, false},
		{ops.OpRequest{Op: ops.OpMove, Target: "PARKING.Q"}, false},
		{ops.OpRequest{Op: ops.OpReplay, Target: "PARKING.Q"}, false},
		{ops.OpRequest{Op: ops.OpRequeue, PutAuthority: ops.PutAuthOperator}, false},
	} {
		tc.req.Queue, tc.req.All = "QM1.DEADQ", true
		plan, err := f.engine().Plan(f.ctx, tc.req)
		if err != nil {
			t.Fatal(err)
		}
		o := plan.Items[0].Text(plan.Request.Op)
		if got := strings.Contains(o, refused); got != tc.skip {
			t.Errorf("%s to %q (putaut %d): %q, want skipped %v", tc.req.Op, tc.req.Target, tc.req.PutAuthority, o, tc.skip)
		}
	}
}

// TestR10f_CheckAfterRunSeesWhatCameBack: after a requeue the engine watches
// the DEADQ for the MsgIds it moved; a consumer that dead-letters one of
// them again during the window is seen: the result counts it, marks the
// item, says when and why, and the audit log gets a line for it.
func TestR10f_CheckAfterRunSeesWhatCameBack(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetterBy(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull, "OrdersMDB", "")
	f.deadLetterBy(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull, "OrdersMDB", "")
	sleeps := 0
	consumer := func(o *ops.EngineOptions) {
		clockSleep := o.Sleep
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			if sleeps++; sleeps == 2 { // the consumer refuses message 1 again
				q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN"}, mqwatch.OpenOptions{Input: true})
				if err != nil {
					t.Fatal(err)
				}
				id := msgID(1)
				m, err := q.Get(ctx, mqwatch.GetOptions{MsgId: &id})
				_ = q.Close(ctx)
				if err != nil {
					t.Fatal(err)
				}
				dmd, ddata, err := actions.ToDeadLetter(m.MD, m.Data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull,
					DestQName: "ORDERS.IN", DestQMgrName: "QM1", PutApplName: "OrdersMDB", Now: f.clk.Now()})
				if err != nil {
					t.Fatal(err)
				}
				f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
			}
			return clockSleep(ctx, d)
		}
	}
	res := f.run(f.engine(consumer), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Verify: 10 * time.Second})
	v := res.Verify
	if v == nil || v.Watched != 2 || v.CameBack != 1 || !res.Items[0].CameBack || res.Items[1].CameBack {
		t.Fatalf("check %+v, items %+v", v, res.Items)
	}
	if s := v.Sentence(); !strings.HasPrefix(s, "1 back on QM1.DEADQ within 2 s (2053: ") {
		t.Fatalf("sentence %q", s)
	}
	audit, err := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
	if err != nil || !strings.Contains(string(audit), `"outcome":"came back to QM1.DEADQ within 2 s (R10f requeue loop; run of `) {
		t.Fatalf("audit: %v\n%s", err, audit)
	}
	// --verify 0 makes no check.
	f.deadLetterBy(c, 3, "ORDERS.IN", "QM1", mqfmt.RCQFull, "OrdersMDB", "")
	if res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true}); res.Verify != nil {
		t.Fatalf("no window, yet a check: %+v", res.Verify)
	}
}
