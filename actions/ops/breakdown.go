package ops

import (
	"cmp"
	"slices"
)

// OpCount is how many messages share one outcome.
type OpCount struct {
	Cause  string `json:"outcome"` // why, as the items' Text gives it after its kind ("would fail: ")
	Reason int32  `json:"reason,omitempty"`
	Count  int    `json:"count"`
	// Queue is, for what came back after a run, the destination its new
	// MQDLH names: the queue that was full, put-inhibited or missing, so
	// the requeue-loop alert can see when that cause is gone.
	Queue string `json:"queue,omitempty"`
}

// OpBreakdown counts a plan's, a dry run's or a run's messages by outcome.
// For a plan, Act is the number of messages that would actually be acted
// on: the count a confirmation asks the operator to type.
type OpBreakdown struct {
	Act   int `json:"act"` // would be (or were) acted on
	Total int `json:"total"`
	// Fail: would fail (target missing 2085, no room 2053, put-inhibited
	// 2051, not authorized 2035, ...) or failed, per reason.
	Fail []OpCount `json:"fail"`
	// DeadLetterAgain: would reach a remote queue manager that refused them
	// before (they come back to a DEADQ there).
	DeadLetterAgain []OpCount `json:"dead_letter_again"`
	// ComesBack: would be put, but their next hop brings them back (R10f):
	// the cause they were dead-lettered for is still there. They are
	// counted in Act too (the run puts them).
	ComesBack []OpCount `json:"comes_back"`
	Skipped   []OpCount `json:"skipped"`
	InDoubt   int       `json:"in_doubt"`
	NotDone   int       `json:"not_done"`
}

// Clean reports whether every message would be (or was) acted on, and
// none would come back.
func (b *OpBreakdown) Clean() bool { return b.Act == b.Total && len(b.ComesBack) == 0 }

// Back counts the messages that would come back.
func (b OpBreakdown) Back() int {
	n := 0
	for _, c := range b.ComesBack {
		n += c.Count
	}
	return n
}

// Breakdown counts the plan's items by outcome.
func (p *OpPlan) Breakdown() OpBreakdown { return breakdownOf(p.Items) }

// Breakdown counts the result's items by outcome: for a dry run what would
// happen, otherwise what did.
func (r *OpResult) Breakdown() OpBreakdown { return breakdownOf(r.Items) }

func breakdownOf(items []OpItem) OpBreakdown {
	b := OpBreakdown{Total: len(items)}
	fail, dla, skip, back := map[OpCount]int{}, map[OpCount]int{}, map[OpCount]int{}, map[OpCount]int{}
	for i := range items {
		it := &items[i]
		c := OpCount{Cause: it.cause(), Reason: it.Reason}
		switch it.Kind {
		case WouldFail, Failed:
			fail[c]++
		case WouldDeadLetterAgain:
			dla[c]++
		case Skipped:
			skip[c]++
		case WouldComeBack:
			back[c]++
			b.Act++
		case InDoubt:
			b.InDoubt++
		case NotDone:
			b.NotDone++
		default: // WouldAct, Done
			b.Act++
		}
	}
	b.Fail, b.DeadLetterAgain, b.Skipped, b.ComesBack = counts(fail), counts(dla), counts(skip), counts(back)
	return b
}

// counts lists outcome counts, most first, then by outcome.
func counts(m map[OpCount]int) []OpCount {
	out := make([]OpCount, 0, len(m))
	for k, n := range m {
		k.Count = n
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b OpCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Cause, b.Cause))
	})
	return out
}
