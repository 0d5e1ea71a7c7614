package model

import (
	"cmp"
	"slices"
	"time"
)

// Open lists the alerts the book remembers (firing, or clear within
// FlapWindow), oldest first: what a state file keeps.
func (b *AlertBook) Open() []Episode {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Episode, 0, len(b.open))
	for _, e := range b.open {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(x, y Episode) int { return cmp.Or(x.Start.Compare(y.Start), cmp.Compare(x.Key, y.Key)) })
	return out
}

// Merge takes episodes remembered elsewhere (the state file after a
// restart, or another serve's): an alert the book does not know is taken
// as it is; for one it knows, the earlier start and the newer
// acknowledgement win. An alert this book saw end stays ended. One that
// was firing, of a queue manager this book has not observed yet, is
// carried over the restart (ObserveUnsettled). It reports whether
// anything changed.
func (b *AlertBook) Merge(eps []Episode) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	changed := false
	defer func() {
		if changed {
			b.ver++
		}
	}()
	for _, in := range eps {
		if end, ok := b.ended[in.Key]; ok && !in.Start.After(end) {
			continue
		}
		e := b.open[in.Key]
		if e == nil {
			c := in
			b.open[in.Key] = &c
			if _, observed := b.seen[in.QMgr]; !observed && in.Firing() {
				b.carried[in.Key] = time.Time{}
			}
			changed = true
			continue
		}
		if in.Start.Before(e.Start) {
			e.Start, e.Flaps = in.Start, max(e.Flaps, in.Flaps)
			changed = true
		}
		if in.Ack.At.After(e.Ack.At) {
			e.Ack = in.Ack
			changed = true
		}
	}
	return changed
}

// carriedMissing notes that a poll at at lacks e, an alert carried over a
// restart and missing since since (zero: until now); past FlapWindow it
// has ended, cleared at the first poll that lacked it.
func (b *AlertBook) carriedMissing(e *Episode, at, since time.Time, settled bool) (Transition, bool) {
	switch {
	case !settled:
	case since.IsZero():
		b.carried[e.Key] = at
	case at.Sub(since) > FlapWindow:
		delete(b.carried, e.Key)
		delete(b.open, e.Key)
		e.Cleared, e.Over = since, true
		b.ended[e.Key] = e.Start
		return Transition{Kind: "ended", At: at, Episode: *e}, true
	}
	return Transition{}, false
}
