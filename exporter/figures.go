package exporter

import (
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// figures is one queue manager's state as a scrape reports it. It is built
// once per poll, after the fold, and never written afterwards: a scrape
// reads it without a lock and without asking the queue manager anything.
type figures struct {
	qmgr      string // the watcher's name: stable while disconnected
	connected bool
	polls     uint64
	skipped   uint64
	errors    []reasonCount // failed polls by reason, cumulative
	lastGood  time.Time     // when the last successful poll ended; zero before
	poll      mqwatch.PollStats
	queues    []queueFigures
	nQueues   int // local queues before the --max-queues cap
	deadqs    []deadqFigures
	alerts    []alertCount

	once sync.Once
	made []prometheus.Metric // by the first scrape of these figures
}

// queueFigures are one local queue's figures, label values ready.
type queueFigures struct {
	name, role string
	depth      int32
	maxDepth   int32
	bothresh   int32
	openInput  int32
	oldest     time.Duration // MSGAGE: set when monitored and not empty
	hasOldest  bool
	lastGet    time.Time // zero when unknown (queue monitoring off, or never)
	input      bool      // an input queue: head figures apply
	headBO     int32
	atRisk     int
	stuck      int
	inventory  bool // a BOQ or the DEADQ: arrival figures apply
	arrivals   float64
	rate       float64 // per second over model.RateWindow
	hasRate    bool
	ages       model.AgeBands // how long its messages have waited (R8f)
	// other: the queues past --max-queues of one role, summed; only the
	// figures that add up (depth, at risk, stuck) are served for them.
	other bool
}

// deadqFigures are the capped group counts of one DEADQ.
type deadqFigures struct {
	queue                string
	reasons, dests       []labelledCount
	nReasons, nDests     int
	reasonRest, destRest int
}

// labelledCount is a group's size with its label values.
type labelledCount struct {
	values []string
	count  int
}

// alertCount is how many dashboard alerts share one label set (lint
// findings may say the same rule twice about one queue, in other words).
type alertCount struct {
	rule, queue, severity string
	count                 int
	acked                 int // of count, acknowledged or snoozed
}

// reasonCount counts failed polls with one reason.
type reasonCount struct {
	reason string
	count  float64
}

// limits are the cardinality caps: queues per queue manager and the DEADQ
// breakdowns.
type limits struct{ queues, reasons, dests int }

// build reads the folded state of one queue manager.
func build(name string, q *model.QMgrState, snap *mqwatch.Snapshot, t *tally, lim limits) *figures {
	f := &figures{qmgr: labelValue(name), connected: snap.Connected, polls: snap.Seq, skipped: t.skipped,
		errors: t.reasons(), poll: snap.Poll}
	if q == nil {
		return f
	}
	f.lastGood = q.LastGood
	if !snap.Connected {
		// The figures are the last good poll's: a time series must not
		// claim they are current. Health says why they stopped, and the one
		// alert left is the dashboard's own "not connected".
		f.alerts = alertCounts(q.Alerts, snap.Time, func(a model.Alert) bool { return a.Rule == "" && a.Queue == "" })
		return f
	}
	seen := map[string]bool{}
	for _, qs := range q.SortedQueues() {
		if !qs.View.HasStatus {
			continue // alias, remote and model definitions hold no messages
		}
		qf := queueFigure(qs, t)
		if seen[qf.name] {
			continue // two names that read the same once made valid UTF-8
		}
		seen[qf.name] = true
		f.queues = append(f.queues, qf)
	}
	f.nQueues = len(f.queues)
	alerting := map[string]bool{}
	for _, a := range q.Alerts {
		alerting[labelValue(a.Queue)] = true
	}
	f.queues = capQueues(f.queues, lim.queues, alerting)
	if gs := q.Groups[snap.QMgr.DeadQ]; gs != nil && gs.IsDLQ {
		f.deadqs = append(f.deadqs, deadqFigure(gs, lim))
	}
	f.alerts = alertCounts(q.Alerts, snap.Time, func(model.Alert) bool { return true })
	return f
}

func queueFigure(qs *model.QueueState, t *tally) queueFigures {
	v := qs.View
	qf := queueFigures{name: labelValue(v.Info.Name), role: v.Role.String(), depth: v.Status.Depth,
		maxDepth: v.Info.MaxDepth, bothresh: v.Info.BackoutThresh, openInput: v.Status.OpenInput}
	if v.Status.Monitored {
		qf.lastGet = v.Status.LastGet
		qf.oldest, qf.hasOldest = v.Status.OldestAge, v.Status.Depth > 0
	}
	switch v.Role {
	case mqwatch.RoleInput:
		qf.input, qf.headBO, qf.atRisk, qf.stuck = true, qs.MaxBackout, qs.AtRisk, qs.Stuck
	case mqwatch.RoleBOQ, mqwatch.RoleDeadQ:
		qf.inventory, qf.ages = true, qs.Ages
		if p, ok := qs.Arrived.Last(); ok {
			qf.arrivals = t.arrivals(qf.name, p.V)
		}
		if r, ok := qs.ArrivalsPerMinute(); ok {
			qf.rate, qf.hasRate = r/60, true
		}
	}
	return qf
}

func deadqFigure(gs *model.GroupSet, lim limits) deadqFigures {
	d := deadqFigures{queue: labelValue(gs.Queue)}
	var top []counted
	top, d.nReasons, d.reasonRest = topN(gs, model.DimReason, lim.reasons)
	for _, g := range top {
		d.reasons = append(d.reasons, labelledCount{values: []string{strconv.Itoa(int(g.key.Reason)),
			mqfmt.Reason(g.key.Reason).String()}, count: g.count})
	}
	top, d.nDests, d.destRest = topN(gs, model.DimDest, lim.dests)
	var odd int
	d.dests, odd = merge(top, func(k model.GroupKey) []string { return []string{labelValue(k.DestQ), labelValue(k.DestQMgr)} })
	d.destRest += odd
	return d
}

// merge turns groups into label sets, adding up groups whose label values
// came out the same (two destinations that differ only past the length
// cap): a scrape may not carry one series twice. A JMS destination spelt
// "(other)" would collide with the cap's own series, so it is counted with
// the rest (odd).
func merge(top []counted, values func(model.GroupKey) []string) (out []labelledCount, odd int) {
	at := map[string]int{}
	for _, g := range top {
		vs := values(g.key)
		if vs[0] == Other {
			odd += g.count
			continue
		}
		id := vs[0] + "\x00" + vs[1]
		if i, ok := at[id]; ok {
			out[i].count += g.count
			continue
		}
		at[id] = len(out)
		out = append(out, labelledCount{values: vs, count: g.count})
	}
	return out, odd
}

func alertCounts(alerts []model.Alert, now time.Time, keep func(model.Alert) bool) []alertCount {
	var out []alertCount
	at := map[alertCount]int{}
	for _, a := range alerts {
		if !keep(a) {
			continue
		}
		k := alertCount{rule: labelValue(a.Rule), queue: labelValue(a.Queue), severity: severity(a.Severity)}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, k)
		}
		out[i].count++
		if a.Acked(now) {
			out[i].acked++
		}
	}
	return out
}

