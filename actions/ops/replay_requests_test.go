package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// replayMix puts 3 requests asking for COA reports to REPLY.Q@QM1, a
// request that asked for its CorrelId to be passed, and 2 datagrams asking
// for COD and exception reports to AUDIT.Q.
func replayMix(f *opFixture) {
	c := f.conn()
	for n := 1; n <= 6; n++ {
		md, data := original(n)
		switch {
		case n <= 3:
			md.MsgType, md.ReplyToQ, md.ReplyToQMgr, md.Report = mqfmt.MTRequest, "REPLY.Q", "QM1", mqfmt.ROCOA
		case n == 4:
			md.MsgType, md.ReplyToQ, md.ReplyToQMgr, md.Report = mqfmt.MTRequest, "REPLY.Q", "QM1", mqfmt.ROPassCorrelId
		default:
			md.MsgType, md.ReplyToQ, md.ReplyToQMgr = mqfmt.MTDatagram, "AUDIT.Q", "QM1"
			md.Report = mqfmt.ROCODWithData | mqfmt.ROException | mqfmt.ROPassMsgId
		}
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
}

// TestR10e_ReplayPlanNamesRequestsAndReports: the plan says, per reply
// queue, how many requests will get replies their requester cannot match
// and how many reports the copies set off again.
func TestR10e_ReplayPlanNamesRequestsAndReports(t *testing.T) {
	cases := []struct {
		name string
		edit func(*ops.OpRequest)
		want []string
	}{
		{"new MsgIds", func(*ops.OpRequest) {}, []string{
			"3 requests (replies to REPLY.Q@QM1): their replies will carry the new MsgId",
			"3 will send COA reports to REPLY.Q@QM1 again",
			"2 will send COD reports to AUDIT.Q@QM1 again",
			"2 will send exception reports to AUDIT.Q@QM1 again"}},
		{"keep-msgid and no-reports", func(r *ops.OpRequest) { r.KeepMsgId, r.NoReports = true, true }, []string{
			"3 requests to REPLY.Q@QM1 keep their MsgId",
			"3 ask for COA reports to REPLY.Q@QM1: cleared on the copies"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOpFixture(t, "")
			replayMix(f)
			req := ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q"}
			tc.edit(&req)
			p, err := f.engine().Plan(f.ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(p.Warnings, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q:\n%s", w, all)
				}
			}
		})
	}
}

// TestR10e_ReplayNoReportsClearsThemOnTheCopies: --no-reports clears COA,
// COD, exception and expiration (with data) on the copies, keeps every
// other report option, leaves the originals alone and says so in the audit.
func TestR10e_ReplayNoReportsClearsThemOnTheCopies(t *testing.T) {
	f := newOpFixture(t, "")
	replayMix(f)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q", NoReports: true, KeepMsgId: true})
	if res.Done != 6 {
		t.Fatalf("done %d: %s", res.Done, res.Stopped)
	}
	orig := f.browse("ORDERS.BO")
	for i, m := range f.browse("PARKING.Q") {
		want := orig[i].MD.Report &^ (mqfmt.ROCOAWithFullData | mqfmt.ROCODWithFullData | mqfmt.ROExceptionWithFullData | mqfmt.ROExpirationWithFull)
		if m.MD.Report != want || m.MD.MsgId != orig[i].MD.MsgId {
			t.Errorf("copy %d: Report %#x MsgId %x, want %#x and the original's MsgId", i, m.MD.Report, m.MD.MsgId[16:], want)
		}
	}
	if orig[0].MD.Report != mqfmt.ROCOA {
		t.Errorf("the original's Report changed: %#x", orig[0].MD.Report)
	}
	cleared := map[string]string{}
	for _, r := range readAuditFile(t, res.AuditFile) {
		if r.Outcome == "replayed" {
			cleared[r.MsgId] = r.ReportsCleared
		}
	}
	if got := cleared[hexOf(msgID(1))]; got != "COA" {
		t.Errorf("audit of message 1: reports_cleared %q, want COA", got)
	}
	if got := cleared[hexOf(msgID(5))]; got != "COD,exception" {
		t.Errorf("audit of message 5: reports_cleared %q, want COD,exception", got)
	}
	if got := cleared[hexOf(msgID(4))]; got != "" {
		t.Errorf("audit of message 4 (no report asked): %q", got)
	}
}
