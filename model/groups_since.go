package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// regroup brings the groups to inv by counting only what changed since the
// inventory they describe (mqwatch.Inventory.Since): the messages that
// arrived are added and those that went are subtracted, class by class. A
// requeue draining a million-message DEADQ removes more each poll than the
// watcher lists, so each poll is a resync; regrouping it from scratch read
// every message again. It reports false, changing nothing, when Since
// cannot relate the two inventories or the change is larger than inv: the
// caller groups inv afresh then.
//
// The groups keep their sparklines and pending arrivals as a rebuild's
// adopt does. Additions are counted before removals so that a group whose
// messages all went while others of its key arrived keeps its sparkline,
// as a rebuild would. Removals that may narrow a group's age range mark
// its dimension's ages stale, read again (incrementally) by Groups.
func (gs *GroupSet) regroup(inv *mqwatch.Inventory) bool {
	prev := gs.inv
	if prev == nil || inv == nil {
		return false
	}
	dropped, kept, ok := inv.Since(prev)
	if !ok || prev.Len()-kept+inv.Len()-kept > inv.Len() {
		return false
	}
	gs.count(inv, inv, kept, inv.Len(), 1)
	gs.count(inv, prev, 0, dropped, -1)
	gs.count(inv, prev, dropped+kept, prev.Len(), -1)
	gs.inv = inv
	return true
}

// count adds sign times the messages of positions [from, to) of in to the
// groups, tallied by class first. Since relates only inventories sharing
// one class table, so inv (the newer) names the classes of both.
func (gs *GroupSet) count(inv, in *mqwatch.Inventory, from, to, sign int) {
	if from >= to {
		return
	}
	tally := make([]ClassTally, inv.NumClasses())
	for i := from; i < to; i++ {
		t := &tally[in.ClassID(i)]
		t.Count++
		if q := in.QueuedAt(i); !q.IsZero() {
			if t.Oldest.IsZero() || q.Before(t.Oldest) {
				t.Oldest = q
			}
			if q.After(t.Newest) {
				t.Newest = q
			}
		}
	}
	for id, t := range tally {
		if t.Count == 0 {
			continue
		}
		fk := fullKeyOf(inv.Class(id))
		for d := range gs.groups {
			if sign > 0 {
				gs.grow(Dim(d), project(Dim(d), fk), t)
			} else {
				gs.shrink(Dim(d), project(Dim(d), fk), t)
			}
		}
	}
}

// grow adds a class's tallied arrivals to the group k of dimension d.
func (gs *GroupSet) grow(d Dim, k GroupKey, t ClassTally) {
	g := gs.groups[d][k]
	if g == nil {
		g = &Group{Key: k, Spark: NewRing(SparkBuckets)}
		gs.groups[d][k] = g
	}
	g.Count += t.Count
	widen(g, t.Oldest)
	widen(g, t.Newest)
}

// shrink takes a class's tallied departures from the group k of dimension
// d, marking d's ages stale when they may have held the group's oldest or
// newest message.
func (gs *GroupSet) shrink(d Dim, k GroupKey, t ClassTally) {
	g := gs.groups[d][k]
	if g == nil {
		return
	}
	g.Count -= t.Count
	if g.Count <= 0 {
		delete(gs.groups[d], k)
		return
	}
	if !t.Oldest.IsZero() && !t.Oldest.After(g.Oldest) || !t.Newest.IsZero() && !t.Newest.Before(g.Newest) {
		gs.staleAge[d] = true
	}
}
