package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// R10c: when one queue names the BOQ but the message's JMS destination
// names another queue, the plan says so and the operator chooses; the
// engine never sends it to the BOQNAME's queue against its Dst.
func TestR10c_JMSDstContradictingTheBOQNAMEIsTheOperatorsChoice(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.backedOut(c, 1, "ORDERS.BO", "queue:///PAYMENTS.IN") // not ORDERS.IN, whose BOQNAME is ORDERS.BO
	f.backedOut(c, 2, "ORDERS.BO", "queue:///ORDERS.IN")
	f.backedOut(c, 3, "ORDERS.BO", "")
	eng := f.engine()
	res := f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "ORDERS.BO", All: true})
	want := []string{
		"skipped: ORDERS.IN names ORDERS.BO as BOQNAME, but the message's JMS destination is PAYMENTS.IN",
		"requeued", "requeued",
	}
	for i, it := range res.Items {
		if !strings.HasPrefix(it.Text(res.Plan.Request.Op), want[i]) {
			t.Errorf("message %d: %q, want %q", i+1, it.Text(res.Plan.Request.Op), want[i])
		}
	}
	wantDepths(t, f, map[string]int{"ORDERS.BO": 1, "ORDERS.IN": 2, "PAYMENTS.IN": 0})
	res = f.run(eng, ops.OpRequest{Op: ops.OpRequeue, Queue: "ORDERS.BO", All: true, Target: "PAYMENTS.IN"})
	if res.Done != 1 {
		t.Errorf("with a target: done %d", res.Done)
	}
	wantDepths(t, f, map[string]int{"ORDERS.BO": 0, "PAYMENTS.IN": 1})
}
