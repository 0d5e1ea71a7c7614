package model

import (
	"maps"
	"slices"
)

// Checkpoint is a copy of s that folds on independently of s: a playback
// keeps one every few minutes of a recording, so going back restarts from
// the nearest one instead of the recording's start. Unlike a Picture it
// copies what a fold changes in place (rings' buffers, groups, their age
// index, the alert book); snapshots, inventories, heads and the engine's
// index are never changed once made, so they are shared. The journal is
// the caller's to copy (it is the session's).
func (s *State) Checkpoint() *State {
	c := *s
	c.Order = slices.Clone(s.Order)
	c.QMgrs = make(map[string]*QMgrState, len(s.QMgrs))
	for name, q := range s.QMgrs {
		c.QMgrs[name] = q.checkpoint()
	}
	if s.Book != nil {
		c.Book = s.Book.checkpoint()
	}
	c.picture = false
	return &c
}

func (q *QMgrState) checkpoint() *QMgrState {
	c := *q
	c.Queues = make(map[string]*QueueState, len(q.Queues))
	for name, qs := range q.Queues {
		cq := *qs
		cq.Depth, cq.Arrived, cq.BackoutHistory = qs.Depth.copy(), qs.Arrived.copy(), qs.BackoutHistory.copy()
		c.Queues[name] = &cq
	}
	c.Groups = make(map[string]*GroupSet, len(q.Groups))
	for name, gs := range q.Groups {
		c.Groups[name] = gs.checkpoint()
	}
	c.Styles, c.PauseAfter = maps.Clone(q.Styles), maps.Clone(q.PauseAfter)
	c.Alerts, c.lastLint, c.connected = slices.Clone(q.Alerts), slices.Clone(q.lastLint), slices.Clone(q.connected)
	if q.ages != nil { // the age bands (R8f) are counted in place by each fold
		c.ages = make(map[string]*ageHist, len(q.ages))
		for name, h := range q.ages {
			c.ages[name] = &ageHist{inv: h.inv, perMin: maps.Clone(h.perMin)}
		}
	}
	return &c
}

func (gs *GroupSet) checkpoint() *GroupSet {
	c := *gs
	for d := range gs.groups {
		if gs.groups[d] == nil {
			continue
		}
		m := make(map[GroupKey]*Group, len(gs.groups[d]))
		for k, g := range gs.groups[d] {
			cg := *g
			cg.Spark = g.Spark.copy()
			m[k] = &cg
		}
		c.groups[d] = m
	}
	c.ages.segs = make([]ageSeg, len(gs.ages.segs))
	for i, s := range gs.ages.segs {
		c.ages.segs[i] = ageSeg{start: s.start, end: s.end, classes: maps.Clone(s.classes)}
	}
	if gs.ages.segs == nil {
		c.ages.segs = nil
	}
	return &c
}

// copy is r with buffers of its own: either may be added to.
func (r *Ring) copy() *Ring {
	if r == nil {
		return nil
	}
	c := *r
	c.ts, c.vs = slices.Clone(r.ts), slices.Clone(r.vs)
	return &c
}

// checkpoint copies the book's histories; OnChange is not carried over
// (a playback's book tells nobody).
func (b *AlertBook) checkpoint() *AlertBook {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := &AlertBook{open: make(map[string]*Episode, len(b.open)), seen: maps.Clone(b.seen), ended: maps.Clone(b.ended),
		carried: maps.Clone(b.carried), ver: b.ver}
	for k, e := range b.open {
		ce := *e
		c.open[k] = &ce
	}
	return c
}
