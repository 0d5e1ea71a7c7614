package model

import (
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// ageSpan is how many messages one segment of an ageIndex covers.
const ageSpan = 4096

// ageIndex keeps TallyClasses of an inventory by segments of ageSpan
// positions, so that the tally of the next version of the inventory (a
// drain at the head, arrivals at the tail: mqwatch.Inventory.Since) reads
// only the segments the change touched. A group's age range must be read
// again each time its oldest message leaves, which a requeue draining a
// million-message DEADQ does every poll.
type ageIndex struct {
	inv  *mqwatch.Inventory
	segs []ageSeg
}

// ageSeg is the tally of positions [start, end) of the indexed inventory.
type ageSeg struct {
	start, end int
	classes    map[int]ClassTally // First is a position in the inventory
}

// build is TallyClasses(inv), read whole, with the segments indexed: a
// grouping built from it rescans its ages later by what changed.
func (x *ageIndex) build(inv *mqwatch.Inventory) []ClassTally {
	x.inv, x.segs = nil, nil
	return x.tally(inv)
}

// tally is TallyClasses(inv), from the segments the change since the last
// inventory left as they were.
func (x *ageIndex) tally(inv *mqwatch.Inventory) []ClassTally {
	dropped, kept, ok := inv.Since(x.inv)
	if !ok || x.inv == nil {
		x.segs, dropped, kept = nil, 0, 0
	}
	// The segments tile the last inventory: those inside what inv kept of
	// it stay, shifted; the head a drain cut into is read again.
	var keep []ageSeg
	for _, s := range x.segs {
		if s.start < dropped || s.end > dropped+kept {
			continue
		}
		s.start, s.end = s.start-dropped, s.end-dropped
		for id, t := range s.classes {
			t.First -= dropped
			s.classes[id] = t
		}
		keep = append(keep, s)
	}
	var segs []ageSeg
	scratch := make([]ClassTally, inv.NumClasses())
	from := 0 // the first position of inv no segment covers
	if len(keep) > 0 {
		if keep[0].start > 0 {
			segs = append(segs, tallySeg(inv, 0, keep[0].start, scratch))
		}
		segs, from = append(segs, keep...), keep[len(keep)-1].end
	}
	// A short last segment is read again with the arrivals.
	if n := len(segs); n > 0 && segs[n-1].end-segs[n-1].start < ageSpan {
		from, segs = segs[n-1].start, segs[:n-1]
	}
	for from < inv.Len() {
		end := min(from+ageSpan, inv.Len())
		segs = append(segs, tallySeg(inv, from, end, scratch))
		from = end
	}
	x.inv, x.segs = inv, segs
	out := make([]ClassTally, inv.NumClasses())
	for _, s := range segs {
		for id, t := range s.classes {
			o := &out[id]
			if o.Count == 0 {
				o.First = t.First
			}
			o.Count += t.Count
			if !t.Oldest.IsZero() && (o.Oldest.IsZero() || t.Oldest.Before(o.Oldest)) {
				o.Oldest = t.Oldest
			}
			if t.Newest.After(o.Newest) {
				o.Newest = t.Newest
			}
		}
	}
	return out
}

// tallySeg is the tally of positions [from, end) of inv, counted in
// scratch (a zeroed tally per class number, left zeroed) so that a segment
// costs a slice increment per message, not a map lookup.
func tallySeg(inv *mqwatch.Inventory, from, end int, scratch []ClassTally) ageSeg {
	var touched []int
	for i := from; i < end; i++ {
		id := inv.ClassID(i)
		t := &scratch[id]
		if t.Count == 0 {
			t.First = i
			touched = append(touched, id)
		}
		t.Count++
		if q := inv.QueuedAt(i); !q.IsZero() {
			if t.Oldest.IsZero() || q.Before(t.Oldest) {
				t.Oldest = q
			}
			if q.After(t.Newest) {
				t.Newest = q
			}
		}
	}
	s := ageSeg{start: from, end: end, classes: make(map[int]ClassTally, len(touched))}
	for _, id := range touched {
		s.classes[id], scratch[id] = scratch[id], ClassTally{}
	}
	return s
}
