package model

import (
	"fmt"
	"sort"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Severity orders alerts.
type Severity int

// Severities, least to most urgent.
const (
	Info Severity = iota
	Warning
	Critical
)

func (s Severity) String() string { return [...]string{"info", "warn", "crit"}[s] }

// Alert is one thing an operator should know, with the rule behind it.
type Alert struct {
	Severity Severity
	Rule     string // POISON-RULES number, e.g. "R8c"
	QMgr     string
	Queue    string
	Text     string // one line: why
	Fix      string // MQSC or action that would fix it, when known
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
	add := func(sev Severity, rule, queue, format string, args ...any) {
		out = append(out, Alert{Severity: sev, Rule: rule, QMgr: q.Name, Queue: queue, Text: fmt.Sprintf(format, args...)})
	}
	if q.Snap != nil && !q.Snap.Connected && q.Snap.Err != nil {
		add(Critical, "", "", "not connected: %v", q.Snap.Err)
	}
	for _, qs := range q.SortedQueues() {
		q.queueAlerts(qs, now, add)
	}
	seen := map[string]int{}
	for i, a := range out {
		seen[a.Rule+"\x00"+a.Queue] = i + 1
	}
	for _, a := range q.lint() {
		i := seen[a.Rule+"\x00"+a.Queue]
		switch {
		case i == 0:
			out = append(out, a)
		case out[i-1].Fix == "":
			out[i-1].Fix = a.Fix // the live alert says what happens, the lint how to prevent it
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}

type addFunc func(sev Severity, rule, queue, format string, args ...any)

func (q *QMgrState) queueAlerts(qs *QueueState, now time.Time, add addFunc) {
	v := qs.View
	name := v.Info.Name
	bt := v.Info.BackoutThresh
	switch {
	case qs.MaxBackout >= loopAlarm && bt == 0 && v.Role == mqwatch.RoleInput:
		add(Critical, "R1c", name, "LOOP: head message rolled back %d times; BOTHRESH 0: poison handling disabled", qs.MaxBackout)
	case qs.MaxBackout > 0 && bt == 0 && v.Role == mqwatch.RoleInput:
		add(Warning, "R1c", name, "head message rolled back %d times; BOTHRESH 0: a poison message would loop forever", qs.MaxBackout)
	case qs.Stuck > 0:
		add(Critical, "R8c", name, "stuck poison: BackoutCount %d ≥ BOTHRESH %d on the input queue (R1f: the consumer does not honour BOTHRESH, or the BOQ/DEADQ put failed)", qs.MaxBackout, bt)
	}
	if fill := qs.Fill(); fill >= 1 {
		add(Critical, "R8b", name, "queue full: %d/%d (MQRC_Q_FULL for every put)", v.Status.Depth, v.Info.MaxDepth)
	} else if fill >= 0.8 {
		add(Warning, "R8a", name, "%.0f%% of MAXDEPTH %d", fill*100, v.Info.MaxDepth)
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
				msg += ", full in " + roundDuration(ttf)
			}
			add(Warning, "R8d", name, "%s", msg)
		}
	}
	if v.Role == mqwatch.RoleInput && v.Status.OpenInput > 0 && v.Status.Depth > 0 && v.Status.Monitored {
		if idle := qs.GetIdle(now); idle >= stalledAfter {
			if rate, ok := qs.DepthPerMinute(); ok && rate > 0 {
				add(Critical, "R4f", name, "consumer stalled: %d consumer(s) open, no get for %s, backlog +%.0f/min", v.Status.OpenInput, roundDuration(idle), rate)
			}
		}
	}
	if v.Err != nil {
		add(Warning, "", name, "cannot read messages: %v", v.Err)
	}
}

// roundDuration shows a duration the way the dashboard does: 45s, 12m30s,
// 5h30m, 3d.
func roundDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
