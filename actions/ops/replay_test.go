package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestReplay(t *testing.T) {
	t.Run("R10e_copy_gets_a_new_MsgId_and_the_original_stays_untouched", testReplayCopyGetsANewMsgIdAndTheOriginalStaysUntouched)
	t.Run("R10e_keep_MsgId_on_request", testReplayKeepMsgIdOnRequest)
	t.Run("R10e_without_a_target_the_copy_goes_where_a_requeue_would", testReplayWithoutATargetTheCopyGoesWhereARequeueWould)
	t.Run("R10e_replay_to_the_source_with_the_same_MsgId_is_refused", testReplayReplayToTheSourceWithTheSameMsgIdIsRefused)
	t.Run("R10e_each_copy_the_target_refuses_fails_alone_and_the_rest_are_put", testReplayEachCopyTheTargetRefusesFailsAloneAndTheRestArePut)
	t.Run("R10e_default_context_needs_no_setall_and_says_so", testReplayDefaultContextNeedsNoSetallAndSaysSo)
	t.Run("R10e_commit_lost_with_the_connection_is_reported_in_doubt", testReplayCommitLostWithTheConnectionIsReportedInDoubt)
}

func testReplayCopyGetsANewMsgIdAndTheOriginalStaysUntouched(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	before := f.browse("QM1.DEADQ")[0]
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q"})
	want := "Replay 1 message from QM1.DEADQ to PARKING.Q; copy, originals stay; new MsgIds; MQDLH removed from the copies"
	if res.Done != 1 || res.Plan.Summary != want {
		t.Fatalf("done %d summary %q\nwant %q", res.Done, res.Plan.Summary, want)
	}
	after := f.browse("QM1.DEADQ")
	if len(after) != 1 || after[0].MD != before.MD || string(after[0].Data) != string(before.Data) {
		t.Errorf("the original changed: %+v", after)
	}
	cp := f.browse("PARKING.Q")[0]
	md, data := original(1)
	if cp.MD.MsgId == md.MsgId {
		t.Errorf("copy kept MsgId %x", cp.MD.MsgId)
	}
	if cp.MD.CorrelId != md.CorrelId || contextOf(cp.MD) != contextOf(md) || string(cp.Data) != string(data) ||
		mqfmt.Trim(cp.MD.Format) != "MQSTR" || cp.MD.BackoutCount != 0 {
		t.Errorf("copy: CorrelId %x context %s format %q data %q", cp.MD.CorrelId, contextOf(cp.MD), cp.MD.Format, cp.Data)
	}
}

func testReplayKeepMsgIdOnRequest(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q", KeepMsgId: true})
	md, _ := original(1)
	if res.Done != 1 || f.browse("PARKING.Q")[0].MD.MsgId != md.MsgId {
		t.Fatalf("done %d, copy MsgId differs", res.Done)
	}
	wantDepths(t, f, map[string]int{"ORDERS.BO": 1})
}

func testReplayWithoutATargetTheCopyGoesWhereARequeueWould(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "PAYMENTS.IN", "QM1", mqfmt.RCQFull)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "QM1.DEADQ", All: true})
	if res.Done != 1 || res.Items[0].Target != "PAYMENTS.IN" {
		t.Fatalf("done %d target %q", res.Done, res.Items[0].Target)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "PAYMENTS.IN": 1})
}

func testReplayReplayToTheSourceWithTheSameMsgIdIsRefused(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	_, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "ORDERS.BO", KeepMsgId: true})
	if err == nil || !strings.Contains(err.Error(), "would duplicate") {
		t.Fatalf("err %v", err)
	}
}

func testReplayEachCopyTheTargetRefusesFailsAloneAndTheRestArePut(t *testing.T) {
	f := newOpFixture(t, "ALTER QLOCAL(PARKING.Q) MAXMSGL(12)\n")
	c := f.conn()
	md, _ := original(1)
	f.putSetAll(c, "ORDERS.BO", md, []byte("far too long for PARKING.Q"))
	f.backedOut(c, 2, "ORDERS.BO", "")
	md3, _ := original(3)
	f.putSetAll(c, "ORDERS.BO", md3, []byte("short"))
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q"}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Done != 1 || res.Failed != 2 || res.Items[0].Reason != int32(mqfmt.RCMsgTooBigForQ) {
		t.Fatalf("done %d failed %d first %+v", res.Done, res.Failed, res.Items[0])
	}
	wantDepths(t, f, map[string]int{"PARKING.Q": 1, "ORDERS.BO": 3})
}

func testReplayDefaultContextNeedsNoSetallAndSaysSo(t *testing.T) {
	f := newOpFixture(t, "SET AUTHREC PROFILE('**') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET,INQ,PUT,DSP)\n"+
		"SET AUTHREC PRINCIPAL('ops') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ,DSP)\n")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	eng := f.engine(func(o *ops.EngineOptions) { o.Connect.User = "ops" })
	req := ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q"}
	_, err := eng.Run(f.ctx, req, nil)
	var cae *ops.ContextAuthorityError
	if !errorsAs(err, &cae) || cae.Need != "setall" {
		t.Fatalf("err %v, want a ContextAuthorityError needing setall", err)
	}
	req.Context = ops.ContextDefault
	res := f.run(eng, req)
	if res.Done != 1 || !strings.Contains(res.Plan.Summary, "default context") {
		t.Fatalf("done %d summary %q", res.Done, res.Plan.Summary)
	}
	if u := mqfmt.Trim(f.browse("PARKING.Q")[0].MD.UserIdentifier); u != "ops" {
		t.Errorf("UserIdentifier %q, want ops", u)
	}
}

func testReplayCommitLostWithTheConnectionIsReportedInDoubt(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbCommit, Break: true, Times: 1})
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q"}, nil)
	if err == nil || res.InDoubt != 1 || res.Items[0].Text(res.Plan.Request.Op) != "in doubt" {
		t.Fatalf("err %v in doubt %d outcome %q", err, res.InDoubt, res.Items[0].Text(res.Plan.Request.Op))
	}
	wantDepths(t, f, map[string]int{"PARKING.Q": 0, "ORDERS.BO": 1})
}
