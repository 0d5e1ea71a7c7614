package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// When MQBACK fails the unit of work may still hold a got message whose put
// failed: committing on that connection again would lose it (R10a).
func TestR10aFailedBackoutNeverCommitsHalfABatch(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		md, data := original(n)
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
	// 2nd put to PARKING.Q fails for that message (item error), and the MQBACK that follows fails once.
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 1, Times: 1, RC: mqfmt.RCMsgTooBigForQ})
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbBackout, Times: 1, RC: mqfmt.Reason(2195)})
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true,
		Target: "PARKING.Q", Workers: 1, Batch: 3}, nil)
	for _, it := range res.Items {
		t.Logf("%x outcome %q", it.Msg.MsgId[16:], it.Text(res.Plan.Request.Op))
	}
	if err == nil || res.Stopped == "" {
		t.Errorf("a failed MQBACK must stop the run: err %v", err)
	}
	src, dst := f.depth("ORDERS.BO"), f.depth("PARKING.Q")
	if src+dst != 3 {
		t.Errorf("lost: ORDERS.BO %d + PARKING.Q %d = %d, want 3", src, dst, src+dst)
	}
}

// For copies, a retry after a failed MQBACK would put a copy twice.
func TestR10aFailedBackoutNeverDuplicatesCopies(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		md, data := original(n)
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 1, Times: 1, RC: mqfmt.RCMsgTooBigForQ})
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbBackout, Times: 1, RC: mqfmt.Reason(2195)})
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true,
		Target: "PARKING.Q", Batch: 3}, nil)
	t.Logf("err %v done %d failed %d", err, res.Done, res.Failed)
	if got := f.depth("PARKING.Q"); got != res.Done {
		t.Errorf("duplicated: PARKING.Q holds %d copies, result says %d replayed", got, res.Done)
	}
}

// TestR10a_ConnectionLostDuringBackoutIsNotInDoubt: an MQBACK that fails
// because the connection is ending (MQRC_CONNECTION_STOPPING 2203, or any
// reason of mqwatch.ConnectionLost) is backed out by the queue manager: the
// run stops saying so, never "in doubt".
func TestR10a_ConnectionLostDuringBackoutIsNotInDoubt(t *testing.T) {
	for _, rc := range []mqfmt.Reason{mqfmt.RCConnectionStopping, 2537, 2538, 2546, 2547} {
		t.Run(rc.String(), func(t *testing.T) {
			f := newOpFixture(t, "")
			c := f.conn()
			for n := 1; n <= 3; n++ {
				md, data := original(n)
				f.putSetAll(c, "ORDERS.BO", md, data)
			}
			f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 1, Times: 1, RC: mqfmt.RCMsgTooBigForQ})
			f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbBackout, Times: 1, RC: rc})
			res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true,
				Target: "PARKING.Q", Workers: 1, Batch: 3}, nil)
			if err == nil || strings.Contains(res.Stopped, "in doubt") || !strings.Contains(res.Stopped, "connection lost") || res.InDoubt != 0 {
				t.Fatalf("stopped %q, in doubt %d, err %v: want a stop for the lost connection, nothing in doubt", res.Stopped, res.InDoubt, err)
			}
		})
	}
}
