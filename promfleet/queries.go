package promfleet

import (
	"fmt"
	"time"

	pmodel "github.com/prometheus/common/model"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
)

// kind is what a query's answer says about the rows.
type kind int

const (
	kRows       kind = iota // every queue manager seen within the lookback
	kFresh                  // those whose series are not stale, and when last scraped
	kLastGood               // the exporter's last good poll of each
	kUp                     // the exporters' up
	kFigures                // connected, queues, interval; the DEADQ's depth, MAXDEPTH, rate
	kAlerts                 // the exporter's alerts and acknowledgements
	kWorstBOQ               // the fullest backout queue of each
	kReasons                // the DEADQ's largest reasons by messages held
	kArriving               // its reasons arriving fastest, per second
	kLoopCount              // input queues whose head was rolled back LoopBackouts times
	kLoopQueues             // the worst few of them
)

// query is one instant query of a refresh.
type query struct {
	kind kind
	expr string
}

// topReasons is how many DEADQ reasons, and loopNames how many looping
// queues, a row names: the server picks them (topk), so the answer does
// not grow with a DEADQ's variety.
const (
	topReasons = 3
	loopNames  = 3
)

// queries are the refresh's queries: a fixed set, whatever the fleet's
// size. Each asks for one kind of figure of every queue manager at once
// (never one query per queue manager); the server aggregates what the view
// shows in aggregate (the fullest backout queue, the largest reasons, the
// looping queues), so each answer has a few series per queue manager.
func queries(lookback time.Duration) []query {
	lb := pmodel.Duration(lookback).String()
	by := "by (instance, job, qmgr)"
	looping := fmt.Sprintf(`poisonwatch_queue_head_max_backouts{role="input"} >= %d`, model.LoopBackouts)
	return []query{
		{kRows, "last_over_time(poisonwatch_qmgr_polls_total[" + lb + "])"},
		{kFresh, "timestamp(poisonwatch_qmgr_polls_total)"},
		{kLastGood, "last_over_time(poisonwatch_qmgr_last_success_timestamp_seconds[" + lb + "])"},
		// up of the exporters only: a Prometheus scrapes much else.
		{kUp, "up and on (instance, job) last_over_time(poisonwatch_build_info[" + lb + "])"},
		{kFigures, `{__name__=~"poisonwatch_qmgr_(connected|queues|poll_interval_seconds)"}` +
			` or {__name__=~"poisonwatch_queue_(max_depth|depth)_messages|poisonwatch_queue_arrivals_per_second", role="deadq"}`},
		{kAlerts, `{__name__=~"poisonwatch_alert|poisonwatch_alert_acknowledged"} > 0`},
		{kWorstBOQ, "topk " + by + " (1, poisonwatch_queue_depth_messages{role=\"boq\"}" +
			" / on (instance, job, qmgr, queue) (poisonwatch_queue_max_depth_messages{role=\"boq\"} > 0))"},
		{kReasons, fmt.Sprintf("topk %s (%d, poisonwatch_deadq_messages_by_reason > 0)", by, topReasons)},
		{kArriving, fmt.Sprintf("topk %s (%d, deriv(poisonwatch_deadq_messages_by_reason[5m]) > 0)", by, topReasons)},
		{kLoopCount, "count " + by + " (" + looping + ")"},
		{kLoopQueues, fmt.Sprintf("topk %s (%d, %s)", by, loopNames, looping)},
	}
}

// builder folds the answers into rows.
type builder struct {
	rows  map[rowKey]*model.RemoteRow
	fresh map[rowKey]bool
	up    map[[2]string]float64
	conn  map[rowKey]float64
}

// build makes the fleet of the answers at evaluation time at: a row for
// every queue manager the lookback saw, its link from its series'
// freshness and its exporter's up, its figures from the rest; worst first,
// at most maxRows of them.
func build(qs []query, answers [][]sample, at time.Time, maxRows int) *model.RemoteFleet {
	b := &builder{rows: map[rowKey]*model.RemoteRow{}, fresh: map[rowKey]bool{}, up: map[[2]string]float64{}, conn: map[rowKey]float64{}}
	by := map[kind][]sample{}
	for i, q := range qs {
		by[q.kind] = answers[i]
	}
	for _, s := range by[kRows] {
		b.rows[s.key()] = &model.RemoteRow{Instance: s.instance, Job: s.job, QMgr: s.qmgr}
	}
	for _, k := range []kind{kFresh, kLastGood, kUp, kFigures, kAlerts, kWorstBOQ, kReasons, kArriving, kLoopCount, kLoopQueues} {
		for i := range by[k] {
			b.add(k, &by[k][i])
		}
	}
	f := &model.RemoteFleet{At: at, Rows: make([]model.RemoteRow, 0, len(b.rows))}
	for k, r := range b.rows {
		b.link(k, r, at)
		r.Count()
		f.Rows = append(f.Rows, *r)
	}
	model.SortRemote(f.Rows)
	if len(f.Rows) > maxRows {
		f.Dropped, f.Rows = len(f.Rows)-maxRows, f.Rows[:maxRows]
	}
	return f
}

