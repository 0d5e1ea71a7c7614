package ops_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestPlanSummary(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 2, "", "QM1", mqfmt.RCQFull)
	f.backedOut(c, 3, "ORDERS.BO", "")
	eng := f.engine()
	file := filepath.Join(f.dir, "x.dmp")
	f.run(eng, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: file})
	cases := []struct {
		name string
		req  ops.OpRequest
		want string
	}{
		{"R10b_skipped_messages_are_counted", ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true},
			"Requeue 1 message from QM1.DEADQ to their original queues: ORDERS.IN ×1; move, not copy; MQDLH removed; 1 skipped"},
		{"R10b_default_context_and_rate_are_said", ops.OpRequest{Op: ops.OpRequeue, Queue: "ORDERS.BO", All: true,
			Context: ops.ContextDefault, Rate: 2.5},
			"Requeue 1 message from ORDERS.BO to their input queues: ORDERS.IN ×1; move, not copy; default context: your user ID and the current time replace the original context; at most 2.5 messages per second"},
		{"R10a_remote_target", ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true, Target: "ORDERS.IN", TargetQMgr: "QM2"},
			"Move 1 message from ORDERS.BO to ORDERS.IN@QM2; move, not copy; headers unchanged"},
		{"R10d_archive_file_is_named", ops.OpRequest{Op: ops.OpDiscard, Queue: "ORDERS.BO", All: true, File: "/a/b.dmp"},
			"Discard 1 message from ORDERS.BO; each is archived to /a/b.dmp before the removal is committed"},
		{"R10e_replay_keeping_MsgIds", ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q", KeepMsgId: true},
			"Replay 1 message from ORDERS.BO to PARKING.Q; copy, originals stay; MsgIds kept"},
		{"import", ops.OpRequest{Op: ops.OpImport, File: file, Target: "PARKING.Q"},
			"Import 2 messages from " + file + " to PARKING.Q; MsgIds and context from the file"},
		{"limit_says_more_match", ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: "y", Limit: 1},
			"Export 1 message from QM1.DEADQ to y; browse only, QM1.DEADQ unchanged; more messages match than the limit of 1: run again for the rest"},
		{"nothing_selected", ops.OpRequest{Op: ops.OpMove, Queue: "PARKING.Q", All: true, Target: "ORDERS.IN"},
			"Move 0 messages from PARKING.Q to ORDERS.IN; move, not copy; headers unchanged"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := eng.Plan(f.ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if p.Summary != tc.want {
				t.Errorf("\n got %q\nwant %q", p.Summary, tc.want)
			}
		})
	}
}

