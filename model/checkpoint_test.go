package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A checkpoint folds on without changing the state it was taken from:
// rings, groups, the alert book and the age bands (R8f) are its own.
func TestCheckpointFoldsOnIndependently(t *testing.T) {
	t0 := time.Date(2026, 3, 9, 21, 0, 0, 0, time.UTC)
	snap := func(seq uint64, n int) *mqwatch.Snapshot {
		var sums []mqwatch.Summary
		for i := range n {
			s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", PutTime: t0.Add(-48 * time.Hour)}
			s.MsgId[0], s.MsgId[1] = byte(i), byte(i>>8)
			sums = append(sums, s)
		}
		inv := (*mqwatch.Inventory)(nil).Append(sums...)
		return &mqwatch.Snapshot{Seq: seq, Time: t0.Add(time.Duration(seq) * time.Minute), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 5000}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(n)}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}}
	}
	s := New(func() time.Time { return t0 }, time.Minute)
	s.Fold(snap(1, 10))
	before := s.QMgr("QM1").Queues["DLQ"].Depth.Len()
	c := s.Checkpoint()
	c.Fold(snap(2, 30))
	c.Fold(snap(3, 50))
	if got := s.QMgr("QM1").Queues["DLQ"].Depth.Len(); got != before {
		t.Fatalf("the state's depth ring grew from %d to %d by the checkpoint's folds", before, got)
	}
	if s.QMgr("QM1").Snap.Seq != 1 || c.QMgr("QM1").Snap.Seq != 3 {
		t.Fatalf("snapshots: state %d, checkpoint %d", s.QMgr("QM1").Snap.Seq, c.QMgr("QM1").Snap.Seq)
	}
	if h := s.QMgr("QM1").ages["DLQ"]; h != nil && h.inv.Len() != 10 {
		t.Fatalf("the state's age bands count %d messages, want the 10 it folded", h.inv.Len())
	}
}
