package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var t0 = time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)

type snapBuilder struct {
	seq   uint64
	views []mqwatch.QueueView
	heads map[string][]mqwatch.Summary
	invs  map[string]*mqwatch.Inventory
	delta map[string]mqwatch.InventoryDelta
}

func local(name string, depth, maxDepth, bothresh int32, boq string) mqwatch.QueueView {
	return mqwatch.QueueView{
		Info:      mqwatch.QueueInfo{Name: name, Type: mqwatch.QLocal, MaxDepth: maxDepth, BackoutThresh: bothresh, BackoutQName: boq},
		Status:    mqwatch.QueueStatus{Name: name, Depth: depth, Monitored: true},
		HasStatus: true,
	}
}

func (b *snapBuilder) snap(at time.Time) *mqwatch.Snapshot {
	b.seq++
	return &mqwatch.Snapshot{Seq: b.seq, Time: at, QMgrName: "QM1", Connected: true,
		QMgr:   mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
		Queues: b.views, Heads: b.heads, Inventories: b.invs, Deltas: b.delta}
}

func msg(id byte, bc int32) mqwatch.Summary {
	s := mqwatch.Summary{BackoutCount: bc, PutTime: t0}
	s.MsgId[0] = id
	return s
}

func alertRules(q *QMgrState) string {
	var r []string
	for _, a := range q.Alerts {
		r = append(r, a.Rule+":"+a.Queue)
	}
	return strings.Join(r, ",")
}

func TestFoldAlerts(t *testing.T) {
	tests := []struct {
		name    string
		view    mqwatch.QueueView
		head    []mqwatch.Summary
		want    string
		notWant string
	}{
		{"R1c loop when BOTHRESH 0 and the head was rolled back", local("ORDERS.IN", 9000, 100000, 0, ""), []mqwatch.Summary{msg(1, 4000)}, "R1c:ORDERS.IN", ""},
		{"R8c stuck poison at or over BOTHRESH", local("PAYMENTS.IN", 10, 5000, 5, "PAYMENTS.BO"), []mqwatch.Summary{msg(1, 212)}, "R8c:PAYMENTS.IN", "R1c"},
		{"R1c only a warning below the loop alarm", local("ORDERS.IN", 9, 100000, 0, ""), []mqwatch.Summary{msg(1, 2)}, "R1c:ORDERS.IN", ""},
		{"no alert under BOTHRESH", local("PAYMENTS.IN", 10, 5000, 5, "PAYMENTS.BO"), []mqwatch.Summary{msg(1, 2)}, "", "R8c"},
		{"R8b full queue", local("ORDERS.BO", 100, 100, 0, ""), nil, "R8b:ORDERS.BO", ""},
		{"R8a near MAXDEPTH", local("X", 85, 100, 0, ""), nil, "R8a:X", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(func() time.Time { return t0 }, 2*time.Second)
			b := &snapBuilder{views: []mqwatch.QueueView{tt.view}, heads: map[string][]mqwatch.Summary{tt.view.Info.Name: tt.head}}
			s.Fold(b.snap(t0))
			got := alertRules(s.QMgr("QM1"))
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Fatalf("alerts %q, want %q", got, tt.want)
			}
			if tt.want == "" && strings.Contains(got, tt.notWant) {
				t.Fatalf("alerts %q, must not contain %q", got, tt.notWant)
			}
			if tt.notWant != "" && strings.Contains(got, tt.notWant) {
				t.Fatalf("alerts %q, must not contain %q", got, tt.notWant)
			}
		})
	}
}

func TestAlertClearsWhenConditionDoes(t *testing.T) {
	s := New(func() time.Time { return t0 }, 2*time.Second)
	b := &snapBuilder{views: []mqwatch.QueueView{local("ORDERS.IN", 10, 5000, 0, "")},
		heads: map[string][]mqwatch.Summary{"ORDERS.IN": {msg(1, 17)}}}
	s.Fold(b.snap(t0))
	if !strings.Contains(alertRules(s.QMgr("QM1")), "R1c") {
		t.Fatal("no loop alert")
	}
	b.heads = map[string][]mqwatch.Summary{"ORDERS.IN": {msg(2, 0)}}
	s.Fold(b.snap(t0.Add(2 * time.Second)))
	if strings.Contains(alertRules(s.QMgr("QM1")), "R1c") {
		t.Fatal("loop alert did not clear")
	}
}

func TestDeadQGrowthForecast(t *testing.T) {
	s := New(func() time.Time { return t0 }, 2*time.Second)
	b := &snapBuilder{}
	var inv *mqwatch.Inventory
	for i := 0; i < 4; i++ {
		add := []mqwatch.Summary{msg(byte(2*i), 0), msg(byte(2*i+1), 0)}
		inv = inv.Append(add...)
		b.views = []mqwatch.QueueView{local("DLQ", int32(inv.Len()), 10, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": inv}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": {Added: add}}
		s.Fold(b.snap(t0.Add(time.Duration(i) * time.Minute)))
	}
	qs := s.QMgr("QM1").Queues["DLQ"]
	if rate, ok := qs.ArrivalsPerMinute(); !ok || rate != 2 {
		t.Fatalf("arrival rate %v %v, want 2/min", rate, ok)
	}
	ttf, ok := qs.TimeToFull()
	if !ok || ttf != time.Minute {
		t.Fatalf("time to full %v %v, want 1m (8 of 10 at +2/min)", ttf, ok)
	}
	if !strings.Contains(alertRules(s.QMgr("QM1")), "R8d:DLQ") {
		t.Fatalf("no growth alert: %s", alertRules(s.QMgr("QM1")))
	}
}

func TestDisconnectedSnapshotKeepsDataAndAlerts(t *testing.T) {
	now := t0
	s := New(func() time.Time { return now }, 2*time.Second)
	b := &snapBuilder{views: []mqwatch.QueueView{local("A", 1, 10, 0, "")}}
	s.Fold(b.snap(t0))
	q := s.QMgr("QM1")
	if q.Stale(now) {
		t.Fatal("fresh data reported stale")
	}
	now = t0.Add(10 * time.Second)
	if !q.Stale(now) {
		t.Fatal("data 10s old with a 2s interval not stale")
	}
	s.Fold(&mqwatch.Snapshot{Seq: 2, QMgrName: "QM1", Err: errors.New("MQRC_CONNECTION_BROKEN (2009)")})
	if len(q.Queues) != 1 || !strings.Contains(q.Alerts[0].Text, "2009") {
		t.Fatalf("lost data or no connection alert: %d queues, %+v", len(q.Queues), q.Alerts)
	}
}
