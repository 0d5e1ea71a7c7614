package model

import (
	"iter"
	"maps"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// An action over a million marks must not hold a million summaries (about
// 400 MiB) while it runs: it pulls the marks as identities, or as summaries
// a batch at a time, each batch loaded from the inventory it was marked
// from only when the action asks for it.

// Keys yields the identity of every marked message, in marking order.
func (s *Selection) Keys() iter.Seq[mqwatch.Key] {
	return func(yield func(mqwatch.Key) bool) {
		for seq := range int32(len(s.idx)) {
			k := s.keyAt(seq)
			if got, ok := s.entry(k); ok && got == seq && !yield(k) {
				return
			}
		}
	}
}

// Batches yields the marked summaries n at a time (the last batch may be
// shorter), in marking order. The slice is reused for the next batch: keep
// a copy of what must outlive it. Marks changed while it runs are not
// seen consistently; take Snapshot first when they may change.
func (s *Selection) Batches(n int) iter.Seq[[]mqwatch.Summary] {
	return func(yield func([]mqwatch.Summary) bool) {
		batch := make([]mqwatch.Summary, 0, max(n, 1))
		for seq := range int32(len(s.idx)) {
			if got, ok := s.entry(s.keyAt(seq)); !ok || got != seq {
				continue
			}
			batch = append(batch, s.at(seq))
			if len(batch) == cap(batch) {
				if !yield(batch) {
					return
				}
				batch = batch[:0]
			}
		}
		if len(batch) > 0 {
			yield(batch)
		}
	}
}

// Snapshot is a copy of the selection that later marks and unmarks do not
// change, for an action that reads its marks while the operator goes on
// marking. It shares the inventories the marks refer to and copies only
// the entries (about 25 bytes a mark).
func (s *Selection) Snapshot() *Selection {
	out := &Selection{seed: s.seed, hashOf: s.hashOf, live: maps.Clone(s.live), twins: maps.Clone(s.twins)}
	out.idx = append([]int32(nil), s.idx...)
	out.runs = append([]markRun(nil), s.runs...)
	out.singles = append([]mqwatch.Summary(nil), s.singles...)
	return out
}