// add folds one sample of a query's answer into its row; a sample of a
// queue manager the rows query did not see (it appeared between the two)
// waits for the next refresh.
func (b *builder) add(k kind, s *sample) {
	if k == kUp {
		b.up[[2]string{s.instance, s.job}] = s.value
		return
	}
	r := b.rows[s.key()]
	if r == nil {
		return
	}
	switch k {
	case kFresh:
		b.fresh[s.key()] = true
	case kLastGood:
		r.LastGood = unixTime(s.value)
	case kFigures:
		b.figure(r, s)
	case kAlerts:
		alert(r, s)
	case kWorstBOQ:
		r.WorstBOQ, r.WorstFill = s.queue, s.value
	case kReasons, kArriving:
		reason(r, k, s)
	case kLoopCount:
		r.Looping = int(s.value)
	case kLoopQueues:
		if len(r.LoopQueues) < loopNames {
			r.LoopQueues = append(r.LoopQueues, s.queue)
		}
	}
}

func (b *builder) figure(r *model.RemoteRow, s *sample) {
	switch s.name {
	case "poisonwatch_qmgr_connected":
		b.conn[rowKey{r.Instance, r.Job, r.QMgr}] = s.value
	case "poisonwatch_qmgr_queues":
		r.Queues = int(s.value)
	case "poisonwatch_qmgr_poll_interval_seconds":
		r.Interval = time.Duration(s.value * float64(time.Second))
	case "poisonwatch_queue_depth_messages":
		r.DeadQ, r.DeadDepth = s.queue, s.value
	case "poisonwatch_queue_max_depth_messages":
		r.DeadQ, r.DeadMax = s.queue, s.value
	case "poisonwatch_queue_arrivals_per_second":
		r.DeadRate, r.DeadRateOK = 60*s.value, true
	}
}

// maxAlerts bounds the alerts a row keeps, the worst first: a queue
// manager with a thousand queues may have a thousand alerts, and the view
// shows a handful.
const maxAlerts = 50

func alert(r *model.RemoteRow, s *sample) {
	sev := severity(s.severity)
	for i := range r.Alerts {
		a := &r.Alerts[i]
		if a.Rule == s.rule && a.Queue == s.queue && a.Severity == sev {
			fold(a, s)
			return
		}
	}
	a := model.RemoteAlert{Rule: s.rule, Queue: s.queue, Severity: sev}
	fold(&a, s)
	if len(r.Alerts) < maxAlerts {
		r.Alerts = append(r.Alerts, a)
		return
	}
	// Full: the new one takes the place of a less severe one.
	for i := range r.Alerts {
		if r.Alerts[i].Severity < sev {
			r.Alerts[i] = a
			return
		}
	}
}

// fold adds a series to its alert: poisonwatch_alert counts the alerts,
// poisonwatch_alert_acknowledged those acknowledged; all of them
// acknowledged, the alert is held.
func fold(a *model.RemoteAlert, s *sample) {
	if s.name == "poisonwatch_alert_acknowledged" {
		a.AckCount = int(s.value)
	} else {
		a.Count = int(s.value)
	}
	a.Acked = a.Count > 0 && a.AckCount >= a.Count
}

func severity(s string) actions.Severity {
	switch s {
	case "critical":
		return actions.Critical
	case "warning":
		return actions.Warning
	}
	return actions.Info
}

func reason(r *model.RemoteRow, k kind, s *sample) {
	if k == kReasons {
		if len(r.Reasons) < topReasons {
			r.Reasons = append(r.Reasons, model.RemoteReason{Code: s.reason, Name: s.reasonName, Value: s.value})
		}
		return
	}
	if len(r.Arriving) < topReasons {
		r.Arriving = append(r.Arriving, model.RemoteReason{Code: s.reason, Name: s.reasonName, Value: 60 * s.value})
	}
}

// link says how the row reads: down when its exporter's up is 0 or its
// series went stale (Prometheus marks them so on the first failed scrape),
// not connected when the exporter cannot reach the queue manager, stale
// when its last good poll is older than three of the exporter's intervals
// (as the dashboard and the exporter's own rule say), connecting before a
// first poll.
func (b *builder) link(k rowKey, r *model.RemoteRow, at time.Time) {
	up, hasUp := b.up[[2]string{k.instance, k.job}]
	conn, hasConn := b.conn[k]
	switch {
	case hasUp && up == 0:
		r.Link, r.Why = model.RemoteDown, "exporter down (up 0)"
	case !b.fresh[k]:
		r.Link, r.Why = model.RemoteDown, "series stale"
	case !hasConn:
		r.Link = model.RemoteConnecting
	case conn == 0:
		r.Link = model.RemoteNotConnected
	case r.Interval > 0 && !r.LastGood.IsZero() && at.Sub(r.LastGood) > 3*r.Interval:
		r.Link = model.RemoteStale
	}
}

func unixTime(sec float64) time.Time {
	return time.Unix(0, int64(sec*1e9))
}
