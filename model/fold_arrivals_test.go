package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// deadq is a DEADQ's messages as the watcher numbers them: Arrival from
// 1 in the order first seen.
func deadq(n int) []mqwatch.Summary {
	all := make([]mqwatch.Summary, n)
	for i := range all {
		all[i] = dl(i, 2085, "INVOICE.IN")
		all[i].Arrival = uint64(i + 1)
	}
	return all
}

// arrivalStep is one snapshot folded: the DEADQ's first n messages (from
// the given list), its delta and whether it follows the last folded one.
type arrivalStep struct {
	msgs  []mqwatch.Summary
	delta mqwatch.InventoryDelta
	gap   bool // a snapshot was skipped (latest wins) or a held partial dropped
}

// lastArrivals is the last n bars of g's ARRIVALS sparkline at now.
func lastArrivals(g *Group, now time.Time, n int) []float64 {
	a := g.Arrivals(now)
	return a[len(a)-n:]
}

// The triage's ARRIVALS sparkline counts a group's new messages each poll
// (here a minute apart, one bar each),
// also when the snapshot does not follow the last one folded (a snapshot
// skipped, a held partial dropped while a dialog was open): the groups are
// rebuilt then, and what arrived since is found by the watcher's arrival
// numbers instead of being lost.
func TestFoldCountsGroupArrivalsAcrossGaps(t *testing.T) {
	all := deadq(40)
	renumbered := deadq(40)
	for i := range renumbered {
		renumbered[i].Arrival += 100 // a re-read numbers every message again
	}
	tests := []struct {
		name  string
		steps []arrivalStep
		want  []float64 // the group's sparkline after the last step
	}{
		{"contiguous polls count their deltas", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{all[:13], mqwatch.InventoryDelta{Added: all[10:13]}, false},
		}, []float64{0, 3}},
		{"a skipped snapshot: its arrivals and the next poll's are counted", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{all[:17], mqwatch.InventoryDelta{Added: all[15:17]}, true},
		}, []float64{0, 7}},
		{"a snapshot without a delta after a gap", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{all[:12], mqwatch.InventoryDelta{Added: all[10:12]}, false},
			{all[:20], mqwatch.InventoryDelta{}, true},
		}, []float64{0, 2, 8}},
		{"consumed messages are not arrivals", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{all[4:15], mqwatch.InventoryDelta{Added: all[14:15]}, true},
		}, []float64{0, 5}},
		{"a re-read in a skipped snapshot is not a burst of arrivals", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{renumbered[:10], mqwatch.InventoryDelta{}, true},
		}, []float64{0, 0}},
		{"a drained queue that filled again counts the new messages", []arrivalStep{
			{all[:10], mqwatch.InventoryDelta{Resync: true}, false},
			{all[10:14], mqwatch.InventoryDelta{}, true},
		}, []float64{0, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(nil, 2*time.Second)
			var b snapBuilder
			for i, st := range tt.steps {
				if st.gap {
					b.seq++
				}
				b.views = []mqwatch.QueueView{local("DLQ", int32(len(st.msgs)), 5000, 0, "")}
				b.views[0].Role = mqwatch.RoleDeadQ
				b.invs = map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(st.msgs...)}
				b.delta = map[string]mqwatch.InventoryDelta{"DLQ": st.delta}
				s.Fold(b.snap(t0.Add(time.Duration(i) * time.Minute)))
			}
			gs := s.QMgr("QM1").Groups["DLQ"].Groups(DimReasonDest)
			if len(gs) != 1 {
				t.Fatalf("%d groups, want 1", len(gs))
			}
			now := t0.Add(time.Duration(len(tt.steps)-1) * time.Minute)
			if got := lastArrivals(gs[0], now, len(tt.want)); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("sparkline %v, want %v", got, tt.want)
			}
		})
	}
}

