package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// mixedDeadq is a DEADQ's messages numbered from first on, spread over
// reasons, destinations and applications, their put times out of order
// and some unknown, so that a drain removes groups' oldest and newest
// messages and empties whole groups.
func mixedDeadq(r *rand.Rand, first, n int) []mqwatch.Summary {
	reasons := []int32{2085, 2053, 2035}
	dests := []string{"INVOICE.IN", "ORDERS.IN", "PAY.IN", "SHIP.IN"}
	out := make([]mqwatch.Summary, n)
	for i := range out {
		id := first + i
		s := dl(id, reasons[r.IntN(len(reasons))], dests[r.IntN(len(dests))])
		s.DLHPutAppl = fmt.Sprintf("app%d", r.IntN(3))
		s.PutTime = t0.Add(time.Duration(r.IntN(100_000)) * time.Second)
		if r.IntN(9) == 0 {
			s.PutTime = time.Time{}
		}
		s.Arrival = uint64(id + 1)
		out[i] = s
	}
	return out
}

// drainStep is one poll of a draining DEADQ: drop messages left its head,
// add arrived at its tail; resync when the watcher says so; gap when the
// snapshot before it was skipped; listed when the delta lists the change.
type drainStep struct {
	drop, add           int
	resync, gap, listed bool
}

// A resync while a requeue drains the DEADQ (more removed than the watcher
// lists) brings the groups to the new inventory by the difference; after
// drains, resyncs, arrivals and gaps they equal the inventory grouped
// afresh (counts, ages, which groups), and the sparklines equal those of
// the same polls folded by regrouping each time from scratch.
func TestRegroupAfterDrainEqualsBuildGroups(t *testing.T) {
	steps := []drainStep{
		{drop: 0, add: 0, resync: true}, // the first read
		{drop: 3000, resync: true},
		{drop: 2500, add: 40, resync: true},
		{drop: 200, add: 30, listed: true},
		{drop: 4000, add: 100, gap: true},
		{drop: 0, add: 25, gap: true},
		{drop: 1, add: 0, resync: true},
		{drop: 5000, add: 500, resync: true, gap: true},
		{drop: 1024, add: 0, resync: true},
		{drop: 2000, add: 3, resync: true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	msgs := mixedDeadq(r, 0, 20_000)
	var sharing, copying *State = New(nil, 2*time.Second), New(nil, 2*time.Second)
	var bs, bc snapBuilder
	var inv *mqwatch.Inventory
	head := 0 // the position in msgs of inv's first message
	for i, st := range steps {
		var d mqwatch.InventoryDelta
		if st.listed {
			d.Dropped = append([]mqwatch.Summary(nil), msgs[head:head+st.drop]...)
		}
		if inv == nil {
			inv = (*mqwatch.Inventory)(nil).Append(msgs...)
		}
		inv = inv.DropHead(st.drop)
		head += st.drop
		arrived := mixedDeadq(r, len(msgs), st.add)
		msgs = append(msgs, arrived...)
		inv = inv.Append(arrived...)
		if st.listed {
			d.Added = arrived
		}
		d.Resync = st.resync
		at := t0.Add(time.Duration(i) * 2 * time.Second)
		before := sharing.QMgr("QM1").Groups["DLQ"]
		foldDrained(sharing, &bs, inv, d, st.gap, at)
		// The same messages in storage of their own: Since cannot relate
		// them, and the groups are built afresh each resync.
		foldDrained(copying, &bc, (*mqwatch.Inventory)(nil).Append(msgs[head:]...), d, st.gap, at)
		got := sharing.QMgr("QM1").Groups["DLQ"]
		if before != nil && got != before {
			t.Fatalf("step %d: the groups were rebuilt, want them brought to the drained inventory", i)
		}
		want := BuildGroups("DLQ", true, inv)
		for d := range numDims {
			if g, w := groupLines(got, Dim(d), false), groupLines(want, Dim(d), false); g != w {
				t.Fatalf("step %d, %v:\n got %s\nwant %s", i, Dim(d), g, w)
			}
			if g, w := groupLines(got, Dim(d), true), groupLines(copying.QMgr("QM1").Groups["DLQ"], Dim(d), true); g != w {
				t.Fatalf("step %d, %v sparklines:\n got %s\nwant %s", i, Dim(d), g, w)
			}
		}
	}
}

// foldDrained folds one poll of the DEADQ holding inv.
func foldDrained(s *State, b *snapBuilder, inv *mqwatch.Inventory, d mqwatch.InventoryDelta, gap bool, at time.Time) {
	if gap {
		b.seq++
	}
	b.views = []mqwatch.QueueView{local("DLQ", int32(inv.Len()), 50_000, 0, "")}
	b.views[0].Role = mqwatch.RoleDeadQ
	b.invs = map[string]*mqwatch.Inventory{"DLQ": inv}
	b.delta = map[string]mqwatch.InventoryDelta{"DLQ": d}
	s.Fold(b.snap(at))
}

// groupLines renders a dimension's groups, largest first: key, count and
// age range, or with spark the sparkline.
func groupLines(gs *GroupSet, d Dim, spark bool) string {
	out := ""
	for _, g := range gs.Groups(d) {
		if spark {
			out += fmt.Sprintf("%v=%v ", g.Key, g.Spark.Values())
		} else {
			out += fmt.Sprintf("%v=%d[%s..%s] ", g.Key, g.Count, g.Oldest.Format(time.TimeOnly), g.Newest.Format(time.TimeOnly))
		}
	}
	return out
}

// A drain that empties a group while messages of its key arrive keeps the
// group's sparkline, as a rebuild adopting it would; a drain that empties
// the queue, and a re-read, are grouped afresh.
func TestRegroupKeepsAnEmptiedGroupsSparkline(t *testing.T) {
	a := dl(1, 2085, "INVOICE.IN")
	b := dl(2, 2053, "ORDERS.IN")
	inv := (*mqwatch.Inventory)(nil).Append(a, a, b, b, b, b, b, b)
	gs := BuildGroups("DLQ", true, inv)
	k := KeyOf(DimReason, &a)
	g := gs.groups[DimReason][k]
	g.Spark.Add(t0, 7)
	next := inv.DropHead(2).Append(dl(3, 2085, "INVOICE.IN"))
	if !gs.regroup(next) {
		t.Fatal("regroup refused a drain at the head")
	}
	if gs.groups[DimReason][k] != g || g.Count != 1 {
		t.Fatalf("group %+v, want the same group with 1 message", gs.groups[DimReason][k])
	}
	if gs.regroup(next.DropHead(next.Len())) {
		t.Fatal("regroup took a drain of every message, want a fresh grouping")
	}
	if gs.regroup((*mqwatch.Inventory)(nil).Append(b, a)) {
		t.Fatal("regroup took an inventory read again, want a fresh grouping")
	}
}
