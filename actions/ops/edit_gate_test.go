package ops_test

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// putOn puts md and data on queue with md's context and returns the
// summary a watcher would show.
func (f *opFixture) putOn(queue string, md mqfmt.MQMD, data []byte) mqwatch.Summary {
	f.t.Helper()
	f.putSetAll(f.conn(), queue, md, data)
	ss := f.summaries(queue)
	return ss[len(ss)-1]
}

func TestR10i_EditOfOneSegmentIsRefused(t *testing.T) {
	f := newOpFixture(t, "")
	md, data := original(1)
	md.Version, md.GroupId, md.MsgFlags, md.Offset = 2, msgID(99), mqfmt.MFSegment, 4096
	s := f.putOn("PARKING.Q", md, data)
	_, err := f.engine().Edit(f.ctx, ops.EditRequest{Queue: "PARKING.Q", Msg: s, Body: []byte(`{"order":2}`)})
	if err == nil || !strings.Contains(err.Error(), "one segment (offset 4096") {
		t.Fatalf("Edit of a segment: %v, want a refusal naming the segment", err)
	}
	if got := f.browse("PARKING.Q"); len(got) != 1 || string(got[0].Data) != string(data) {
		t.Fatalf("PARKING.Q = %d messages, want the segment untouched", len(got))
	}
	if a := auditLines(t, f); len(a) != 1 || !strings.HasPrefix(a[0].Outcome, "skipped: refused: it is one segment") {
		t.Fatalf("audit = %+v, want one line saying the edit was refused", a)
	}
}

func TestR10i_EditPlanNamesAGroupARequestAndReports(t *testing.T) {
	f := newOpFixture(t, "")
	md, data := original(1)
	md.Version, md.GroupId, md.MsgFlags, md.MsgSeqNumber = 2, msgID(99), mqfmt.MFMsgInGroup, 3
	md.MsgType, md.ReplyToQ, md.Report = mqfmt.MTRequest, "REPLY.Q", mqfmt.ROCOAWithFullData
	s := f.putOn("PARKING.Q", md, data)
	p, err := f.engine().PlanEdit(f.ctx, ops.EditRequest{Queue: "PARKING.Q", Msg: s, Body: []byte(`{"order":2}`)})
	if err != nil {
		t.Fatalf("PlanEdit: %v", err)
	}
	all := strings.Join(p.Warnings, "\n")
	for _, want := range []string{"message 3 of a group", "replies to REPLY.Q", "COA reports to REPLY.Q"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
}

// jmsDeadLetter is a 2364 dead letter for ORDERS.IN with an MQRFH2, its
// StrucLength overrunning the data when broken (as a truncating bridge
// leaves it).
func (f *opFixture) jmsDeadLetter(broken bool) mqwatch.Summary {
	f.t.Helper()
	md, text := original(1)
	rfh := mqfmt.NewRFH2(md.Encoding, md.CodedCharSetId, md.Format, mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text")))
	hdr, err := rfh.AppendEncode(nil, binary.BigEndian)
	if err != nil {
		f.t.Fatal(err)
	}
	if broken {
		binary.BigEndian.PutUint32(hdr[8:], uint32(len(hdr)+len(text)+4096))
	}
	md.Format, md.CodedCharSetId = mqfmt.FmtRFH2, 1208
	f.deadLetterMsg(f.conn(), md, append(hdr, text...), "ORDERS.IN", "", mqfmt.RCJMSFormatError)
	return f.summaries("QM1.DEADQ")[0]
}

func TestR10f_EditOfA2364WhoseHeadersStayBrokenWouldComeBack(t *testing.T) {
	f := newOpFixture(t, "")
	s := f.jmsDeadLetter(true)
	p, err := f.engine().PlanEdit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte(`fixed body`)})
	if err != nil {
		t.Fatalf("PlanEdit: %v", err)
	}
	if !strings.Contains(p.ComesBack, "still broken") || !strings.Contains(strings.Join(p.Warnings, "\n"), "would come back") {
		t.Fatalf("ComesBack %q, warnings %q: want the broken headers named as why it comes back", p.ComesBack, p.Warnings)
	}
	f2 := newOpFixture(t, "")
	good := f2.jmsDeadLetter(false)
	p, err = f2.engine().PlanEdit(f2.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: good, Body: []byte(`{"order":1,"fixed":true}`)})
	if err != nil || p.ComesBack != "" || !strings.Contains(strings.Join(p.Warnings, "\n"), "the check after the put tells") {
		t.Fatalf("edited content of a readable 2364: err %v, ComesBack %q, warnings %q: want no prediction, the check named", err, p.ComesBack, p.Warnings)
	}
}

// TestR10f_EditIsCheckedAfterThePut has a consumer dead-letter the copy
// again while the check watches: the result and the audit log say it
// came back, as a requeue's check does.
func TestR10f_EditIsCheckedAfterThePut(t *testing.T) {
	f, s := editFixture(t)
	sleeps := 0
	eng := f.engine(func(o *ops.EngineOptions) {
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			if sleeps++; sleeps == 2 { // the consumer refuses the copy again
				f.bounce("ORDERS.IN", mqfmt.RCQFull)
			}
			return f.clk.Sleep(ctx, d)
		}
	})
	res, err := eng.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte(`{"order":1,"qty":2}`), Verify: 30 * time.Second})
	if err != nil {
		t.Fatalf("Edit: %v", err)
	}
	if v := res.Verify; v == nil || v.Watched != 1 || v.CameBack != 1 || v.Where != "QM1.DEADQ" {
		t.Fatalf("Verify = %+v, want the copy seen back on QM1.DEADQ", res.Verify)
	}
	if run := res.AsRun(); run.Plan.Request.Op != ops.OpEdit || run.Done != 1 || run.Verify.CameBack != 1 || !run.Items[0].CameBack {
		t.Fatalf("AsRun = %+v, want one edit done whose copy came back (the requeue-loop alert reads it)", run)
	}
	a := auditLines(t, f)
	if last := a[len(a)-1]; last.Action != ops.OpEdit || !strings.Contains(last.Outcome, "came back to QM1.DEADQ") || last.CopyMsgId == "" {
		t.Fatalf("last audit line %+v, want the edit's copy coming back", last)
	}
}

// bounce gets the first message of queue and dead-letters it as its
// consumer would.
func (f *opFixture) bounce(queue string, rc mqfmt.Reason) {
	f.t.Helper()
	c := f.conn()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		f.t.Fatalf("open %s: %v", queue, err)
	}
	defer q.Close(f.ctx)
	m, err := q.Get(f.ctx, mqwatch.GetOptions{})
	if err != nil {
		f.t.Fatalf("get %s: %v", queue, err)
	}
	dmd, data, err := actions.ToDeadLetter(m.MD, m.Data, actions.DeadLetterOptions{Reason: rc, DestQName: queue,
		PutApplType: mqfmt.ATJava, PutApplName: "orders-consumer", Now: f.clk.Now()})
	if err != nil {
		f.t.Fatal(err)
	}
	f.putSetAll(c, "QM1.DEADQ", dmd, data)
}
