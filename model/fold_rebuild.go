package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// rebuildGroups groups an inventory again when its delta cannot be
// applied: the first read, a re-read (resync), or a snapshot that does not
// follow the last one folded (one skipped, latest wins; a held partial
// dropped while a dialog was open). The sparklines keep their history and
// the arrivals not yet recorded; after a gap, the messages the watcher
// numbered after the last one counted are this poll's arrivals, so a
// gap loses none of them. A re-read numbers every message again and tells
// no arrivals apart: it adds none. A read from scratch still in progress
// (scanning: a partial snapshot's) numbers messages that were already
// there, so its numbers are no baseline: the last one stays, none on a
// first read, which counts nothing until a whole read has been folded.
//
// When the new inventory continues the old one (a drain at the head and
// arrivals at the tail, as a requeue emptying the DEADQ makes), the old
// groups are brought to it by the difference instead (regroup), with the
// same arrivals counted.
func rebuildGroups(name string, isDLQ bool, inv *mqwatch.Inventory, old *GroupSet, resync, scanning bool) *GroupSet {
	if !scanning && old != nil && old.Queue == name && old.IsDLQ == isDLQ {
		gap := !resync && !renumbered(inv, old)
		seen := old.seen
		if old.regroup(inv) {
			if gap {
				old.countSince(inv, seen)
			}
			old.seen = max(seen, lastArrival(inv))
			return old
		}
	}
	fresh := BuildGroups(name, isDLQ, inv)
	if scanning {
		fresh.seen = 0
	}
	if old == nil {
		return fresh
	}
	fresh.adopt(old)
	if scanning {
		fresh.seen = old.seen
		return fresh
	}
	if !resync && !renumbered(inv, old) {
		fresh.countSince(inv, old.seen)
	}
	fresh.seen = max(fresh.seen, old.seen)
	return fresh
}

// adopt keeps each group's sparkline and pending arrivals (a partial
// snapshot's, recorded with the poll's own) across a rebuild.
func (gs *GroupSet) adopt(old *GroupSet) {
	for d := range gs.groups {
		for k, g := range gs.groups[d] {
			if og := old.groups[d][k]; og != nil {
				g.Spark, g.added, g.bucketAt, g.bucketN = og.Spark, og.added, og.bucketAt, og.bucketN
			}
		}
	}
}

// countSince counts as arrivals the messages of inv numbered after seen
// (0: no whole read folded yet, nothing to count from).
// An inventory is in arrival order, so they are its tail.
func (gs *GroupSet) countSince(inv *mqwatch.Inventory, seen uint64) {
	if seen == 0 {
		return // numbers unknown (not from a watcher): count nothing
	}
	var s mqwatch.Summary
	for i := inv.Len() - 1; i >= 0 && inv.Arrival(i) > seen; i-- {
		inv.Load(i, &s)
		fk := fullKey(&s)
		for d := range gs.groups {
			if g := gs.groups[d][project(Dim(d), fk)]; g != nil {
				g.added++
			}
		}
	}
}

// renumbered reports whether the watcher read the queue again since old
// (in a snapshot this fold never saw): the newest message old counted is
// still there under a newer number. When it has gone instead, the
// consumers took what old held and everything newer did arrive.
func renumbered(inv *mqwatch.Inventory, old *GroupSet) bool {
	n := old.inv.Len()
	if n == 0 || inv.Len() == 0 || inv.Arrival(0) <= old.seen {
		return false
	}
	newest := old.inv.Key(n - 1)
	for i := 0; i < inv.Len(); i++ {
		if inv.Key(i) == newest {
			return true
		}
	}
	return false
}

// lastArrival is the arrival number of an inventory's newest message (0
// when empty).
func lastArrival(inv *mqwatch.Inventory) uint64 {
	if inv.Len() == 0 {
		return 0
	}
	return inv.Arrival(inv.Len() - 1)
}
