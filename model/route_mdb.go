package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// pauseAfterOf returns the maxSequentialDeliveryFailures + 1 of the asf MDB
// known to consume queue (or an alias of it), 0 when none is known (R6i).
func (q *QMgrState) pauseAfterOf(queue string) int32 {
	if n, ok := q.PauseAfter[queue]; ok {
		return n
	}
	for name, qs := range q.Queues {
		if qs.View.Info.Type == mqwatch.QAlias && qs.View.Info.Target == queue {
			if n, ok := q.PauseAfter[name]; ok {
				return n
			}
		}
	}
	return 0
}
