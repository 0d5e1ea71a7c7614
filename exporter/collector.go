package exporter

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names and help texts. A scrape reads the figures of the last fold
// and nothing else; "last poll" below means the watcher's last poll.
var (
	queueLabels = []string{"qmgr", "queue", "role"}

	descQueues = desc("qmgr_queues", "Local queues of the queue manager the exporter watches, before the --max-queues cap.", "qmgr")
	descDepth  = desc("queue_depth_messages", "CURDEPTH of a local queue at the last successful poll.", queueLabels...)
	descMax    = desc("queue_max_depth_messages", "MAXDEPTH of a local queue.", queueLabels...)
	descBOT    = desc("queue_backout_threshold", "BOTHRESH of a local queue (0: poison handling disabled, R1c).", queueLabels...)
	descIPP    = desc("queue_open_input_handles", "IPPROCS: handles open for input on a local queue.", queueLabels...)
	descAge    = desc("queue_oldest_message_age_seconds", "MSGAGE of a local queue's oldest message (queue monitoring on, queue not empty).", queueLabels...)
	descLGet   = desc("queue_last_get_timestamp_seconds", "LGETDATE/LGETTIME of a local queue as Unix time (queue monitoring on, after a first get).", queueLabels...)
	// Not "_count": that suffix is a histogram's or a summary's.
	descHead  = desc("queue_head_max_backouts", "Highest BackoutCount among the browsed head messages of an input queue.", queueLabels...)
	descRisk  = desc("queue_at_risk_messages", "Browsed head messages of an input queue with BackoutCount > 0.", queueLabels...)
	descStuck = desc("queue_stuck_poison_messages", "Browsed head messages of an input queue with BackoutCount >= BOTHRESH > 0 (R8c).", queueLabels...)
	descArr   = desc("queue_arrivals_total", "Messages seen arriving on a backout queue or the DEADQ since the exporter started (not during the demo's warm-up).", queueLabels...)
	descRate  = desc("queue_arrivals_per_second", "Arrival rate of a backout queue or the DEADQ over the dashboard's 5-minute window.", queueLabels...)
	// Three bands per BOQ and DEADQ, each counting the older too, so a
	// rule compares one series with a threshold.
	descWaiting = desc("queue_unattended_messages", "Messages of a backout queue or the DEADQ that have waited there longer than older_than (1h, 1d, 1w), dead-lettered or put; R8f alerts past the queue manager's threshold.",
		append(queueLabels, "older_than")...)

	descReason = desc("deadq_messages_by_reason", "DEADQ messages by MQDLH Reason; past the cap, reason=\"(other)\" sums the rest.",
		"qmgr", "queue", "reason", "reason_name")
	descDest = desc("deadq_messages_by_destination", "DEADQ messages by the queue a requeue would send them to; past the cap, destination=\"(other)\" sums the rest.",
		"qmgr", "queue", "destination", "destination_qmgr")
	descNReasons = desc("deadq_reasons", "Distinct MQDLH reasons on the DEADQ, before the cap.", "qmgr", "queue")
	descNDests   = desc("deadq_destinations", "Distinct destinations on the DEADQ, before the cap.", "qmgr", "queue")

	descAlert = desc("alert", "Active dashboard alerts with this rule, queue and severity (docs/poison-rules.md).",
		"qmgr", "rule", "queue", "severity")

	descAcked = desc("alert_acknowledged", "Active dashboard alerts with this rule, queue and severity that someone acknowledged or snoozed (K, Z); for Alertmanager inhibition.",
		"qmgr", "rule", "queue", "severity")

	descUp      = desc("qmgr_connected", "1 when the last poll reached the queue manager.", "qmgr")
	descPollAge = desc("qmgr_last_poll_age_seconds", "Time since the last successful poll ended.", "qmgr")
	descGood    = desc("qmgr_last_success_timestamp_seconds", "When the last successful poll ended, as Unix time.", "qmgr")
	descPolls   = desc("qmgr_polls_total", "Polls the watcher made since the exporter started.", "qmgr")
	descErrs    = desc("qmgr_poll_errors_total", "Failed polls seen by the exporter.", "qmgr")
	descErrsBy  = desc("qmgr_poll_errors_by_reason_total", "Failed polls seen by the exporter, by IBM MQ reason code name.", "qmgr", "reason")
	descSkip    = desc("qmgr_snapshots_skipped_total", "Polls whose snapshot a newer one replaced before the exporter folded it.", "qmgr")
	descDur     = desc("qmgr_poll_duration_seconds", "How long the last poll took.", "qmgr")
	descCalls   = desc("qmgr_poll_calls", "MQ calls the last poll made.", "qmgr")
	descBytes   = desc("qmgr_poll_read_bytes", "Message bytes the last poll read.", "qmgr")
	descIntv    = desc("qmgr_poll_interval_seconds", "The configured poll interval.", "qmgr")

	descBuild = desc("build_info", "Always 1; the version label says which poisonwatch serves the metrics.", "version")
)

