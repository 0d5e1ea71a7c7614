package exporter

import (
	"cmp"
	"slices"
	"strings"
)

// DefaultMaxQueues is how many local queues of one queue manager get
// series of their own unless --max-queues says otherwise.
const DefaultMaxQueues = 1000

// capQueues keeps the n queues a scrape must carry most and sums the rest
// per role into queue="(other)" figures, so a queue manager of 20,000
// queues costs a bounded response. Kept first: the DEADQ, queues with an
// alert, backout queues (their arrival counters must not come and go),
// input queues with rolled-back heads; then the deepest, ties by name, so
// the same queues survive scrape after scrape while their depths hold.
func capQueues(qs []queueFigures, n int, alerting map[string]bool) []queueFigures {
	if len(qs) <= n {
		return qs
	}
	ranked := slices.Clone(qs)
	slices.SortStableFunc(ranked, func(a, b queueFigures) int {
		return cmp.Or(cmp.Compare(queueRank(&a, alerting), queueRank(&b, alerting)),
			cmp.Compare(b.depth, a.depth), strings.Compare(a.name, b.name))
	})
	kept := ranked[:n:n]
	var rest []queueFigures // one per role, in the order roles first appear
	for i := range ranked[n:] {
		q := &ranked[n+i]
		j := slices.IndexFunc(rest, func(o queueFigures) bool { return o.role == q.role })
		if j < 0 {
			rest = append(rest, queueFigures{name: Other, role: q.role, other: true, input: q.input})
			j = len(rest) - 1
		}
		rest[j].depth += q.depth
		rest[j].atRisk += q.atRisk
		rest[j].stuck += q.stuck
	}
	return append(kept, rest...)
}

func queueRank(q *queueFigures, alerting map[string]bool) int {
	switch {
	case q.role == "deadq":
		return 0
	case alerting[q.name]:
		return 1
	case q.inventory:
		return 2
	case q.atRisk > 0 || q.stuck > 0:
		return 3
	}
	return 4
}
