package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestR10bRequeueNeverTargetsTheSourceItself(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true,
		Target: "QM1.DEADQ", TargetQMgr: "QM1"}, nil)
	m := f.browse("QM1.DEADQ")
	_ = err
	if res.Done != 0 || !strings.Contains(res.Items[0].Text(res.Plan.Request.Op), "is the source queue itself") {
		t.Errorf("outcome %q, want a skip", res.Items[0].Text(res.Plan.Request.Op))
	}
	if mqfmt.Trim(m[0].MD.Format) != "MQDEAD" {
		t.Errorf("the message was 'requeued' onto its own source and lost its MQDLH (reason, DestQName)")
	}
}