// A partial snapshot's arrivals wait for the poll's own snapshot; when the
// groups are rebuilt in between (the poll's own does not follow the
// partial), they are still counted once.
func TestFoldKeepsPartialArrivalsAcrossARebuild(t *testing.T) {
	all := deadq(30)
	s := New(nil, 2*time.Second)
	var b snapBuilder
	fold := func(msgs []mqwatch.Summary, d mqwatch.InventoryDelta, partial bool, at time.Time) {
		b.views = []mqwatch.QueueView{local("DLQ", int32(len(msgs)), 5000, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(msgs...)}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": d}
		snap := b.snap(at)
		if partial {
			snap.Scan = &mqwatch.ScanProgress{Queue: "DLQ", Scanned: len(msgs), Depth: 30}
		}
		s.Fold(snap)
	}
	fold(all[:10], mqwatch.InventoryDelta{Resync: true}, false, t0)
	fold(all[:15], mqwatch.InventoryDelta{Added: all[10:15]}, true, t0.Add(time.Minute))
	b.seq++ // the next partial was dropped
	fold(all[:22], mqwatch.InventoryDelta{Added: all[20:22]}, false, t0.Add(time.Minute))
	got := lastArrivals(s.QMgr("QM1").Groups["DLQ"].Groups(DimReasonDest)[0], t0.Add(time.Minute), 2)
	if fmt.Sprint(got) != fmt.Sprint([]float64{0, 12}) {
		t.Fatalf("sparkline %v, want [0 12]", got)
	}
}

// A first read folded only in part (its partial snapshot), then a
// snapshot after a gap: the rest of what the read found was already on the
// queue, not arrivals.
func TestFoldFirstReadIsNotArrivalsAfterAGap(t *testing.T) {
	all := deadq(32)
	s := New(nil, 2*time.Second)
	var b snapBuilder
	at := t0.Add(-time.Minute)
	fold := func(msgs []mqwatch.Summary, d mqwatch.InventoryDelta, partial bool) {
		b.views = []mqwatch.QueueView{local("DLQ", 30, 5000, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(msgs...)}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": d}
		at = at.Add(time.Minute) // a bar each
		snap := b.snap(at)
		if partial {
			snap.Scan = &mqwatch.ScanProgress{Queue: "DLQ", Scanned: len(msgs), Depth: 30}
		}
		s.Fold(snap)
	}
	fold(all[:10], mqwatch.InventoryDelta{Resync: true}, true)
	b.seq++ // the read's own snapshot was skipped (latest wins)
	fold(all[:32], mqwatch.InventoryDelta{Added: all[30:32]}, false)
	got := lastArrivals(s.QMgr("QM1").Groups["DLQ"].Groups(DimReasonDest)[0], at, 2)
	if fmt.Sprint(got) != "[0 0]" {
		t.Fatalf("sparkline %v, want [0 0]: the first read's messages are not arrivals", got)
	}
	fold(all[:32], mqwatch.InventoryDelta{}, false)
	b.seq++
	fold(append(all[:32:32], deadq(35)[32:]...), mqwatch.InventoryDelta{}, false)
	if got := lastArrivals(s.QMgr("QM1").Groups["DLQ"].Groups(DimReasonDest)[0], at, 3); fmt.Sprint(got) != "[0 0 3]" {
		t.Fatalf("sparkline %v, want [0 0 3] once a whole read is folded", got)
	}
}

// TestArrivalsKeepABurstInViewForAQuarterOfAnHour: polled every 2 s, a
// burst of 20 dead letters is still a bar of 20 ten minutes later (a bar
// per poll showed "max 0" half a minute after it), and is gone after the
// quarter of an hour the column spans.
func TestArrivalsKeepABurstInViewForAQuarterOfAnHour(t *testing.T) {
	all := deadq(30)
	s := New(nil, 2*time.Second)
	var b snapBuilder
	fold := func(msgs []mqwatch.Summary, d mqwatch.InventoryDelta, at time.Time) {
		b.views = []mqwatch.QueueView{local("DLQ", int32(len(msgs)), 5000, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(msgs...)}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": d}
		s.Fold(b.snap(at))
	}
	fold(all[:10], mqwatch.InventoryDelta{Resync: true}, t0)
	fold(all[:30], mqwatch.InventoryDelta{Added: all[10:30]}, t0.Add(2*time.Second))
	at := t0.Add(2 * time.Second)
	for at.Before(t0.Add(10 * time.Minute)) {
		at = at.Add(2 * time.Second)
		fold(all[:30], mqwatch.InventoryDelta{}, at)
	}
	g := s.QMgr("QM1").Groups["DLQ"].Groups(DimReasonDest)[0]
	got := g.Arrivals(at)
	if len(got) != SparkBuckets || got[SparkBuckets-1-10] != 20 {
		t.Fatalf("ten minutes after the burst: %v, want 20 in the bar 10 minutes back", got)
	}
	if got := g.Arrivals(at.Add(6 * time.Minute)); fmt.Sprint(got) != fmt.Sprint(make([]float64, SparkBuckets)) {
		t.Fatalf("sixteen minutes after: %v, want nothing", got)
	}
}
