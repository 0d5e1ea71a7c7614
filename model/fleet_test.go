package model

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fleetSnap is a connected snapshot of queue manager name with these queues;
// DLQ is its DEADQ.
func fleetSnap(name string, seq uint64, at time.Time, views ...mqwatch.QueueView) *mqwatch.Snapshot {
	dlq := local("DLQ", 0, 50000, 0, "")
	dlq.Role = mqwatch.RoleDeadQ
	return &mqwatch.Snapshot{Seq: seq, Time: at, QMgrName: name, Connected: true,
		QMgr:   mqwatch.QMgrInfo{Name: name, DeadQ: "DLQ"},
		Queues: append([]mqwatch.QueueView{dlq}, views...), Heads: map[string][]mqwatch.Summary{}}
}

func boq(name string, depth, maxDepth int32) mqwatch.QueueView {
	v := local(name, depth, maxDepth, 0, "")
	v.Role = mqwatch.RoleBOQ
	return v
}

func TestFleetRowsWorstFirst(t *testing.T) {
	st := New(func() time.Time { return t0 }, 5*time.Second)
	fold := func(s *mqwatch.Snapshot) { st.Fold(s) }
	// QM-OK: nothing wrong; QM-BOQ: a backout queue at 85 % (a warning);
	// QM-LOOP: a poison loop (critical); QM-DOWN: was up, now 2059;
	// QM-HUNG: was up, now not answering; QM-OLD: up, but its last poll is
	// old; QM-NEW: no poll has ended yet.
	fold(fleetSnap("QM-OK", 1, t0, local("A.IN", 0, 5000, 0, "")))
	fold(fleetSnap("QM-BOQ", 1, t0, local("A.IN", 0, 5000, 3, "A.BO"), boq("A.BO", 85, 100), boq("B.BO", 10, 100)))
	loop := fleetSnap("QM-LOOP", 1, t0, local("A.IN", 9000, 10000, 0, ""))
	loop.Heads["A.IN"] = []mqwatch.Summary{msg(1, 4000)}
	fold(loop)
	for _, name := range []string{"QM-DOWN", "QM-HUNG"} {
		fold(fleetSnap(name, 1, t0, local("A.IN", 0, 5000, 0, "")))
	}
	fold(&mqwatch.Snapshot{Seq: 2, Time: t0, QMgrName: "QM-DOWN", Err: mqwatch.NewError("MQCONNX", "QM-DOWN", mqfmt.RCQMgrNotAvailable), Stale: true})
	fold(&mqwatch.Snapshot{Seq: 2, Time: t0, QMgrName: "QM-HUNG", Err: &mqwatch.NoAnswerError{Call: "MQINQ", After: 11 * time.Second}, Stale: true})
	fold(fleetSnap("QM-OLD", 1, t0.Add(-time.Minute), local("A.IN", 0, 5000, 0, "")))
	st.QMgr("QM-NEW")

	rows := st.Fleet(t0, false)
	var order []string
	for _, r := range rows {
		order = append(order, r.QMgr)
	}
	want := []string{"QM-DOWN", "QM-HUNG", "QM-LOOP", "QM-BOQ", "QM-OLD", "QM-NEW", "QM-OK"}
	if !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	by := map[string]FleetRow{}
	for _, r := range rows {
		by[r.QMgr] = r
	}
	tests := []struct {
		qmgr  string
		link  Link
		level int
		check func(FleetRow) bool
	}{
		{"QM-OK", LinkUp, 0, func(r FleetRow) bool {
			return r.Crit+r.Warn == 0 && r.DeadQ == "DLQ" && r.DeadMax == 50000 && r.Queues == 2
		}},
		{"QM-BOQ", LinkUp, 1, func(r FleetRow) bool { return r.WorstBOQ == "A.BO" && r.WorstFill == 0.85 && r.Crit == 0 }},
		{"QM-LOOP", LinkUp, 2, func(r FleetRow) bool { return r.Crit > 0 && r.Top != nil && r.Top.Rule == "R1c" }},
		{"QM-DOWN", LinkDown, 2, func(r FleetRow) bool { return mqwatch.IsReason(r.Err, mqfmt.RCQMgrNotAvailable) && r.Crit == 1 }},
		{"QM-HUNG", LinkNoAnswer, 2, func(r FleetRow) bool {
			var na *mqwatch.NoAnswerError
			return errors.As(r.Err, &na) && st.QMgrs["QM-HUNG"].Alerts[0].Text[:13] == "not answering"
		}},
		{"QM-OLD", LinkStale, 1, func(r FleetRow) bool { return r.Age == time.Minute }},
		{"QM-NEW", LinkConnecting, 0, func(r FleetRow) bool { return r.DeadQ == "" && r.Queues == 0 }},
	}
	for _, r := range st.Fleet(t0, true) {
		if r.QMgr == "QM-OLD" && r.Link != LinkUp {
			t.Errorf("held: %+v, want QM-OLD not stale", r)
		}
	}
	for _, tt := range tests {
		r := by[tt.qmgr]
		if r.Link != tt.link || r.Level() != tt.level || !tt.check(r) {
			t.Errorf("%s: %+v (level %d), want link %d level %d", tt.qmgr, r, r.Level(), tt.link, tt.level)
		}
	}
}

// The DEADQ's arrival rate is the fleet row's, and breaks ties between
// queue managers of the same severity.
func TestFleetDeadQRateOrdersEqualRows(t *testing.T) {
	st := New(func() time.Time { return t0 }, 5*time.Second)
	for i, name := range []string{"QM-SLOW", "QM-FAST"} {
		var sums []mqwatch.Summary
		for poll := range 3 {
			n := (poll + 1) * 10 * (i + 1) // QM-FAST gains twice as many
			for len(sums) < n {
				sums = append(sums, msg(byte(len(sums)), 0))
				sums[len(sums)-1].MsgId[1] = byte(i)
			}
			s := fleetSnap(name, uint64(poll+1), t0.Add(time.Duration(poll)*time.Minute))
			s.Queues[0].Status.Depth = int32(n)
			s.Inventories = map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(sums...)}
			s.Deltas = map[string]mqwatch.InventoryDelta{"DLQ": {Resync: true}}
			st.Fold(s)
		}
	}
	rows := st.Fleet(t0.Add(2*time.Minute), false)
	if rows[0].QMgr != "QM-FAST" || !rows[0].DeadRateOK || rows[0].DeadRate != 20 || rows[1].DeadRate != 10 {
		t.Fatalf("rows %+v; want QM-FAST first at 20/min, QM-SLOW at 10/min", rows)
	}
}
