package model

import (
	"cmp"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Link is how a queue manager answers its watcher.
type Link int

// Links, from the best news to the worst.
const (
	LinkUp         Link = iota // the last poll succeeded, and recently
	LinkConnecting             // no poll has ended yet
	LinkStale                  // the last good poll is older than three intervals
	LinkNoAnswer               // a call went unanswered past the watcher's deadline
	LinkDown                   // the last poll failed with a reason code
)

// FleetRow is one queue manager in the fleet view.
type FleetRow struct {
	QMgr string
	Link Link
	Err  error         // why the last poll failed (LinkDown, LinkNoAnswer)
	Age  time.Duration // since the last good poll; 0 before the first
	// Alerts by severity; while the queue manager cannot be reached they are
	// the last good poll's, plus the critical one that says so.
	Crit, Warn, Info int
	Queues           int
	DeadQ            string
	DeadDepth        int32
	DeadMax          int32
	// DeadRate is the DEADQ's arrivals per minute, when measurable.
	DeadRate   float64
	DeadRateOK bool
	// WorstBOQ is the backout queue nearest to MAXDEPTH, "" when none.
	WorstBOQ  string
	WorstFill float64
	// Top is the most severe alert (the first of the queue manager's), nil
	// when it has none.
	Top *Alert
	// Acked counts alerts somebody acknowledged or snoozed (not in Crit,
	// Warn or Info); Oldest is the alert firing longest that nobody did.
	Acked  int
	Oldest *Alert
}

// Level is the row's severity as the dashboard colours it: 2 for a critical
// alert or a queue manager that cannot be reached, 1 for a warning or stale
// data, 0 otherwise.
func (r FleetRow) Level() int {
	switch {
	case r.Crit > 0 || r.Link == LinkDown || r.Link == LinkNoAnswer:
		return 2
	case r.Warn > 0 || r.Link == LinkStale:
		return 1
	}
	return 0
}

// Fleet returns one row per queue manager, worst first: by level, those that
// cannot be reached before those that can, then by critical and warning
// alerts, then by DEADQ arrival rate, then by name, so that equal rows keep
// one order between refreshes. While held (the picture
// is frozen, or its history is still being simulated) old data is old on
// purpose and no row reads stale.
func (s *State) Fleet(now time.Time, held bool) []FleetRow {
	rows := make([]FleetRow, 0, len(s.Order))
	for _, name := range s.Order {
		rows = append(rows, s.QMgrs[name].fleetRow(now, held))
	}
	slices.SortStableFunc(rows, func(a, b FleetRow) int {
		return cmp.Or(cmp.Compare(b.Level(), a.Level()), cmp.Compare(b.unreachable(), a.unreachable()),
			cmp.Compare(b.Crit, a.Crit), cmp.Compare(b.Warn, a.Warn), cmp.Compare(b.DeadRate, a.DeadRate), cmp.Compare(a.QMgr, b.QMgr))
	})
	return rows
}

// unreachable is 1 for a queue manager whose figures are the last good
// poll's: whatever its alerts, nobody knows what it is doing now.
func (r FleetRow) unreachable() int {
	if r.Link == LinkDown || r.Link == LinkNoAnswer {
		return 1
	}
	return 0
}

func (q *QMgrState) fleetRow(now time.Time, held bool) FleetRow {
	r := FleetRow{QMgr: q.Name, Age: q.Age(now), Queues: len(q.Queues)}
	switch {
	case q.Snap == nil:
		r.Link = LinkConnecting
	case !q.Snap.Connected && mqwatch.IsNoAnswer(q.Snap.Err):
		r.Link, r.Err = LinkNoAnswer, q.Snap.Err
	case !q.Snap.Connected:
		r.Link, r.Err = LinkDown, q.Snap.Err
	case q.Stale(now) && !held:
		r.Link = LinkStale
	}
	for _, al := range q.Alerts {
		switch {
		case al.Acked(now):
			r.Acked++
		case al.Severity == actions.Critical:
			r.Crit++
		case al.Severity == actions.Warning:
			r.Warn++
		default:
			r.Info++
		}
	}
	r.Oldest = q.OldestUnacked(now)
	if len(q.Alerts) > 0 {
		top := q.Alerts[0]
		r.Top = &top
	}
	if q.Snap != nil {
		r.DeadQ = q.Snap.QMgr.DeadQ
	}
	for name, qs := range q.Queues {
		switch v := qs.View; {
		case name == r.DeadQ:
			r.DeadDepth, r.DeadMax = v.Status.Depth, v.Info.MaxDepth
			r.DeadRate, r.DeadRateOK = qs.ArrivalsPerMinute()
		case v.Role == mqwatch.RoleBOQ && v.HasStatus:
			if f := qs.Fill(); r.WorstBOQ == "" || f > r.WorstFill || (f == r.WorstFill && name < r.WorstBOQ) {
				r.WorstBOQ, r.WorstFill = name, f
			}
		}
	}
	return r
}