// served maps every metric name the collector may send to its labels: the
// rules file's test checks its expressions against it.
var served = map[string][]string{}

func desc(name, help string, labels ...string) *prometheus.Desc {
	served["poisonwatch_"+name] = labels
	return prometheus.NewDesc("poisonwatch_"+name, help, labels, nil)
}

// allDescs lists every metric the collector may send, for Describe.
var allDescs = []*prometheus.Desc{descQueues, descDepth, descMax, descBOT, descIPP, descAge, descLGet, descHead, descRisk, descStuck,
	descArr, descRate, descWaiting, descReason, descDest, descNReasons, descNDests, descAlert, descAcked,
	descUp, descPollAge, descGood, descPolls, descErrs, descErrsBy, descSkip, descDur, descCalls, descBytes, descIntv, descBuild, descActs}

// collector turns the latest figures into metrics on each scrape.
type collector struct{ e *Exporter }

// Describe sends every metric's description.
func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range allDescs {
		ch <- d
	}
}

// Collect sends every queue manager's metrics of its last fold, and the
// one figure that depends on the time of the scrape: the last poll's age.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	now := c.e.cfg.Now()
	ch <- prometheus.MustNewConstMetric(descBuild, prometheus.GaugeValue, 1, c.e.cfg.Version)
	c.e.acts.collect(ch)
	for i := range c.e.figs {
		f := c.e.figs[i].Load()
		if f == nil {
			// No poll has finished yet: the counters start at 0 all the
			// same, so the first failure is an increase.
			name := labelValue(c.e.cfg.Sources[i].Name())
			ch <- prometheus.MustNewConstMetric(descPolls, prometheus.CounterValue, 0, name)
			ch <- prometheus.MustNewConstMetric(descErrs, prometheus.CounterValue, 0, name)
			continue
		}
		for _, m := range f.metrics(c.e.cfg.Interval) {
			ch <- m
		}
		if !f.lastGood.IsZero() {
			ch <- prometheus.MustNewConstMetric(descPollAge, prometheus.GaugeValue, max(now.Sub(f.lastGood), 0).Seconds(), f.qmgr)
		}
	}
}

// metrics are made by the first scrape after the fold that built the
// figures and reused by the scrapes until the next fold: making them is
// half a scrape's cost, and neither polls nor scrapes need outnumber the
// other for it to be paid once per distinct picture.
func (f *figures) metrics(interval time.Duration) []prometheus.Metric {
	f.once.Do(func() {
		emit := func(m prometheus.Metric) { f.made = append(f.made, m) }
		health(emit, f, interval)
		for j := range f.queues {
			queue(emit, f.qmgr, &f.queues[j])
		}
		for j := range f.deadqs {
			deadq(emit, f.qmgr, &f.deadqs[j])
		}
		for _, a := range f.alerts {
			emit(prometheus.MustNewConstMetric(descAlert, prometheus.GaugeValue, float64(a.count), f.qmgr, a.rule, a.queue, a.severity))
			emit(prometheus.MustNewConstMetric(descAcked, prometheus.GaugeValue, float64(a.acked), f.qmgr, a.rule, a.queue, a.severity))
		}
	})
	return f.made
}

