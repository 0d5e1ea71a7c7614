package ops_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestR10b_NoPlanItemsRunsTheSameAndLeavesThePlansItemsOut: a requeue whose
// request drops the plan's items (model.RunMarks's, to spare a copy per
// message) does exactly what the same requeue does with them: the same
// outcomes, the same audit lines byte for byte, the same queues.
func TestR10b_NoPlanItemsRunsTheSameAndLeavesThePlansItemsOut(t *testing.T) {
	run := func(noPlanItems bool) (ops.OpResult, []byte, *opFixture) {
		f := newOpFixture(t, "")
		c := f.conn()
		f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
		f.deadLetter(c, 2, "NO.SUCH.QUEUE", "QM1", mqfmt.RCQFull)
		f.deadLetter(c, 3, "PAYMENTS.IN", "QM1", mqfmt.RCQFull)
		eng := f.engine()
		msgs := f.summaries("QM1.DEADQ")
		res, _ := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", Messages: msgs, Workers: 1, NoPlanItems: noPlanItems}, nil)
		audit, err := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return res, audit, f
	}
	with, auditWith, f1 := run(false)
	without, auditWithout, f2 := run(true)
	if len(with.Plan.Items) != 3 || without.Plan.Items != nil {
		t.Fatalf("plan items: %d with, %v without", len(with.Plan.Items), without.Plan.Items)
	}
	if with.Done != 2 || with.Failed != 1 { // NO.SUCH.QUEUE: MQRC_UNKNOWN_OBJECT_NAME
		t.Fatalf("done %d failed %d, want 2 and 1: %+v", with.Done, with.Failed, with.Items)
	}
	if !reflect.DeepEqual(with.Items, without.Items) {
		t.Errorf("items differ\nwith    %+v\nwithout %+v", with.Items, without.Items)
	}
	if with.Done != without.Done || with.Skipped != without.Skipped || with.Failed != without.Failed || with.NotDone != without.NotDone {
		t.Errorf("counts differ: %+v / %+v", with, without)
	}
	if string(auditWith) != string(auditWithout) {
		t.Errorf("audit lines differ\nwith:\n%s\nwithout:\n%s", auditWith, auditWithout)
	}
	for _, q := range []string{"QM1.DEADQ", "ORDERS.IN", "PAYMENTS.IN"} {
		if a, b := len(f1.browse(q)), len(f2.browse(q)); a != b {
			t.Errorf("%s holds %d with the plan's items, %d without", q, a, b)
		}
	}
}
