package ops_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestMove(t *testing.T) {
	t.Run("R10a_move_keeps_headers_MsgId_and_context", testMoveMoveKeepsHeadersMsgIdAndContext)
	t.Run("R10a_each_batch_is_one_unit_of_work", testMoveEachBatchIsOneUnitOfWork)
	t.Run("R10a_parallel_workers_move_every_message_once", testMoveParallelWorkersMoveEveryMessageOnce)
	t.Run("R10a_a_missing_target_fails_its_messages_without_touching_them", testMoveAMissingTargetFailsItsMessagesWithoutTouchingThem)
	t.Run("R10a_move_needs_a_target_and_never_to_its_source", testMoveMoveNeedsATargetAndNeverToItsSource)
	t.Run("R10a_an_exclusive_source_is_moved_by_the_one_worker_that_opens_it", testMoveExclusiveSource)
}

func testMoveExclusiveSource(t *testing.T) {
	f := newOpFixture(t, "DEFINE QLOCAL(EXCL.BO) NOSHARE\n")
	c := f.conn()
	for n := 1; n <= 50; n++ {
		md, data := original(n)
		f.putSetAll(c, "EXCL.BO", md, data)
	}
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "EXCL.BO", All: true, Target: "PARKING.Q", Batch: 5})
	if res.Done != 50 || res.Stopped != "" {
		t.Fatalf("done %d stopped %q", res.Done, res.Stopped)
	}
	held := f.conn()
	if _, err := held.Open(f.ctx, mqwatch.ObjectDesc{Name: "PARKING.Q"}, mqwatch.OpenOptions{Input: true}); err != nil {
		t.Fatal(err)
	}
	f.qm.MQSC("ALTER QLOCAL(PARKING.Q) NOSHARE\n")
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "PARKING.Q", All: true, Target: "ORDERS.IN"}, nil)
	if !mqwatch.IsReason(err, mqfmt.RCObjectInUse) || res.NotDone != 50 || !strings.HasPrefix(res.Stopped, "open PARKING.Q") {
		t.Errorf("source held exclusively elsewhere: err %v not done %d stopped %q", err, res.NotDone, res.Stopped)
	}
}

func TestGuarantees(t *testing.T) {
	t.Run("R10a_message_removed_meanwhile_is_skipped_with_2033", testGuaranteesMessageRemovedMeanwhileIsSkippedWith2033)
	t.Run("R10a_another_message_with_the_same_MsgId_and_CorrelId_is_not_taken", testGuaranteesAnotherMessageWithTheSameMsgIdAndCorrelIdIsNotTaken)
	t.Run("R10a_a_full_target_stops_the_run_after_backing_out_the_batch", testGuaranteesAFullTargetStopsTheRunAfterBackingOutTheBatch)
	t.Run("R10a_a_broken_connection_stops_the_run_and_loses_nothing", testGuaranteesABrokenConnectionStopsTheRunAndLosesNothing)
	t.Run("R10f_cancellation_backs_out_the_batch_in_flight_and_counts_exactly", testGuaranteesCancellationBacksOutTheBatchInFlightAndCountsExactly)
	testGuaranteesContext(t)
}

func testMoveMoveKeepsHeadersMsgIdAndContext(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	before := f.browse("QM1.DEADQ")[0]
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q"})
	want := "Move 1 message from QM1.DEADQ to PARKING.Q; move, not copy; headers unchanged"
	if res.Done != 1 || res.Plan.Summary != want || res.Items[0].Text(res.Plan.Request.Op) != "moved" {
		t.Fatalf("done %d summary %q outcome %q", res.Done, res.Plan.Summary, res.Items[0].Text(res.Plan.Request.Op))
	}
	m := f.browse("PARKING.Q")[0]
	if m.MD.MsgId != before.MD.MsgId || m.MD.Format != before.MD.Format || contextOf(m.MD) != contextOf(before.MD) ||
		string(m.Data) != string(before.Data) {
		t.Errorf("moved message differs: %s vs %s", contextOf(m.MD), contextOf(before.MD))
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 0})
}

func testMoveEachBatchIsOneUnitOfWork(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 250; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	f.qm.ResetStats()
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", Workers: 1})
	st := f.qm.Stats().Verbs
	if res.Done != 250 || st[embedded.VerbCommit].Calls != 3 || st[embedded.VerbPut].Calls != 250 || st[embedded.VerbGet].Calls != 250 {
		t.Fatalf("done %d, commits %d puts %d gets %d; want 250 in 3 units of work",
			res.Done, st[embedded.VerbCommit].Calls, st[embedded.VerbPut].Calls, st[embedded.VerbGet].Calls)
	}
	got := f.browse("PARKING.Q")
	for i := range got {
		md, _ := original(i + 1)
		if got[i].MD.MsgId != md.MsgId {
			t.Fatalf("one worker keeps the order: message %d is %x", i, got[i].MD.MsgId[16:])
		}
	}
}

func testMoveParallelWorkersMoveEveryMessageOnce(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 500; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", Batch: 30, Workers: 4})
	if res.Done != 500 {
		t.Fatalf("done %d", res.Done)
	}
	seen := map[[24]byte]int{}
	for _, m := range f.browse("PARKING.Q") {
		seen[m.MD.MsgId]++
	}
	for n := 1; n <= 500; n++ {
		if seen[msgID(n)] != 1 {
			t.Fatalf("message %d is on PARKING.Q %d times", n, seen[msgID(n)])
		}
	}
}

