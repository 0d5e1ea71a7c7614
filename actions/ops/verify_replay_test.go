package ops_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestR10f_ReplayCheckSeesCopiesComeBack: a replay's copies get new MsgIds,
// so the check after the run tells a copy that came back from its original,
// which stays on the DEADQ: the consumer of ORDERS.IN dead-letters the first
// copy again during the window, and only that one is counted back. The copy
// still waiting on ORDERS.IN is not.
func TestR10f_ReplayCheckSeesCopiesComeBack(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetterBy(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull, "OrdersMDB", "")
	f.deadLetterBy(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull, "OrdersMDB", "")
	sleeps := 0
	consumer := func(o *ops.EngineOptions) {
		clockSleep := o.Sleep
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			if sleeps++; sleeps == 2 { // the consumer refuses the first copy
				refuseFirst(t, f, c, "ORDERS.IN")
			}
			return clockSleep(ctx, d)
		}
	}
	res := f.run(f.engine(consumer), ops.OpRequest{Op: ops.OpReplay, Queue: "QM1.DEADQ", All: true, Verify: 10 * time.Second})
	v := res.Verify
	if v == nil || v.Skipped != "" || v.Watched != 2 || v.CameBack != 1 || !res.Items[0].CameBack || res.Items[1].CameBack {
		t.Fatalf("check %+v, items %+v", v, res.Items)
	}
	for i, it := range res.Items {
		if it.CopyMsgId == ([24]byte{}) || it.CopyMsgId == it.Msg.MsgId {
			t.Errorf("item %d: copy MsgId %x, original %x", i, it.CopyMsgId, it.Msg.MsgId)
		}
	}
	if s := v.Sentence(); !strings.HasPrefix(s, "1 back on QM1.DEADQ within 2 s (2053: ") {
		t.Fatalf("sentence %q", s)
	}
	// The originals stayed; the dead-lettered copy joined them.
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 3, "ORDERS.IN": 1})
	recs := auditLines(t, f)
	var replayed, back int
	for _, r := range recs {
		if r.CopyMsgId == "" {
			continue
		}
		switch {
		case r.Outcome == "replayed":
			replayed++
		case strings.HasPrefix(r.Outcome, "came back to QM1.DEADQ within 2 s (R10f requeue loop; run of "):
			back++
			if want := hexOf(res.Items[0].CopyMsgId); r.CopyMsgId != want || r.MsgId != hexOf(res.Items[0].Msg.MsgId) {
				t.Errorf("came-back line names copy %s of %s, want %s of the first", r.CopyMsgId, r.MsgId, want)
			}
		}
	}
	if replayed != 2 || back != 1 {
		t.Fatalf("audit: %d replayed lines with the copy's MsgId, %d came back\n%+v", replayed, back, recs)
	}
}

// TestR10f_ReplayKeepMsgIdCheckSkipped: with --keep-msgid a copy and its
// original share a MsgId, and the original stays on the source: the check
// says why it cannot run instead of counting the originals as come back.
func TestR10f_ReplayKeepMsgIdCheckSkipped(t *testing.T) {
	f := newOpFixture(t, "")
	f.backedOut(f.conn(), 1, "ORDERS.BO", "")
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q",
		KeepMsgId: true, Verify: 10 * time.Second})
	v := res.Verify
	if res.Done != 1 || v == nil || v.Watched != 0 || v.CameBack != 0 || res.Items[0].CameBack {
		t.Fatalf("done %d, check %+v", res.Done, v)
	}
	want := "check after the run skipped: --keep-msgid: each copy has its original's MsgId and the originals stay on ORDERS.BO, so a copy that came back cannot be told from its original"
	if s := v.Sentence(); s != want {
		t.Fatalf("sentence %q\nwant %q", s, want)
	}
}

// refuseFirst is a consumer of queue that gets its first message and
// dead-letters it with MQRC_Q_FULL, as an MDB whose reply queue is full.
func refuseFirst(t *testing.T, f *opFixture, c mqwatch.Conn, queue string) {
	t.Helper()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := q.Get(f.ctx, mqwatch.GetOptions{})
	_ = q.Close(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	dmd, ddata, err := actions.ToDeadLetter(m.MD, m.Data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull,
		DestQName: queue, DestQMgrName: "QM1", PutApplName: "OrdersMDB", Now: f.clk.Now()})
	if err != nil {
		t.Fatal(err)
	}
	f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
}
