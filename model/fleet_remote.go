package model

import (
	"cmp"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
)

// RemoteFleet is the fleet as a monitoring system holds it: the series of
// poisonwatch exporters, one per host, read from a Prometheus-compatible
// query API (poisonwatch --prometheus). Nothing in it came from a queue
// manager directly, and nothing here connects to one. Its label values are
// outside input: the reader makes them valid UTF-8 and bounds them, the
// screens sanitise them where they are shown.
type RemoteFleet struct {
	Source  string        // the query API, credentials removed ("http://prom:9090")
	At      time.Time     // the evaluation time of the answer the rows are
	Took    time.Duration // the refresh, from the first query to the last answer
	Queries int           // HTTP requests the refresh made (Prometheus and Alertmanager)
	Rows    []RemoteRow   // worst first (SortRemote)
	// Dropped counts queue managers past the reader's cap on rows.
	Dropped int
	// Err says the last refresh failed (Prometheus unreachable, a query
	// refused); Rows and At are then the last answer's.
	Err    error
	Failed time.Time // when Err happened
	// Alertmanager is where silences are read, "" when none is configured;
	// SilenceErr says it did not answer the last refresh (the alerts are
	// then shown without their silences).
	Alertmanager string
	SilenceErr   error
}

// RemoteLink is how a queue manager reads through its exporter's series.
type RemoteLink int

// Remote links, from the best news to the worst.
const (
	RemoteUp           RemoteLink = iota // the exporter polls it and its series are fresh
	RemoteConnecting                     // the exporter serves it, but no poll of it has ended
	RemoteStale                          // its last good poll is older than three of the exporter's intervals
	RemoteNotConnected                   // the exporter's last poll failed (qmgr_connected 0)
	RemoteDown                           // the exporter's up is 0, or its series are stale
)

// RemoteRow is one queue manager of a remote fleet: an instance (the
// exporter that watches it) and a queue manager name.
type RemoteRow struct {
	Instance, Job, QMgr string
	Link                RemoteLink
	// Why is what made the row down: "exporter down (up 0)" or "series
	// stale" (the exporter answers but serves the queue manager no more).
	Why string
	// LastGood is the exporter's last successful poll of it (zero when none
	// within the lookback); Interval the exporter's poll interval.
	LastGood time.Time
	Interval time.Duration
	Queues   int
	// Alerts the exporter serves (poisonwatch_alert), worst first and
	// bounded; counts are of those nobody silenced or acknowledged.
	Alerts           []RemoteAlert
	Crit, Warn, Info int
	Held             int // silenced in the Alertmanager or acknowledged on a dashboard
	// The DEADQ: depth, MAXDEPTH, arrivals per minute (the exporter's
	// five-minute rate), its reasons by messages held and by arrivals per
	// minute (the largest few each).
	DeadQ              string
	DeadDepth, DeadMax float64
	DeadRate           float64
	DeadRateOK         bool
	Reasons, Arriving  []RemoteReason
	// WorstBOQ is the backout queue nearest to its MAXDEPTH.
	WorstBOQ  string
	WorstFill float64
	// Looping counts input queues whose head message was rolled back at
	// least LoopBackouts times; LoopQueues names the worst few.
	Looping    int
	LoopQueues []string
}

// LoopBackouts is the BackoutCount from which a head message is counted as
// looping: the dashboard's poison-loop alarm (R1c), a message redelivered
// ten times that nothing moves.
const LoopBackouts = loopAlarm

// RemoteAlert is one poisonwatch_alert series: a dashboard alert as the
// exporter evaluated it, with the same rule ids (R1-R10).
type RemoteAlert struct {
	Rule, Queue string
	Severity    actions.Severity
	Count       int // alerts sharing these labels
	AckCount    int // of them, acknowledged or snoozed on the exporter's side
	// Acked: the exporter says someone acknowledged or snoozed every one of
	// them (poisonwatch_alert_acknowledged); Silence: an Alertmanager
	// silence holds the Prometheus alert of the rule; Inhibited: an
	// inhibition rule does.
	Acked     bool
	Silence   *Silence
	Inhibited bool
}

