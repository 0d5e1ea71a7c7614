package model

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Fold applies a snapshot. Snapshots arrive latest-wins, so one may have been
// skipped: inventory deltas are only applied when the sequence is contiguous,
// and groups are rebuilt otherwise.
func (s *State) Fold(snap *mqwatch.Snapshot) {
	q := s.QMgr(snap.QMgrName)
	q.acts = s.Journal
	prev := q.Snap
	q.Snap = snap
	if !snap.Connected {
		// The figures are the last good poll's: recomputing time-based alerts
		// from them would blame consumers for the tool's own outage. Keep
		// what was known and say the data is stale.
		what := "not connected"
		if mqwatch.IsNoAnswer(snap.Err) {
			what = "not answering"
		}
		q.Alerts = append([]Alert{{Severity: actions.Critical, QMgr: q.Name,
			Text: fmt.Sprintf("%s: %v (alerts below are from the last good poll)", what, snap.Err)}}, q.connected...)
		s.track(q, snap)
		return
	}
	q.LastGood = snap.Time.Add(snap.Poll.Duration)
	now := snap.Time
	contiguous := prev != nil && prev.Connected && snap.Seq == prev.Seq+1
	seen := make(map[string]bool, len(snap.Queues))
	for _, v := range snap.Queues {
		seen[v.Info.Name] = true
		qs := q.Queues[v.Info.Name]
		if qs == nil {
			qs = &QueueState{Depth: NewRing(q.depthLen(v.Role)), Arrived: NewRing(HistoryLen), BackoutHistory: NewRing(HistoryLen), invLen: -1}
			q.Queues[v.Info.Name] = qs
		}
		qs.fold(v, snap.Heads[v.Info.Name], now, snap.Partial())
	}
	for name := range q.Queues {
		if !seen[name] {
			delete(q.Queues, name)
		}
	}
	q.foldInventories(snap, contiguous, now)
	q.foldAges(snap)
	q.inv = queueIndex(snap)
	q.Alerts = q.alerts(now)
	s.track(q, snap)
	q.connected = q.Alerts
}

// fold takes a queue's new view. A partial snapshot's figures are shown but
// not recorded: the poll's own snapshot follows, at the same time.
func (qs *QueueState) fold(v mqwatch.QueueView, head []mqwatch.Summary, now time.Time, partial bool) {
	qs.View = v
	if v.HasStatus && !partial {
		qs.Depth.Add(now, float64(v.Status.Depth))
		if !v.Status.LastGet.Equal(qs.lastGet) || qs.lastGetSeen.IsZero() {
			qs.lastGet, qs.lastGetSeen = v.Status.LastGet, now
		}
	}
	qs.Head = head
	qs.AtRisk, qs.Stuck, qs.MaxBackout = 0, 0, 0
	bt := v.Info.BackoutThresh
	for i := range head {
		bc := head[i].BackoutCount
		if bc > 0 {
			qs.AtRisk++
		}
		if bt > 0 && bc >= bt {
			qs.Stuck++
		}
		qs.MaxBackout = max(qs.MaxBackout, bc)
	}
	if !partial && (qs.MaxBackout > 0 || qs.BackoutHistory.Len() > 0) {
		// Only queues whose head was ever rolled back have a history worth
		// its memory; the rest of a 1,000-queue queue manager never does.
		qs.BackoutHistory.Add(now, float64(qs.MaxBackout))
	}
}

// GetIdle returns how long no get has happened: from the queue's last get
// time when queue monitoring reports it, else since the tool saw it change.
func (qs *QueueState) GetIdle(now time.Time) time.Duration {
	if lg := qs.View.Status.LastGet; qs.View.Status.Monitored && !lg.IsZero() {
		return now.Sub(lg)
	}
	if qs.lastGetSeen.IsZero() {
		return 0
	}
	return now.Sub(qs.lastGetSeen)
}

func (q *QMgrState) foldInventories(snap *mqwatch.Snapshot, contiguous bool, now time.Time) {
	for name, inv := range snap.Inventories {
		d, hasDelta := snap.Deltas[name]
		gs := q.Groups[name]
		isDLQ := name == snap.QMgr.DeadQ
		if gs == nil || !contiguous || !hasDelta || d.Resync {
			scanning := snap.Partial() && snap.Scan.Queue == name && d.Resync
			fresh := rebuildGroups(name, isDLQ, inv, gs, hasDelta && d.Resync, scanning)
			fresh.tick(now, !snap.Partial())
			q.Groups[name] = fresh
		} else {
			gs.apply(d, inv, now, !snap.Partial())
		}
		if qs := q.Queues[name]; qs != nil {
			qs.countArrivals(snap, name, inv, d, hasDelta && contiguous)
			if !snap.Partial() {
				qs.Arrived.Add(now, qs.arrived)
			}
		}
	}
	for name := range q.Groups {
		if _, ok := snap.Inventories[name]; !ok {
			delete(q.Groups, name)
		}
	}
}

// countArrivals adds an inventory's new messages to the queue's arrival
// count: those its delta lists, or, after a rebuild, its growth since the
// last inventory folded. An inventory being read from scratch (a partial
// snapshot's) is not counted until its read ends: what it gains then is
// what was already there.
func (qs *QueueState) countArrivals(snap *mqwatch.Snapshot, name string, inv *mqwatch.Inventory, d mqwatch.InventoryDelta, incremental bool) {
	if snap.Partial() && snap.Scan.Queue == name && d.Resync {
		return
	}
	switch {
	case incremental && !d.Resync:
		qs.arrived += float64(len(d.Added))
	case qs.invLen >= 0:
		// A rebuild tells no arrivals apart: count the growth, so a
		// burst that forces resyncs still shows in the rate.
		qs.arrived += float64(max(inv.Len()-qs.invLen, 0))
	}
	qs.invLen = inv.Len()
}

// queueIndex gives the engine the queue manager's objects, for route
// predictions and lint.
func queueIndex(snap *mqwatch.Snapshot) *actions.QueueIndex {
	infos := make([]mqwatch.QueueInfo, 0, len(snap.Queues))
	var stats []mqwatch.QueueStatus
	for _, v := range snap.Queues {
		infos = append(infos, v.Info)
		if v.HasStatus {
			stats = append(stats, v.Status)
		}
	}
	return actions.NewQueueIndex(snap.QMgr, infos, stats)
}
