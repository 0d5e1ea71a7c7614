package model

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Alert is one thing an operator should know, with the rule behind it.
type Alert struct {
	Severity actions.Severity
	Rule     string // docs/poison-rules.md number, e.g. "R8c"
	QMgr     string
	Queue    string
	Text     string // one line: why
	Fix      string // MQSC or action that would fix it, when known
	// History is when the alert started, its flaps and who acknowledged
	// it (alerthistory.go); set by the fold.
	History Episode
	// FixFirst is how many of Fix's first lines fix other findings this fix
	// would otherwise make worse; After names them (actions.Finding).
	FixFirst int
	After    []string
	// Notes say what the fix needs to take effect (R1b reconnects).
	Notes []string
	// Queues lists the queues of a finding grouped per queue manager.
	Queues []string
	// Instance tells apart alerts of one rule on one queue that are not one
	// episode (R10f: each run whose messages came back); "" for most.
	Instance string
}

// ID names an alert for `poisonwatch fix --alert`: its rule and queue, or
// the queue manager for a finding about it or grouped over its queues.
func (a Alert) ID() string {
	if a.Queue == "" {
		return a.Rule + ":" + a.QMgr
	}
	return a.Rule + ":" + a.Queue
}

// alertOf turns a lint finding of queue manager qm into an alert.
func alertOf(f actions.Finding, qm string) Alert {
	return Alert{Severity: f.Severity, Rule: f.Rule, QMgr: qm, Queue: f.Queue, Text: f.Why,
		Fix: strings.Join(f.Fix, "\n"), FixFirst: f.Prereq, After: f.After, Notes: f.Notes, Queues: f.Queues}
}

// takeFix gives a live alert the fix of the lint finding that is the same
// finding: the lint's fix has been checked against the other findings.
func (a *Alert) takeFix(f Alert) {
	a.Fix, a.FixFirst, a.After, a.Notes = f.Fix, f.FixFirst, f.After, f.Notes
}

// loopAlarm is the BackoutCount from which a BOTHRESH 0 queue is reported as
// a poison loop rather than a message at risk (the lint uses the same value).
const loopAlarm = 10

// stalledAfter is how long a queue with consumers and a growing backlog may go
// without a get before it is reported as stalled.
const stalledAfter = 30 * time.Second

// alerts derives live alerts from the current state. They are recomputed every
// fold, so an alert clears as soon as its condition does.
func (q *QMgrState) alerts(now time.Time) []Alert {
	var out []Alert
	add := func(sev actions.Severity, rule, queue, format string, args ...any) *Alert {
		out = append(out, Alert{Severity: sev, Rule: rule, QMgr: q.Name, Queue: queue, Text: fmt.Sprintf(format, args...)})
		return &out[len(out)-1]
	}
	if q.Snap != nil && !q.Snap.Connected && q.Snap.Err != nil {
		add(actions.Critical, "", "", "not connected: %v", q.Snap.Err)
	}
	for _, qs := range q.SortedQueues() {
		q.queueAlerts(qs, now, add)
	}
	out = append(out, q.loopAlerts(now)...)
	q.explainedByActs(out)
	lint := q.lint()
	q.lastLint = lint
	out = mergeLint(out, lint)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}

// mergeLint adds the configuration findings to the live alerts, one alert per
// finding. A live alert and a finding are the same finding only when rule,
// queue and severity agree (a poison loop seen live and linted); then the
// live text stays and takes the finding's fix. Any other finding on the same
// queue is its own alert with its own fix, never lending it to another.
// The lint's fix wins over a live alert's own: it is the one checked
// against the other findings, and the one other fixes order themselves after.
func mergeLint(live, lint []Alert) []Alert {
	same := map[string]int{}
	for i, a := range live {
		same[a.Rule+"\x00"+a.Queue+"\x00"+a.Severity.String()] = i + 1
	}
	for _, f := range lint {
		i := same[f.Rule+"\x00"+f.Queue+"\x00"+f.Severity.String()]
		switch {
		case i == 0:
			live = append(live, f)
		case f.Fix != "" || live[i-1].Fix == "":
			live[i-1].takeFix(f)
		}
	}
	return live
}

// addFunc adds an alert and returns it, for setting its fix.
type addFunc func(sev actions.Severity, rule, queue, format string, args ...any) *Alert

