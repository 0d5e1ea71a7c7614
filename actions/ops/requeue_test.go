package ops_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestRequeue(t *testing.T) {
	t.Run("R10b_DEADQ_message_returns_to_DestQName_with_MQDLH_removed_and_MQMD_restored", testRequeueDEADQMessageReturnsToDestQNameWithMQDLHRemovedAndMQMDRestored)
	t.Run("R10b_remote_DestQMgrName_is_reached_through_ObjectQMgrName", testRequeueRemoteDestQMgrNameIsReachedThroughObjectQMgrName)
	t.Run("R10b_unreadable_MQDLH_is_skipped_with_its_byte_offset_and_stays", testRequeueUnreadableMQDLHIsSkippedWithItsByteOffsetAndStays)
	t.Run("R10b_target_override_still_removes_the_MQDLH", testRequeueTargetOverrideStillRemovesTheMQDLH)
	testRequeueBOQ(t)
}

// testRequeueBOQ covers R10c: the input queue whose BOQNAME names the BOQ.
func testRequeueBOQ(t *testing.T) {
	t.Run("R10c_BOQ_of_one_input_queue_returns_there", testRequeueBOQBOQOfOneInputQueueReturnsThere)
	t.Run("R10c_shared_BOQ_the_jms_Dst_decides", testRequeueBOQSharedBOQTheJmsDstDecides)
	t.Run("R10c_shared_BOQ_without_a_JMS_destination_needs_the_operator", testRequeueBOQSharedBOQWithoutAJMSDestinationNeedsTheOperator)
	t.Run("R10c_queue_that_is_no_BOQ_and_has_no_MQDLH_is_skipped", testRequeueBOQQueueThatIsNoBOQAndHasNoMQDLHIsSkipped)
}

// checkRestored checks a requeued message against the original (R10b).
func checkRestored(t *testing.T, m mqwatch.Message, md mqfmt.MQMD, data []byte) {
	t.Helper()
	got := m.MD
	if mqfmt.Trim(got.Format) != mqfmt.Trim(md.Format) || got.CodedCharSetId != md.CodedCharSetId || got.Encoding != md.Encoding {
		t.Errorf("MQMD Format %q CCSID %d Encoding %d, want %q %d %d", got.Format, got.CodedCharSetId, got.Encoding,
			md.Format, md.CodedCharSetId, md.Encoding)
	}
	if got.MsgId != md.MsgId || got.CorrelId != md.CorrelId {
		t.Errorf("MsgId/CorrelId changed: %x %x", got.MsgId, got.CorrelId)
	}
	if contextOf(got) != contextOf(md) {
		t.Errorf("context\n got %s\nwant %s", contextOf(got), contextOf(md))
	}
	if got.BackoutCount != 0 || got.Persistence != md.Persistence {
		t.Errorf("BackoutCount %d Persistence %d", got.BackoutCount, got.Persistence)
	}
	if string(m.Data) != string(data) {
		t.Errorf("data %q, want %q", m.Data, data)
	}
}

func hexShort(id [24]byte) string { return strings.TrimRight(string(id[:8]), " ") }

func testRequeueDEADQMessageReturnsToDestQNameWithMQDLHRemovedAndMQMDRestored(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 2, "ORDERS.IN", "", mqfmt.RCPutInhibited)
	f.deadLetter(c, 3, "PAYMENTS.IN", "QM1", mqfmt.RCQFull)
	// One worker keeps the DEADQ's order on ORDERS.IN, which the check below relies on.
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Workers: 1})
	if res.Done != 3 || res.Skipped+res.Failed+res.NotDone != 0 {
		t.Fatalf("done %d skipped %d failed %d not done %d, want 3 done\n%+v", res.Done, res.Skipped, res.Failed, res.NotDone, res.Items)
	}
	want := "Requeue 3 messages from QM1.DEADQ to their original queues: ORDERS.IN ×2, PAYMENTS.IN ×1; move, not copy; MQDLH removed"
	if res.Plan.Summary != want {
		t.Errorf("summary\n got %q\nwant %q", res.Plan.Summary, want)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 0, "ORDERS.IN": 2, "PAYMENTS.IN": 1})
	for i, m := range f.browse("ORDERS.IN") {
		md, data := original(i + 1)
		checkRestored(t, m, md, data)
	}
	for _, it := range res.Items {
		if it.Text(res.Plan.Request.Op) != "requeued" || !strings.HasPrefix(it.Why, "R10b") {
			t.Errorf("item %s → %s: outcome %q why %q", hexShort(it.Msg.MsgId), it.Target, it.Text(res.Plan.Request.Op), it.Why)
		}
	}
}

func testRequeueRemoteDestQMgrNameIsReachedThroughObjectQMgrName(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM2", mqfmt.RCUnknownObjectName)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if res.Done != 1 || res.Items[0].TargetQMgr != "QM2" || res.Plan.Targets["ORDERS.IN@QM2"] != 1 {
		t.Fatalf("done %d, item %+v, targets %v", res.Done, res.Items[0], res.Plan.Targets)
	}
	xmit := f.browse("QM2")
	if len(xmit) != 1 {
		t.Fatalf("transmission queue QM2 holds %d messages, want 1", len(xmit))
	}
	x, err := mqfmt.DecodeXQH(xmit[0].Data, 0, binary.LittleEndian)
	if err != nil {
		t.Fatalf("MQXQH: %v", err)
	}
	if mqfmt.Trim(x.RemoteQName) != "ORDERS.IN" || mqfmt.Trim(x.RemoteQMgrName) != "QM2" {
		t.Errorf("MQXQH names %q on %q, want ORDERS.IN on QM2", x.RemoteQName, x.RemoteQMgrName)
	}
	md, data := original(1)
	if mqfmt.Trim(x.MsgDesc.Format) != "MQSTR" || x.MsgDesc.CodedCharSetId != 819 || x.MsgDesc.MsgId != md.MsgId {
		t.Errorf("message in MQXQH: Format %q CCSID %d MsgId %x", x.MsgDesc.Format, x.MsgDesc.CodedCharSetId, x.MsgDesc.MsgId)
	}
	if got := string(xmit[0].Data[mqfmt.XQHLen:]); got != string(data) {
		t.Errorf("data %q, want %q (no MQDLH)", got, data)
	}
}

