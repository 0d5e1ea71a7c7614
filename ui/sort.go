package ui

import (
	"sort"

	"github.com/poisonwatch/poisonwatch/model"
)

// queueSort is the dashboard's row order.
type queueSort int

// The first is the default: with a thousand queues, a name order puts the
// queues in trouble off screen; by severity they lead, the rest by name.
const (
	sortSeverity queueSort = iota // worst alert first, then the red/amber rows, ties by name
	sortRisk                      // stuck, then at-risk messages
	sortFill                      // fullest first
	sortName                      // locals by name, then definitions (stable: rows never jump)
	queueSortCount
)

func (s queueSort) String() string {
	return [...]string{"severity", "risk", "fill", "name"}[s]
}

// sortQueues orders q's queues by s; ties keep the name order.
func sortQueues(q *model.QMgrState, s queueSort) []*model.QueueState {
	all := q.SortedQueues()
	if s == sortName {
		return all
	}
	worst := map[string]int{}
	for _, al := range q.Alerts {
		worst[al.Queue] = max(worst[al.Queue], int(al.Severity)+1)
	}
	key := func(qs *model.QueueState) [2]float64 {
		switch s {
		case sortSeverity:
			return [2]float64{float64(worst[qs.View.Info.Name]), float64(queueLevel(qs))}
		case sortRisk:
			return [2]float64{float64(qs.Stuck), float64(qs.AtRisk)}
		}
		return [2]float64{qs.Fill(), float64(qs.View.Status.Depth)}
	}
	sort.SliceStable(all, func(i, j int) bool {
		ki, kj := key(all[i]), key(all[j])
		if ki[0] != kj[0] {
			return ki[0] > kj[0]
		}
		return ki[1] > kj[1]
	})
	return all
}