// severity names a dashboard severity as alerting rules and Alertmanager
// routes usually spell it. Spelt out here, not taken from String: the label
// values are a contract with every rule file that routes on them.
func severity(s actions.Severity) string {
	switch s {
	case actions.Critical:
		return "critical"
	case actions.Warning:
		return "warning"
	}
	return "info"
}

// tally is what a watcher's feed told the exporter over its life: what a
// single snapshot cannot say.
type tally struct {
	last     uint64
	skipped  uint64
	failures map[string]float64

	// warm is closed when the warm-up ends (nil: there is none); warmed is
	// when the exporter first saw it closed. Until a snapshot polled after
	// that, every arrival counted is the warm-up's, and before holds how
	// many, per queue, to leave out of the counter.
	warm     <-chan struct{}
	warmed   time.Time
	counting bool
	before   map[string]float64
}

// fold notes whether snap was polled after the warm-up; before a fold.
func (t *tally) fold(snap *mqwatch.Snapshot) {
	if t.counting || t.warm == nil {
		t.counting = true
		return
	}
	if t.warmed.IsZero() {
		select {
		case <-t.warm:
			// The wall clock: the demo's is virtual until the warm-up
			// ends, and never passes the time it started.
			t.warmed = time.Now()
		default:
		}
	}
	t.counting = !t.warmed.IsZero() && !snap.Time.Before(t.warmed)
}

// arrivals is the arrival counter of a queue whose model has counted seen
// arrivals so far: less those of the warm-up.
func (t *tally) arrivals(queue string, seen float64) float64 {
	if !t.counting {
		if t.before == nil {
			t.before = map[string]float64{}
		}
		t.before[queue] = seen
		return 0
	}
	return max(seen-t.before[queue], 0)
}

// observe counts one snapshot. Snapshots are latest-wins, so a poll the
// exporter folded too slowly to see is counted as skipped, and if it failed
// its reason is not counted: polls_total (the watcher's sequence number)
// stays exact either way.
func (t *tally) observe(snap *mqwatch.Snapshot) {
	if t.last > 0 && snap.Seq > t.last+1 {
		t.skipped += snap.Seq - t.last - 1
	}
	t.last = snap.Seq
	if snap.Connected {
		return
	}
	if t.failures == nil {
		t.failures = map[string]float64{}
	}
	t.failures[reasonLabel(snap.Err)]++
}

// reasonLabel is IBM's name of the reason code behind a failed poll, or
// "unknown" when the failure carries none (a cancelled context).
func reasonLabel(err error) string {
	if rc := mqwatch.ReasonOf(err); rc != 0 {
		return rc.String()
	}
	return "unknown"
}

func (t *tally) reasons() []reasonCount {
	out := make([]reasonCount, 0, len(t.failures))
	for r, n := range t.failures {
		out = append(out, reasonCount{reason: r, count: n})
	}
	return out
}