func TestPlanRefusals(t *testing.T) {
	f := newOpFixture(t, "")
	eng := f.engine()
	cases := []struct {
		name string
		req  ops.OpRequest
		want string
	}{
		{"unknown_action", ops.OpRequest{Op: "purge", Queue: "Q", All: true}, "unknown action"},
		{"no_selection", ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ"}, "no selection"},
		{"batch_over_MAXUMSGS", ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Batch: 6000}, "batch 6000"},
		{"another_queue_manager", ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM9", Queue: "QM1.DEADQ", All: true}, "connected to queue manager QM1"},
		{"export_without_file", ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true}, "needs a file"},
		{"unknown_source", ops.OpRequest{Op: ops.OpRequeue, Queue: "NO.Q", All: true}, "MQRC_UNKNOWN_OBJECT_NAME"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := eng.Plan(f.ctx, tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestEngineOnOneBorrowedConnection(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 30; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	eng := f.engine(func(o *ops.EngineOptions) { o.Connector, o.Conn = nil, c })
	res := f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Batch: 7})
	if res.Done != 30 {
		t.Fatalf("done %d", res.Done)
	}
	if _, err := c.QMgr(f.ctx); err != nil {
		t.Errorf("the borrowed connection was closed: %v", err)
	}
	wantDepths(t, f, map[string]int{"ORDERS.IN": 30, "QM1.DEADQ": 0})
}

func TestEngineOps(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	eo := ops.EngineOps{Engine: f.engine()}
	s := f.summaries("QM1.DEADQ")[0]
	if m, err := eo.Fetch(f.ctx, "QM1", "QM1.DEADQ", s); err != nil || m.MD.MsgId != s.MsgId {
		t.Fatalf("Fetch: %v", err)
	}
	if _, err := eo.Fetch(f.ctx, "QM2", "QM1.DEADQ", s); err == nil {
		t.Error("another queue manager was not refused")
	}
	if p, err := eo.Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", Messages: []mqwatch.Summary{s}}); err != nil || len(p.Items) != 1 {
		t.Errorf("Plan: %v", err)
	}
}

// TestR10_DryRunNeverCountsAMessageThatIsGone: a message the operator listed
// and someone (or an earlier run) removed since is skipped as gone in the
// dry run, so the count to confirm is what can really be acted on.
func TestR10_DryRunNeverCountsAMessageThatIsGone(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	seen := f.summaries("QM1.DEADQ")
	f.run(f.engine(), ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", Messages: seen[:1], File: filepath.Join(f.dir, "a.dmp")})
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", Messages: seen, File: filepath.Join(f.dir, "b.dmp")})
	if err != nil {
		t.Fatal(err)
	}
	b := plan.Breakdown()
	if b.Act != 2 || len(b.Skipped) != 1 || b.Skipped[0].Count != 1 || !strings.HasPrefix(b.Skipped[0].Cause, "gone") {
		t.Fatalf("dry run after one of three was discarded: %+v", b)
	}
	if plan.Items[0].Reason != int32(mqfmt.RCNoMsgAvailable) {
		t.Errorf("the gone message's reason is %d, want MQRC_NO_MSG_AVAILABLE", plan.Items[0].Reason)
	}
}

// TestR10_BrowsedListsAreNotLookedForAgain: a caller that browsed the
// messages for this very request (a rules table's preview or run) spares
// the queue manager a second browse of each; the run still verifies every
// message at its get, so one gone by then is skipped with 2033.
func TestR10_BrowsedListsAreNotLookedForAgain(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	seen := f.summaries("QM1.DEADQ")
	f.run(f.engine(), ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", Messages: seen, File: filepath.Join(f.dir, "a.dmp")})
	req := ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", Messages: seen, Browsed: true, File: filepath.Join(f.dir, "b.dmp")}
	plan, err := f.engine().Plan(f.ctx, req)
	if err != nil || plan.Breakdown().Act != 1 {
		t.Fatalf("a browsed list is planned as given: %+v %v", plan.Breakdown(), err)
	}
	res := f.run(f.engine(), req)
	if res.Done != 0 || res.Skipped != 1 || res.Items[0].Reason != int32(mqfmt.RCNoMsgAvailable) {
		t.Fatalf("the run of a gone message: done %d skipped %d %+v", res.Done, res.Skipped, res.Items[0])
	}
}

// TestR10f_RequeueOfRefusedContentComesBack: dead letters a consumer
// refused for what they contain (R6 MQRC_JMS_FORMAT_ERROR) would come back
// if put back unchanged: the dry run counts them in breakdown.comes_back
// and warns with the count and the cause; a queue-full dead letter whose
// queue has room now does not come back.
func TestR10f_RequeueOfRefusedContentComesBack(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCJMSFormatError)
	f.deadLetter(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil {
		t.Fatal(err)
	}
	b := plan.Breakdown()
	if b.Back() != 1 || b.ComesBack[0].Reason != int32(mqfmt.RCJMSFormatError) || b.Act != 2 || b.Clean() {
		t.Fatalf("breakdown %+v, want 1 of 2 coming back with 2364", b)
	}
	warned := 0
	for _, w := range plan.Warnings {
		if strings.HasPrefix(w, "would come back: 1 (consumer of ORDERS.IN refused them for their content (MQRC_JMS_FORMAT_ERROR 2364)") {
			warned++
		}
	}
	if warned != 1 {
		t.Fatalf("warnings %q", plan.Warnings)
	}
	// To a parking queue they do not meet the consumer that refused them.
	plan, err = f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q"})
	if err != nil || plan.Breakdown().Back() != 0 {
		t.Fatalf("to PARKING.Q: %v %v", plan.Items, err)
	}
}

// TestR10f_FixFirstSizesTheBOQAsTheAlertDoes: dead letters that would come
// back because their consumer's BOQ is full are told to make room first
// with the MAXDEPTH the R8b alert's fix applies (actions.RoomFix), not a
// size of their own: one sizing rule for a queue's fix wherever it is
// offered.
func TestR10f_FixFirstSizesTheBOQAsTheAlertDoes(t *testing.T) {
	f := newOpFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(2)\n")
	c := f.conn()
	for n := 1; n <= 2; n++ {
		md, data := original(100 + n)
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCBackoutThresholdReached)
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true})
	if err != nil || plan.Breakdown().Back() != 1 {
		t.Fatalf("a 2362 dead letter whose BOQ is full: %+v %v", plan.Breakdown(), err)
	}
	want := actions.RoomFix(mqwatch.QueueInfo{Name: "ORDERS.BO", MaxDepth: 2})
	if want != "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)" {
		t.Fatalf("RoomFix of a 2-message BOQ = %q, want MAXDEPTH(5000)", want)
	}
	for _, w := range plan.Warnings {
		if strings.HasPrefix(w, "fix first:") && strings.Contains(w, want) {
			return
		}
	}
	t.Fatalf("no fix first with %q in %q", want, plan.Warnings)
}