func health(emit func(prometheus.Metric), f *figures, interval time.Duration) {
	gauge := func(d *prometheus.Desc, v float64) {
		emit(prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, f.qmgr))
	}
	counter := func(d *prometheus.Desc, v float64) {
		emit(prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, f.qmgr))
	}
	up := 0.0
	if f.connected {
		up = 1
	}
	gauge(descUp, up)
	if !f.lastGood.IsZero() {
		gauge(descGood, float64(f.lastGood.UnixNano())/1e9)
	}
	counter(descPolls, float64(f.polls))
	counter(descSkip, float64(f.skipped))
	// The total is served from the first poll, at 0, so rate() and
	// increase() see the first failure; the breakdown's series appear with
	// their reason.
	total := 0.0
	for _, r := range f.errors {
		total += r.count
		emit(prometheus.MustNewConstMetric(descErrsBy, prometheus.CounterValue, r.count, f.qmgr, r.reason))
	}
	counter(descErrs, total)
	gauge(descDur, f.poll.Duration.Seconds())
	gauge(descCalls, float64(f.poll.Calls))
	gauge(descBytes, float64(f.poll.Bytes))
	gauge(descIntv, interval.Seconds())
	if f.connected {
		gauge(descQueues, float64(f.nQueues))
	}
}

func queue(emit func(prometheus.Metric), qmgr string, q *queueFigures) {
	gauge := func(d *prometheus.Desc, v float64) {
		emit(prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, qmgr, q.name, q.role))
	}
	gauge(descDepth, float64(q.depth))
	if q.other {
		if q.input {
			gauge(descRisk, float64(q.atRisk))
			gauge(descStuck, float64(q.stuck))
		}
		return
	}
	gauge(descMax, float64(q.maxDepth))
	gauge(descBOT, float64(q.bothresh))
	gauge(descIPP, float64(q.openInput))
	if q.hasOldest {
		gauge(descAge, q.oldest.Seconds())
	}
	if !q.lastGet.IsZero() {
		gauge(descLGet, float64(q.lastGet.UnixNano())/1e9)
	}
	if q.input {
		gauge(descHead, float64(q.headBO))
		gauge(descRisk, float64(q.atRisk))
		gauge(descStuck, float64(q.stuck))
	}
	if q.inventory {
		emit(prometheus.MustNewConstMetric(descArr, prometheus.CounterValue, q.arrivals, qmgr, q.name, q.role))
		if q.hasRate {
			gauge(descRate, q.rate)
		}
		for _, b := range []struct {
			label string
			n     int
		}{{"1h", q.ages.OverHour}, {"1d", q.ages.OverDay}, {"1w", q.ages.OverWeek}} {
			emit(prometheus.MustNewConstMetric(descWaiting, prometheus.GaugeValue, float64(b.n), qmgr, q.name, q.role, b.label))
		}
	}
}

func deadq(emit func(prometheus.Metric), qmgr string, d *deadqFigures) {
	gauge := func(desc *prometheus.Desc, v int, values ...string) {
		emit(prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, float64(v), append([]string{qmgr, d.queue}, values...)...))
	}
	for _, r := range d.reasons {
		gauge(descReason, r.count, r.values...)
	}
	if d.reasonRest > 0 {
		gauge(descReason, d.reasonRest, Other, Other)
	}
	for _, r := range d.dests {
		gauge(descDest, r.count, r.values...)
	}
	if d.destRest > 0 {
		gauge(descDest, d.destRest, Other, Other)
	}
	gauge(descNReasons, d.nReasons)
	gauge(descNDests, d.nDests)
}