func (q *QMgrState) queueAlerts(qs *QueueState, now time.Time, add addFunc) {
	v := qs.View
	name := v.Info.Name
	bt := v.Info.BackoutThresh
	switch {
	case qs.MaxBackout >= loopAlarm && bt == 0 && v.Role == mqwatch.RoleInput:
		add(actions.Critical, "R1c", name, "LOOP: head message rolled back %d times; BOTHRESH 0: poison handling disabled", qs.MaxBackout)
	case qs.MaxBackout > 0 && bt == 0 && v.Role == mqwatch.RoleInput:
		add(actions.Warning, "R1c", name, "head message rolled back %d times; BOTHRESH 0: a poison message would loop forever", qs.MaxBackout)
	case qs.Stuck > 0:
		a := add(actions.Critical, "R8c", name, "stuck poison: BackoutCount %d ≥ BOTHRESH %d on the input queue (R1f: the consumer does not honour BOTHRESH, or the BOQ/DEADQ put failed)", qs.MaxBackout, bt)
		a.Fix = stuckAdvice(v.Info)
	}
	if fill := qs.Fill(); fill >= 1 {
		a := add(actions.Critical, "R8b", name, "queue full: %d/%d (MQRC_Q_FULL for every put)", v.Status.Depth, v.Info.MaxDepth)
		a.Fix = actions.RoomFix(v.Info)
	} else if fill >= 0.8 {
		a := add(actions.Warning, "R8a", name, "%.0f%% of MAXDEPTH %d", fill*100, v.Info.MaxDepth)
		a.Fix = actions.RoomFix(v.Info)
	}
	if v.Role == mqwatch.RoleDeadQ || v.Role == mqwatch.RoleBOQ {
		// R8d is about depth: a DEADQ that a handler drains faster than
		// messages arrive is not growing, however many arrive.
		if net, ok := qs.DepthPerMinute(); ok && net > 0 {
			msg := fmt.Sprintf("growing: +%.0f/min net", net)
			if in, ok := qs.ArrivalsPerMinute(); ok && in > 0 {
				msg += fmt.Sprintf(" (%.0f/min arriving)", in)
			}
			if ttf, ok := qs.TimeToFull(); ok {
				msg += ", full in " + Span(ttf)
			}
			add(actions.Warning, "R8d", name, "%s", msg)
		}
	}
	if v.Role == mqwatch.RoleInput && v.Status.OpenInput > 0 && v.Status.Depth > 0 && v.Status.Monitored {
		if idle := qs.GetIdle(now); idle >= stalledAfter {
			if rate, ok := qs.DepthPerMinute(); ok && rate > 0 {
				a := add(actions.Critical, "R4f", name, "consumer stalled: %d consumer(s) open, no get for %s, backlog +%.0f/min", v.Status.OpenInput, Span(idle), rate)
				a.Fix = "find why the consumers of " + name + " stopped getting: an ASF ConnectionConsumer stops for good after a persistent message it could put neither on the backout queue nor on the DEADQ (R4f), an MDB pauses after maxDeliveryFailures (R9c); fix that, then restart them"
			}
		}
	}
	q.unattendedAlert(qs, now, add)
	if v.Err != nil {
		add(actions.Warning, "", name, "cannot read messages: %v", v.Err)
	}
}

// stuckAdvice is what to do about stuck poison (R8c): no attribute of the
// queue stops a consumer that ignores BOTHRESH, so it is advice, not MQSC.
func stuckAdvice(q mqwatch.QueueInfo) string {
	boq := strings.TrimSpace(q.BackoutQName)
	park := "a parking queue"
	if boq != "" {
		park = "its backout queue " + boq + " (or a parking queue)"
	}
	return fmt.Sprintf("disable GET on %s to stop the loop, move the stuck messages to %s, then have its consumer honour BOTHRESH (MQ classes for JMS/XMS) or check BackoutCount itself (R1f)", q.Name, park)
}

// Span shows a duration the way every screen does: 45s, 12m30s, 5h30m, 3d.
// A negative duration (a put time ahead of this clock) reads "-": it is no
// age at all, and showing 0s would claim the message just arrived.
func Span(d time.Duration) string {
	switch {
	case d < 0:
		return "-"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// ruleText is the text of the docs/poison-rules.md rules alerts cite, for the alert
// detail screen.
var ruleText = map[string]string{
	"R1b": "The first time a consumer sees BackoutCount > 0 it queries BOTHRESH and BOQNAME of the input queue and caches them for the life of the connection: a later ALTER is not seen by a consumer that has cached them.",
	"R1c": "BOTHRESH == 0: never poison; the message is redelivered forever (poison loop).",
	"R1f": "The queue manager itself never acts on BOTHRESH or BOQNAME: only MQ classes for JMS/XMS and integration products do. A plain MQI application that just rolls back loops forever on a poison message unless it checks BackoutCount itself.",
	"R2c": "BOTHRESH > 0 without BOQNAME is a configuration smell.",
	"R4f": "When a ConnectionConsumer (ASF: an MDB on a listener port or activation spec) cannot move a persistent poison message to the backout queue or the DEADQ, delivery to every ConnectionConsumer on that destination stops; they must be closed, the problem fixed, and re-created.",
	"R8a": "A DEADQ is defined; it is not near MAXDEPTH; its MAXMSGL is at least the largest MAXMSGL of the queues that can dead-letter into it.",
	"R8b": "Each BOQ exists, is a local queue, is not put-inhibited, has room and a large enough MAXMSGL.",
	"R8c": "Messages with BackoutCount >= BOTHRESH still sitting on an input queue are stuck poison (no JMS-aware consumer, or the BOQ/DEADQ put failed).",
	"R8d": "Depth of a BOQ or DEADQ that grows is an incident signal; its rate matters.",
	"R9a": "Poison is detected from JMSXDeliveryCount against a threshold; Amlen caps JMSXDeliveryCount at 64, so thresholds above 64 never fire.",
	"R9c": "An MDB with maxDeliveryFailures = N pauses after N failures; while paused a backlog builds.",
}

// RuleText returns the text of a rule an alert cites, "" when unknown.
func RuleText(rule string) string { return ruleText[rule] }
