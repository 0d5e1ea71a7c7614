package model

import "slices"

// Picture returns the state as it is now, as a State nothing changes any
// more. A war room folds each snapshot once and every session shows the
// picture, reading it from screens and from the work they start off the
// Update path, while the next snapshot is folded into s: the picture
// shares nothing a fold changes. prev is the last picture of s (nil for
// none): the queue managers other than changed are taken from it as they
// are, so a fleet's fold copies one queue manager, not fifty.
//
// A picture is read-only: fold and annotate s, never the picture
// (Reannotated gives a new picture after an acknowledgement).
func (s *State) Picture(prev *State, changed string) *State {
	p := &State{Order: slices.Clone(s.Order), QMgrs: make(map[string]*QMgrState, len(s.QMgrs)),
		Now: s.Now, Interval: s.Interval, Book: s.Book, Warming: s.Warming, picture: true}
	for name, q := range s.QMgrs {
		if old := prev.pictured(name); old != nil && name != changed {
			p.QMgrs[name] = old
			continue
		}
		p.QMgrs[name] = q.picture()
	}
	return p
}

// pictured is queue manager name of a picture, nil when there is none.
func (s *State) pictured(name string) *QMgrState {
	if s == nil {
		return nil
	}
	return s.QMgrs[name]
}

// IsPicture says s is a picture (Picture): read-only.
func (s *State) IsPicture() bool { return s.picture }

// picture copies what the next fold of q changes in place: its queues'
// figures and rings, its groups, its alerts and runs. Snapshots,
// inventories, heads and the engine's index are never changed once made,
// so they are shared.
func (q *QMgrState) picture() *QMgrState {
	p := *q
	p.Queues = make(map[string]*QueueState, len(q.Queues))
	for name, qs := range q.Queues {
		c := *qs
		c.Depth, c.Arrived, c.BackoutHistory = qs.Depth.clone(), qs.Arrived.clone(), qs.BackoutHistory.clone()
		p.Queues[name] = &c
	}
	p.Groups = make(map[string]*GroupSet, len(q.Groups))
	for name, gs := range q.Groups {
		p.Groups[name] = gs.picture()
	}
	p.Alerts = slices.Clone(q.Alerts)
	p.connected, p.ages = nil, nil // only a fold reads them, and nobody folds a picture
	p.sorted = nil
	p.sorted = p.SortedQueues() // once here, not once per session and frame
	return &p
}

// picture copies the groups with their age ranges up to date: a picture
// is never rescanned (Groups would write while sessions read), so the
// rescan a read would do happens here, once for every session.
func (gs *GroupSet) picture() *GroupSet {
	for d := range gs.staleAge {
		if gs.staleAge[d] {
			gs.rescanAges(Dim(d))
			break // one rescan serves every stale dimension
		}
	}
	p := &GroupSet{Queue: gs.Queue, IsDLQ: gs.IsDLQ, inv: gs.inv, seen: gs.seen}
	for d := range gs.groups {
		m := make(map[GroupKey]*Group, len(gs.groups[d]))
		for k, g := range gs.groups[d] {
			c := *g
			c.Spark = g.Spark.clone()
			m[k] = &c
		}
		p.groups[d] = m
	}
	return p
}

// clone is r as it is now, sharing r's points: from the first clone on,
// r keeps its points as a window of a buffer that Add only appends to
// (slide), so the points a clone holds are never written again, and a
// picture of a thousand queues copies no history.
func (r *Ring) clone() *Ring {
	if r == nil {
		return nil
	}
	if r.spare == 0 {
		r.spare = max(r.size/2, 4)
		if r.Len() > 0 { // an empty ring stays without memory until a point comes
			ts, vs := make([]int64, 0, r.size+r.spare), make([]float64, 0, r.size+r.spare)
			for i := range r.Len() {
				p := r.At(i)
				ts, vs = append(ts, p.T.UnixNano()), append(vs, p.V)
			}
			r.ts, r.vs, r.next = ts, vs, 0
		}
	}
	c := *r
	return &c
}

// slide adds a point to a shared ring: the oldest leaves the window, the
// new one is appended after it; at the buffer's end the window moves to a
// new buffer, leaving the old one to the pictures that read it.
func (r *Ring) slide(t int64, v float64) {
	if len(r.ts) == r.size {
		r.ts, r.vs = r.ts[1:], r.vs[1:]
	}
	if len(r.ts) == cap(r.ts) {
		ts, vs := make([]int64, len(r.ts), r.size+r.spare), make([]float64, len(r.vs), r.size+r.spare)
		copy(ts, r.ts)
		copy(vs, r.vs)
		r.ts, r.vs = ts, vs
	}
	r.ts, r.vs = append(r.ts, t), append(r.vs, v)
}

// Reannotated is the picture with its alerts' histories and order as the
// book has them now (after an acknowledgement, here or in another
// session): s itself when the book has not changed since s was annotated.
// Only the alerts are copied; everything else is shared with s.
func (s *State) Reannotated() *State {
	if s.Book == nil {
		return s
	}
	ver := s.Book.Version()
	var p *State
	for name, q := range s.QMgrs {
		if q.annotated == ver {
			continue
		}
		if p == nil {
			p = &State{Order: s.Order, QMgrs: make(map[string]*QMgrState, len(s.QMgrs)), Now: s.Now,
				Interval: s.Interval, Book: s.Book, Warming: s.Warming, picture: true}
			for n, q := range s.QMgrs {
				p.QMgrs[n] = q
			}
		}
		c := *q
		c.Alerts = slices.Clone(q.Alerts)
		c.annotated = s.Book.annotate(c.Alerts, s.Now())
		p.QMgrs[name] = &c
	}
	if p == nil {
		return s
	}
	return p
}