func testRequeueUnreadableMQDLHIsSkippedWithItsByteOffsetAndStays(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	md, _ := original(1)
	md.Format = mqfmt.FmtDeadLetter
	f.putSetAll(c, "QM1.DEADQ", md, []byte("DLH \x00\x00\x00\x09 too short"))
	f.deadLetter(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Done != 1 || res.Skipped != 1 {
		t.Fatalf("done %d skipped %d, want 1 and 1", res.Done, res.Skipped)
	}
	if o := res.Items[0].Text(res.Plan.Request.Op); !strings.HasPrefix(o, "skipped: the MQDLH cannot be read") || !strings.Contains(o, "at byte 0") {
		t.Errorf("outcome %q, want the MQDLH failure with its offset", o)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 1})
}

func testRequeueTargetOverrideStillRemovesTheMQDLH(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q"})
	if res.Items[0].Why != "target override" {
		t.Errorf("why %q", res.Items[0].Why)
	}
	want := "Requeue 1 message from QM1.DEADQ to PARKING.Q (target override); move, not copy; MQDLH removed"
	if res.Plan.Summary != want {
		t.Errorf("summary %q, want %q", res.Plan.Summary, want)
	}
	md, data := original(1)
	checkRestored(t, f.browse("PARKING.Q")[0], md, data)
}

func testRequeueBOQBOQOfOneInputQueueReturnsThere(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "ORDERS.BO", All: true})
	if res.Done != 1 || res.Items[0].Target != "ORDERS.IN" || res.Items[0].Why != "R10c BOQNAME of ORDERS.IN" {
		t.Fatalf("done %d item %+v", res.Done, res.Items[0])
	}
	want := "Requeue 1 message from ORDERS.BO to their input queues: ORDERS.IN ×1; move, not copy"
	if res.Plan.Summary != want {
		t.Errorf("summary %q, want %q", res.Plan.Summary, want)
	}
	m := f.browse("ORDERS.IN")[0]
	md, _ := original(1)
	if m.MD.MsgId != md.MsgId || m.MD.BackoutCount != 0 || contextOf(m.MD) != contextOf(md) {
		t.Errorf("requeued MQMD: MsgId %x BackoutCount %d context %s", m.MD.MsgId, m.MD.BackoutCount, contextOf(m.MD))
	}
}

func testRequeueBOQSharedBOQTheJmsDstDecides(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.backedOut(c, 1, "SHARED.BO", "queue:///PAYMENTS.IN")
	f.backedOut(c, 2, "SHARED.BO", "queue://QM1/REFUNDS.IN?persistence=2")
	f.backedOut(c, 3, "SHARED.BO", "queue:///REFUNDS.ALIAS")
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "SHARED.BO", All: true})
	if res.Done != 3 {
		t.Fatalf("done %d, items %+v", res.Done, res.Items)
	}
	wantDepths(t, f, map[string]int{"SHARED.BO": 0, "PAYMENTS.IN": 1, "REFUNDS.IN": 2})
	if w := res.Items[2].Why; !strings.Contains(w, "R10c jms Dst REFUNDS.ALIAS (base REFUNDS.IN)") {
		t.Errorf("alias destination why %q", w)
	}
}

func testRequeueBOQSharedBOQWithoutAJMSDestinationNeedsTheOperator(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "SHARED.BO", "")
	eng := f.engine()
	res := f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "SHARED.BO", All: true})
	want := "skipped: PAYMENTS.IN, REFUNDS.IN all name SHARED.BO as BOQNAME and no JMS destination picks one: give a target"
	if res.Done != 0 || res.Skipped != 1 || res.Items[0].Text(res.Plan.Request.Op) != want {
		t.Fatalf("done %d skipped %d outcome %q\nwant %q", res.Done, res.Skipped, res.Items[0].Text(res.Plan.Request.Op), want)
	}
	res = f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "SHARED.BO", All: true, Target: "REFUNDS.IN"})
	if res.Done != 1 {
		t.Fatalf("with a target: done %d", res.Done)
	}
	wantDepths(t, f, map[string]int{"SHARED.BO": 0, "REFUNDS.IN": 1})
}

func testRequeueBOQQueueThatIsNoBOQAndHasNoMQDLHIsSkipped(t *testing.T) {
	f := newOpFixture(t, "")
	md, data := original(1)
	f.putSetAll(f.conn(), "PARKING.Q", md, data)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "PARKING.Q", All: true})
	if res.Skipped != 1 || !strings.Contains(res.Items[0].Text(res.Plan.Request.Op), "no queue names PARKING.Q as its BOQNAME") {
		t.Fatalf("skipped %d outcome %q", res.Skipped, res.Items[0].Text(res.Plan.Request.Op))
	}
}