// Held says the alert is taken care of: acknowledged, silenced or inhibited.
func (a RemoteAlert) Held() bool { return a.Acked || a.Silence != nil || a.Inhibited }

// Silence is an Alertmanager silence: who set it, why, until when.
type Silence struct {
	ID, By, Comment string
	Ends            time.Time
}

// RemoteReason is a DEADQ reason (its code and IBM's name) with a figure:
// messages held, or arrivals per minute.
type RemoteReason struct {
	Code, Name string
	Value      float64
}

// Age is how old the row's figures are at now: since the exporter's last
// good poll, 0 when it has none.
func (r *RemoteRow) Age(now time.Time) time.Duration {
	if r.LastGood.IsZero() {
		return 0
	}
	return max(now.Sub(r.LastGood), 0)
}

// Level is the row's severity as the fleet view colours it: 2 for a
// critical alert or a queue manager nobody can see, 1 for a warning or
// stale figures, 0 otherwise.
func (r *RemoteRow) Level() int {
	switch {
	case r.Crit > 0 || r.Link >= RemoteNotConnected:
		return 2
	case r.Warn > 0 || r.Link == RemoteStale:
		return 1
	}
	return 0
}

// Count tallies the alerts by severity, leaving out those held, and puts
// the worst first: unheld before held, then by severity, rule and queue.
func (r *RemoteRow) Count() {
	r.Crit, r.Warn, r.Info, r.Held = 0, 0, 0, 0
	for _, a := range r.Alerts {
		switch {
		case a.Held():
			r.Held += a.Count
		case a.Severity == actions.Critical:
			r.Crit += a.Count
		case a.Severity == actions.Warning:
			r.Warn += a.Count
		default:
			r.Info += a.Count
		}
	}
	slices.SortStableFunc(r.Alerts, func(a, b RemoteAlert) int {
		return cmp.Or(cmp.Compare(held(a), held(b)), cmp.Compare(b.Severity, a.Severity),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Queue, b.Queue))
	})
}

func held(a RemoteAlert) int {
	if a.Held() {
		return 1
	}
	return 0
}

// Top is the worst alert nobody holds, nil when there is none.
func (r *RemoteRow) Top() *RemoteAlert {
	if len(r.Alerts) == 0 || r.Alerts[0].Held() {
		return nil
	}
	return &r.Alerts[0]
}

// SortRemote puts the rows worst first, as the local fleet view does: by
// level, those nobody can see before the others, then by critical and
// warning alerts, looping queues and DEADQ arrivals, then by name and
// instance, so that equal rows keep one order between refreshes.
func SortRemote(rows []RemoteRow) {
	slices.SortStableFunc(rows, func(a, b RemoteRow) int {
		return cmp.Or(cmp.Compare(b.Level(), a.Level()), cmp.Compare(b.unseen(), a.unseen()),
			cmp.Compare(b.Crit, a.Crit), cmp.Compare(b.Warn, a.Warn), cmp.Compare(b.Looping, a.Looping),
			cmp.Compare(b.DeadRate, a.DeadRate), cmp.Compare(a.QMgr, b.QMgr), cmp.Compare(a.Instance, b.Instance))
	})
}

// unseen is 1 for a row whose figures nobody can vouch for now: the
// exporter cannot reach the queue manager, or Prometheus the exporter.
func (r *RemoteRow) unseen() int {
	if r.Link >= RemoteNotConnected {
		return 1
	}
	return 0
}

// RemoteCounts tallies a fleet's rows by link: answering, stale, not
// connected or down, and not polled yet, for the header.
func (f *RemoteFleet) RemoteCounts() (up, stale, bad, waiting int) {
	for i := range f.Rows {
		switch f.Rows[i].Link {
		case RemoteUp:
			up++
		case RemoteStale:
			stale++
		case RemoteConnecting:
			waiting++
		default:
			bad++
		}
	}
	return
}
