package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// scanStep is one snapshot of a DEADQ being read: the first n of its
// messages, partial (Scan set) or the poll's own.
type scanStep struct {
	n       int
	partial bool
	delta   mqwatch.InventoryDelta
}

// A DEADQ read from scratch arrives as partial snapshots then the poll's
// own: after each, the groups are those of what was read; the history
// (depth, arrivals, sparklines) moves only with the poll's own snapshots,
// and messages that were on the queue before the read are never counted as
// arrivals, on the first read or on a re-read.
func TestFoldPartialSnapshots(t *testing.T) {
	all := make([]mqwatch.Summary, 0, 340)
	for i := 0; i < 340; i++ {
		dest, reason := "INVOICE.IN", int32(2085)
		if i%4 == 0 {
			dest, reason = "AUDIT.IN", 2053
		}
		s := dl(i, reason, dest)
		s.Arrival = uint64(i + 1)
		all = append(all, s)
	}
	inv := func(n int) *mqwatch.Inventory { return (*mqwatch.Inventory)(nil).Append(all[:n]...) }
	resync := mqwatch.InventoryDelta{Resync: true}
	steps := []struct {
		scanStep
		wantHistory int     // points in the DEADQ's depth ring
		wantArrived float64 // messages counted as arrivals
	}{
		{scanStep{100, true, resync}, 0, 0},
		{scanStep{200, true, resync}, 0, 0},
		{scanStep{300, false, resync}, 1, 0},
		{scanStep{310, false, mqwatch.InventoryDelta{Added: all[300:310]}}, 2, 10},
		// A re-read (the counts disagreed): partial from scratch again,
		// then the poll's own with 20 more than before the re-read.
		{scanStep{50, true, resync}, 2, 10},
		{scanStep{330, false, resync}, 3, 30},
		// A burst read incrementally: partial deltas list arrivals.
		{scanStep{335, true, mqwatch.InventoryDelta{Added: all[330:335]}}, 3, 35},
		{scanStep{340, false, mqwatch.InventoryDelta{Added: all[335:340]}}, 4, 40},
	}
	s := New(nil, 2*time.Second)
	var b snapBuilder
	for i, st := range steps {
		b.views = []mqwatch.QueueView{local("DLQ", 340, 5000, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": inv(st.n)}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": st.delta}
		snap := b.snap(t0.Add(time.Duration(i/3) * 2 * time.Second))
		if st.partial {
			snap.Scan = &mqwatch.ScanProgress{Queue: "DLQ", Scanned: st.n, Depth: 340}
		}
		s.Fold(snap)
		q := s.QMgr("QM1")
		if err := sameGroups(q.Groups["DLQ"], BuildGroups("DLQ", true, snap.Inventories["DLQ"])); err != nil {
			t.Fatalf("step %d (%d read): %v", i, st.n, err)
		}
		qs := q.Queues["DLQ"]
		if qs.Depth.Len() != st.wantHistory || qs.Arrived.Len() != st.wantHistory {
			t.Fatalf("step %d: %d depth points, %d arrival points; want %d", i, qs.Depth.Len(), qs.Arrived.Len(), st.wantHistory)
		}
		if qs.arrived != st.wantArrived {
			t.Fatalf("step %d: %v arrivals counted, want %v", i, qs.arrived, st.wantArrived)
		}
		if q.Snap != snap || q.Snap.Scan != snap.Scan {
			t.Fatalf("step %d: the state does not show the snapshot folded", i)
		}
	}
}