func testMoveAMissingTargetFailsItsMessagesWithoutTouchingThem(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "GONE.Q", "QM1", mqfmt.RCUnknownObjectName)
	f.deadLetter(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 3, "GONE.Q", "QM1", mqfmt.RCUnknownObjectName)
	eng := f.engine()
	plan, err := eng.Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil || len(plan.Warnings) != 1 || plan.Warnings[0] != "GONE.Q does not exist (MQRC_UNKNOWN_OBJECT_NAME)" {
		t.Fatalf("plan err %v warnings %q", err, plan.Warnings)
	}
	f.qm.ResetStats()
	res, err := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Workers: 1}, nil)
	if err != nil || res.Done != 1 || res.Failed != 2 || res.Items[0].Reason != int32(mqfmt.RCUnknownObjectName) {
		t.Fatalf("err %v done %d failed %d first %+v", err, res.Done, res.Failed, res.Items[0])
	}
	if b := f.qm.Stats().Verbs[embedded.VerbBackout].Calls; b != 0 {
		t.Errorf("%d backouts: a known bad target should fail its messages before they are got", b)
	}
	for _, m := range f.browse("QM1.DEADQ") {
		if m.MD.BackoutCount != 0 {
			t.Errorf("message left with BackoutCount %d", m.MD.BackoutCount)
		}
	}
}

func testMoveMoveNeedsATargetAndNeverToItsSource(t *testing.T) {
	f := newOpFixture(t, "")
	eng := f.engine()
	for _, tg := range []string{"", "QM1.DEADQ"} {
		_, err := eng.Plan(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: tg})
		if err == nil {
			t.Errorf("target %q: no error", tg)
		}
	}
}

func testGuaranteesMessageRemovedMeanwhileIsSkippedWith2033(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	seen := f.summaries("QM1.DEADQ")
	q, _ := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "QM1.DEADQ"}, mqwatch.OpenOptions{Input: true})
	if _, err := q.Get(f.ctx, mqwatch.GetOptions{MsgId: &seen[1].MsgId}); err != nil {
		t.Fatal(err)
	}
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", Messages: seen})
	if res.Done != 2 || res.Skipped != 1 || res.Items[1].Reason != int32(mqfmt.RCNoMsgAvailable) ||
		!strings.HasPrefix(res.Items[1].Text(res.Plan.Request.Op), "skipped: gone") {
		t.Fatalf("done %d skipped %d item %+v", res.Done, res.Skipped, res.Items[1])
	}
}

func testGuaranteesAnotherMessageWithTheSameMsgIdAndCorrelIdIsNotTaken(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	md, data := original(1)
	f.putSetAll(c, "ORDERS.BO", md, []byte("the first, not shown"))
	md.PutTime = "13000000"
	f.putSetAll(c, "ORDERS.BO", md, data)
	shown := f.summaries("ORDERS.BO")[1:]
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", Messages: shown, Target: "PARKING.Q"})
	if res.Done != 1 {
		t.Fatalf("done %d: %+v", res.Done, res.Items)
	}
	if m := f.browse("PARKING.Q"); len(m) != 1 || string(m[0].Data) != string(data) {
		t.Errorf("moved %q, want the message shown", m[0].Data)
	}
	if m := f.browse("ORDERS.BO"); len(m) != 1 || string(m[0].Data) != "the first, not shown" {
		t.Errorf("left %q", m[0].Data)
	}
}

func testGuaranteesAFullTargetStopsTheRunAfterBackingOutTheBatch(t *testing.T) {
	f := newOpFixture(t, "ALTER QLOCAL(PARKING.Q) MAXDEPTH(150)\n")
	c := f.conn()
	for n := 1; n <= 300; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", Workers: 1}, nil)
	if !errors.Is(err, ops.ErrStoppedEarly) || !strings.Contains(res.Stopped, "PARKING.Q is full (MQRC_Q_FULL)") {
		t.Fatalf("err %v stopped %q", err, res.Stopped)
	}
	if res.Done != 100 || res.NotDone != 200 || len(res.Plan.Warnings) != 1 {
		t.Errorf("done %d not done %d warnings %q", res.Done, res.NotDone, res.Plan.Warnings)
	}
	wantDepths(t, f, map[string]int{"PARKING.Q": 100, "QM1.DEADQ": 200})
}

func testGuaranteesABrokenConnectionStopsTheRunAndLosesNothing(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 300; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 149, Times: 1, Break: true})
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", Workers: 1}, nil)
	if err == nil || !strings.Contains(res.Stopped, "connection broken") {
		t.Fatalf("err %v stopped %q", err, res.Stopped)
	}
	if res.Done != 100 || res.NotDone != 200 {
		t.Errorf("done %d not done %d", res.Done, res.NotDone)
	}
	wantDepths(t, f, map[string]int{"PARKING.Q": 100, "QM1.DEADQ": 200})
}

func testGuaranteesCancellationBacksOutTheBatchInFlightAndCountsExactly(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 300; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	res, err := f.engine().Run(ctx, ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", Workers: 1},
		func(p ops.OpProgress) {
			if p.Done >= 100 {
				cancel()
			}
		})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(res.Stopped, "cancelled") {
		t.Fatalf("err %v stopped %q", err, res.Stopped)
	}
	if res.Done != 100 || res.NotDone != 200 {
		t.Errorf("done %d not done %d", res.Done, res.NotDone)
	}
	wantDepths(t, f, map[string]int{"PARKING.Q": 100, "QM1.DEADQ": 200})
}
